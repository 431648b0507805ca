import TileViewCore

/// The layout part of one `tileview feed --json` frame record (docs/design.md section 9), with its key names.
///
/// `offset` is the container offset the frame shows (after clamping), `sections` has every section's `index`,
/// `frame` in viewport space (height 0 when off screen) and `contentOffset`, and `residentCells` is how many grid
/// cells hold decoded pixels. The file-related keys (`frame` as the written file, `residentBytes`) belong to
/// whoever renders and writes the frame.
public struct FeedFrameRecord: Codable, Hashable, Sendable {
    /// `{"index": ..., "frame": {...}, "contentOffset": ...}`.
    public struct Section: Codable, Hashable, Sendable {
        public var index: Int
        /// Viewport pixels, `{"x", "y", "width", "height"}`.
        public var frame: PixelRect
        public var contentOffset: Int

        public init(index: Int, frame: PixelRect, contentOffset: Int) {
            self.index = index
            self.frame = frame
            self.contentOffset = contentOffset
        }

        public init(_ sectionFrame: SectionFrame) {
            self.init(
                index: sectionFrame.index, frame: sectionFrame.frame, contentOffset: sectionFrame.contentOffset)
        }
    }

    /// The container offset shown, after clamping.
    public var offset: Int
    /// Every section, in feed order.
    public var sections: [Section]
    /// The number of grid cells holding decoded pixels.
    public var residentCells: Int

    public init(offset: Int, sections: [Section], residentCells: Int) {
        self.offset = offset
        self.sections = sections
        self.residentCells = residentCells
    }
}

extension FeedLayout {
    /// The record of the frame at container offset `y` (clamped) while scrolling in `direction`.
    public func record(atContainerOffset y: Int, scrollDirection direction: FeedScrollDirection) -> FeedFrameRecord {
        FeedFrameRecord(
            offset: clampedContainerOffset(y),
            sections: frames(atContainerOffset: y).map(FeedFrameRecord.Section.init),
            residentCells: residentCells(atContainerOffset: y, scrollDirection: direction).count)
    }
}
