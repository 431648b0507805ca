/// What a gallery run measured, and its `--json` `summary`: `frames` rendered, `maxResident` pages, `peakResidentBytes` of decoded pixels held at
/// once, `peakRSSBytes` of the process (VmHWM; null where the system does not report it), then decoding
/// counters and, for a shard, `shard` "K/N".
public struct GallerySummaryRecord: Encodable, Equatable, Sendable {
    /// Frames rendered (and written, with an output folder).
    public let frames: Int
    public let maxResident: Int
    public let peakResidentBytes: Int
    public let peakRSSBytes: Int?
    public let decodePasses: Int
    public let bytesDecoded: Int
    public let loads: Int
    public let evictions: Int
    public let shard: String?

    public init(
        frames: Int, maxResident: Int, peakResidentBytes: Int, peakRSSBytes: Int?, decodePasses: Int,
        bytesDecoded: Int, loads: Int, evictions: Int, shard: GalleryShard
    ) {
        self.frames = frames
        self.maxResident = maxResident
        self.peakResidentBytes = peakResidentBytes
        self.peakRSSBytes = peakRSSBytes
        self.decodePasses = decodePasses
        self.bytesDecoded = bytesDecoded
        self.loads = loads
        self.evictions = evictions
        self.shard = shard == .whole ? nil : shard.description
    }

    enum CodingKeys: String, CodingKey {
        case frames, maxResident, peakResidentBytes, peakRSSBytes, decodePasses, bytesDecoded, loads, evictions, shard
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frames, forKey: .frames)
        try c.encode(maxResident, forKey: .maxResident)
        try c.encode(peakResidentBytes, forKey: .peakResidentBytes)
        try c.encode(peakRSSBytes, forKey: .peakRSSBytes)
        try c.encode(decodePasses, forKey: .decodePasses)
        try c.encode(bytesDecoded, forKey: .bytesDecoded)
        try c.encode(loads, forKey: .loads)
        try c.encode(evictions, forKey: .evictions)
        try c.encodeIfPresent(shard, forKey: .shard)
    }
}
