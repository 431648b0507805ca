import TileViewCore

/// The grid cells holding decoded thumbnails as a feed scrolls, and the plan for each move.
///
/// The pool starts empty. Each `scroll(toContainerOffset:scrollDirection:)` makes the resident set exactly
/// `layout.residentCells(atContainerOffset:scrollDirection:)` (the viewport plus at most one screen ahead) and
/// returns the `CellPoolUpdate` from the previous set: cells entering are decoded, cells leaving give their
/// buffers to entering cells of the same size or free them. So the pool never holds more than
/// `layout.maxResidentCells` cells, whatever the feed's length, and `peakResidentCount` records the most it held.
public struct CellPool: Hashable, Sendable {
    /// The feed being scrolled.
    public let layout: FeedLayout
    /// The cells holding decoded pixels, in feed order, with viewport rects at `containerOffset`.
    public private(set) var resident: [CellRef] = []
    /// The container offset of the last move (clamped), 0 before the first.
    public private(set) var containerOffset: Int = 0
    /// The most cells resident at once so far.
    public private(set) var peakResidentCount: Int = 0

    public init(layout: FeedLayout) {
        self.layout = layout
    }

    /// Moves to container offset `y` (clamped) scrolling in `direction`; returns what entered and left.
    @discardableResult
    public mutating func scroll(toContainerOffset y: Int, scrollDirection direction: FeedScrollDirection)
        -> CellPoolUpdate
    {
        let next = layout.residentCells(atContainerOffset: y, scrollDirection: direction)
        let update = CellPoolUpdate(from: resident, to: next)
        resident = next
        containerOffset = layout.clampedContainerOffset(y)
        peakResidentCount = max(peakResidentCount, next.count)
        return update
    }

    /// Bytes the resident thumbnails hold as RGBA8 at cell size.
    public var residentBytes: Int { resident.reduce(0) { $0 + $1.byteCount } }
}
