import TileViewCore

/// The layout part of one `tileview feed --json` frame record (docs/design.md section 9), with its key names.
///
/// `offset` is the container offset the frame shows (after clamping), `sections` has every section's `index`,
/// `frame` in viewport space (height 0 when off screen) and `contentOffset`, and `residentCells` is how many grid
/// cells hold decoded pixels. The file-related keys (`frame` as the written file, `residentBytes`) belong to
/// whoever renders and writes the frame.
public struct FeedFrameRecord: Codable, Hashable, Sendable {
    /// The container offset shown, after clamping.
    public var offset: Int
    /// Every section, in feed order: `{"index": ..., "frame": {...}, "contentOffset": ...}`, the frame in viewport
    /// pixels (`{"x", "y", "width", "height"}`).
    public var sections: [SectionFrame]
    /// The number of grid cells holding decoded pixels.
    public var residentCells: Int
}

extension FeedLayout {
    /// The record of the frame at container offset `y` (clamped) while scrolling in `direction`.
    public func record(atContainerOffset y: Int, scrollDirection direction: FeedScrollDirection) -> FeedFrameRecord {
        FeedFrameRecord(
            offset: clampedContainerOffset(y),
            sections: frames(atContainerOffset: y),
            residentCells: residentCells(atContainerOffset: y, scrollDirection: direction).count)
    }
}
