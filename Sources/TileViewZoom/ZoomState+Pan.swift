import TileViewCore

/// Pan: the content follows the finger.
extension ZoomState {
    /// Pan by the finger's motion (dx, dy) in viewport pixels: offset -= (dx, dy), then clamp. The scale never
    /// changes. A NaN component moves nothing on its axis; an infinite one scrolls to the limit on that axis.
    public mutating func pan(byViewportDelta delta: Point) {
        contentOffset = Point(
            x: contentOffset.x - (delta.x.isNaN ? 0 : delta.x),
            y: contentOffset.y - (delta.y.isNaN ? 0 : delta.y))
        settleContentOffset()
    }
}
