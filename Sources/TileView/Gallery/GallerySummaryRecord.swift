import TileViewCore

/// What a gallery run measured, and its `--json` `summary` (docs/design.md section 9): `frames` rendered, `maxResident`
/// pages, `peakResidentBytes` of decoded pixels held at once, `peakRSSBytes` of the process (VmHWM; null where
/// the system does not report it), then decoding counters, for a shard `shard` "K/N", and for a resumed run
/// `reused`: the frames an earlier run had finished, checked and kept.
public struct GallerySummaryRecord: Encodable, Hashable, Sendable {
    /// Frames rendered (and written, with an output folder).
    public let frames: Int
    /// With `--resume`: frames finished by an earlier run and kept (nil, and no key, otherwise).
    public let reused: Int?
    public let maxResident: Int
    public let peakResidentBytes: Int
    @EncodedAsNull public private(set) var peakRSSBytes: Int?
    public let decodePasses: Int
    public let bytesDecoded: Int
    /// Pages opened and evicted.
    public let loads: Int
    public let evictions: Int
    /// "K/N" for a shard, nil (and no key) for a whole run.
    public let shard: String?
}
