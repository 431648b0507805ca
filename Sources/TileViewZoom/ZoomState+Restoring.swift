import TileViewCore

/// Where a state is: the three values gestures change. With the image, viewport and settings a state was made with,
/// they are all of it, so a state written down as its place (a server's view token, docs/design.md section 18) is
/// restored exactly.
public struct ZoomPlace: Hashable, Sendable {
    /// Viewport pixels per image pixel (`ZoomState.zoomScale`).
    public var zoomScale: Double
    /// How far the content is scrolled, in content space; 0 on centred axes (`ZoomState.contentOffset`).
    public var contentOffset: Point
    /// How the image is turned (`ZoomState.rotation`).
    public var rotation: ZoomRotation

    public init(zoomScale: Double, contentOffset: Point, rotation: ZoomRotation) {
        self.zoomScale = zoomScale
        self.contentOffset = contentOffset
        self.rotation = rotation
    }
}

extension ZoomState {
    /// Where this state is.
    public var place: ZoomPlace { ZoomPlace(zoomScale: zoomScale, contentOffset: contentOffset, rotation: rotation) }

    /// This state (same image, viewport and settings) moved to `place`: equal to the state the place was read from.
    /// Nil when `place` is no state the engine can be in: a scale outside `[minimumZoomScale, maximumZoomScale]` or
    /// not finite, or an offset that settling would move (outside its limits, or not zero on a centred axis).
    public func restored(_ place: ZoomPlace) -> ZoomState? {
        var state = self
        state.rotation = place.rotation
        guard place.zoomScale.isFinite, place.zoomScale >= state.minimumZoomScale,
            place.zoomScale <= state.maximumZoomScale, place.contentOffset.x.isFinite, place.contentOffset.y.isFinite
        else { return nil }
        state.zoomScale = place.zoomScale
        state.contentOffset = place.contentOffset
        var settled = state
        settled.settleContentOffset()
        return settled == state ? state : nil
    }
}
