import TileViewCore

/// One frame of a scripted scroll: where the container is, what every section shows, what the cells did.
public struct FeedScrollStep: Hashable, Sendable {
    /// The frame's number, from 0.
    public let step: Int
    /// The offset asked for.
    public let requestedOffset: Int
    /// The offset shown: `requestedOffset` clamped to the layout's valid range.
    public let containerOffset: Int
    /// The direction the cells ahead were chosen for.
    public let scrollDirection: FeedScrollDirection
    /// Every section's frame and content offset, in feed order.
    public let frames: [SectionFrame]
    /// The cells resident after this step and what entered and left on the way.
    public let cells: CellPoolUpdate
    /// The image sections holding decoded pixels after this step.
    public let residentImageSections: [Int]

    public init(
        step: Int, requestedOffset: Int, containerOffset: Int, scrollDirection: FeedScrollDirection,
        frames: [SectionFrame], cells: CellPoolUpdate, residentImageSections: [Int]
    ) {
        self.step = step
        self.requestedOffset = requestedOffset
        self.containerOffset = containerOffset
        self.scrollDirection = scrollDirection
        self.frames = frames
        self.cells = cells
        self.residentImageSections = residentImageSections
    }

    /// The grid cells visible in this frame (resident cells whose viewport rect meets the viewport).
    public func visibleCells(in viewportSize: PixelSize) -> [CellRef] {
        let viewport = PixelRect(size: viewportSize)
        return cells.resident.filter { viewport.intersection($0.viewportRect) != nil }
    }

    /// The `--json` layout record of this frame.
    public var record: FeedFrameRecord {
        FeedFrameRecord(
            offset: containerOffset, sections: frames.map(FeedFrameRecord.Section.init),
            residentCells: cells.resident.count)
    }
}
