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

    /// This step as reached straight from an earlier step whose resident cells were `previous` (the steps between
    /// were not rendered: another shard's frames, or frames a resumed run keeps): the same frame, with the cells
    /// entering and leaving counted from `previous`. Rendering it leaves the same pixels as rendering every step.
    public func reached(from previous: [CellRef]) -> FeedScrollStep {
        FeedScrollStep(
            step: step, requestedOffset: requestedOffset, containerOffset: containerOffset,
            scrollDirection: scrollDirection, frames: frames, cells: CellPoolUpdate(from: previous, to: cells.resident),
            residentImageSections: residentImageSections)
    }

    /// The grid cells visible in this frame (resident cells whose viewport rect meets the viewport).
    public func visibleCells(in viewportSize: PixelSize) -> [CellRef] {
        let viewport = PixelRect(size: viewportSize)
        return cells.resident.filter { viewport.intersection($0.viewportRect) != nil }
    }

    /// The `--json` layout record of this frame.
    public var record: FeedFrameRecord {
        FeedFrameRecord(
            offset: containerOffset, sections: frames,
            residentCells: cells.resident.count)
    }
}
