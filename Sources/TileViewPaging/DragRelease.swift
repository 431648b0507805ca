import TileViewCore

/// Where a released drag settles: the target page, its slot and the content offset to animate to.
public struct DragRelease: Hashable, Sendable {
    /// The page the drag settles on (pass it to `Pager.move(to:)`).
    public let position: PageMap.Cell
    /// The slot of that page in the drag's content space (differs from `position` on circular lists, which
    /// repeat their pages along the strip).
    public let slot: PageMap.Cell
    /// The content offset that shows the target page: (slot.column * pw, slot.row * ph).
    public let contentOffset: Point
    /// Whether the velocity chose the target (a fling) rather than the offset's nearest page.
    public let flung: Bool
}
