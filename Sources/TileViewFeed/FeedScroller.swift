import TileViewCore

/// Walks a feed through a list of container offsets, one `FeedScrollStep` per offset, keeping a `CellPool`.
///
/// The scroll direction of step i (which decides the screen of cells kept ahead) follows the offsets asked for:
/// the sign of `offsets[i] - offsets[i - 1]`, or the previous step's direction when the two are equal; for the
/// first step, the sign of the first change in the list (so `0:3000:250` starts already looking down), or
/// `.stationary` when every offset is the same.
public struct FeedScroller<Offsets: Collection>: Sequence, IteratorProtocol where Offsets.Element == Int {
    /// The cells resident so far and their peak.
    public private(set) var pool: CellPool
    /// The offsets asked for.
    public let offsets: Offsets
    private var position: Offsets.Index
    private var step = 0
    private var previousOffset: Int?
    private var direction: FeedScrollDirection

    public init(layout: FeedLayout, offsets: Offsets) {
        pool = CellPool(layout: layout)
        self.offsets = offsets
        position = offsets.startIndex
        direction = .stationary
        if let first = offsets.first, let change = offsets.first(where: { $0 != first }) {
            direction = FeedScrollDirection(from: first, to: change)
        }
    }

    public var layout: FeedLayout { pool.layout }

    public mutating func next() -> FeedScrollStep? {
        guard position != offsets.endIndex else { return nil }
        let requested = offsets[position]
        offsets.formIndex(after: &position)
        if let previous = previousOffset, previous != requested {
            direction = FeedScrollDirection(from: previous, to: requested)
        }
        previousOffset = requested
        let update = pool.scroll(toContainerOffset: requested, scrollDirection: direction)
        defer { step += 1 }
        return FeedScrollStep(
            step: step, requestedOffset: requested, containerOffset: pool.containerOffset,
            scrollDirection: direction, frames: layout.frames(atContainerOffset: requested), cells: update,
            residentImageSections: layout.residentImageSections(
                atContainerOffset: requested, scrollDirection: direction))
    }
}
