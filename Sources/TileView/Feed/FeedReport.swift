import TileViewFeed

/// One record of `frames` in `tileview feed --json` (docs/design.md section 9): the layout record (`offset`,
/// `sections`, `residentCells`) and what rendering it held and wrote.
///
/// Keys: `offset` (the container offset shown, after clamping), `requestedOffset` (as asked), `frame` (the
/// written file's path: the output folder as given joined with the file name), `sections` (each section's
/// `index`, `frame` in viewport space, height 0 when off screen, and `contentOffset`), `residentCells` (grid cells
/// holding a thumbnail), `residentBytes` (decoded bytes held after the frame: thumbnails plus image tiles) and
/// `rssBytes` (the process's resident set after the frame, VmRSS; absent where /proc is not available).
public struct FeedFrameReport: Codable, Hashable, Sendable {
    public var layout: FeedFrameRecord
    public var requestedOffset: Int
    public var frame: String
    public var residentBytes: Int
    public var rssBytes: Int?

    public init(layout: FeedFrameRecord, requestedOffset: Int, frame: String, residentBytes: Int, rssBytes: Int?) {
        self.layout = layout
        self.requestedOffset = requestedOffset
        self.frame = frame
        self.residentBytes = residentBytes
        self.rssBytes = rssBytes
    }

    enum CodingKeys: String, CodingKey { case requestedOffset, frame, residentBytes, rssBytes }

    public init(from decoder: any Decoder) throws {
        layout = try FeedFrameRecord(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        requestedOffset = try c.decode(Int.self, forKey: .requestedOffset)
        frame = try c.decode(String.self, forKey: .frame)
        residentBytes = try c.decode(Int.self, forKey: .residentBytes)
        rssBytes = try c.decodeIfPresent(Int.self, forKey: .rssBytes)
    }

    public func encode(to encoder: any Encoder) throws {
        try layout.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(requestedOffset, forKey: .requestedOffset)
        try c.encode(frame, forKey: .frame)
        try c.encode(residentBytes, forKey: .residentBytes)
        try c.encodeIfPresent(rssBytes, forKey: .rssBytes)
    }
}

/// The `summary` of `tileview feed --json`.
///
/// The design's keys: `contentHeight` (the feed's height in container pixels), `maxResidentCells` (the most grid
/// cells holding thumbnails after any frame), `peakResidentBytes` (the most decoded bytes held after any frame)
/// and `peakRSSBytes` (the process's peak resident set, VmHWM, at the end; 0 where /proc is not available).
/// Also: `residentCellBound` (the layout's bound on resident cells: the most cells any two screens of the feed
/// meet), `frames` (rendered by this run), `thumbnailsRendered` and `cellBuffersReused` (entering cells that took a
/// leaving cell's buffer); with `--resume`, `reused` (frames kept from an earlier run), and for a shard, `shard`.
public struct FeedSummary: Codable, Hashable, Sendable {
    public var contentHeight: Int
    public var maxResidentCells: Int
    public var peakResidentBytes: Int
    public var peakRSSBytes: Int
    public var residentCellBound: Int
    public var frames: Int
    public var thumbnailsRendered: Int
    public var cellBuffersReused: Int
    /// With `--resume`: frames an earlier run finished and this run kept (no key otherwise).
    public var reused: Int?
    /// "K/N" for a shard (no key for a whole run).
    public var shard: String?
}

/// The whole `tileview feed --json` object: `frames`, one record per frame, and `summary`.
public struct FeedReport: Codable, Hashable, Sendable {
    public var frames: [FeedFrameReport]
    public var summary: FeedSummary

}
