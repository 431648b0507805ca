import TileViewCore

/// Double tap: zoom in one step about the tapped point, bringing it to the viewport centre.
extension ZoomState {
    /// Double tap at a viewport point: q = the image point under it; s' = min(s*k, max); then zoomToRect of the
    /// rect of size (w/s', h/s') centred on q. The tapped point moves to the viewport centre as far as the
    /// clamping allows; at the maximum scale the tap only re-centres.
    ///
    /// That rect asks for exactly s' (min(w/(w/s'), h/(h/s')) = s', which is already in range), so the zoom is
    /// done directly at s' about q: the same state, without the rounding of the round trip through the rect.
    /// A non-finite coordinate of the tap is taken as the viewport centre's.
    public mutating func doubleTap(atViewportPoint point: Point) {
        let tapped = imagePoint(atViewportPoint: guardedViewportPoint(point))
        let scale = min(zoomScale * doubleTapStep, maximumZoomScale)
        zoom(toScale: scale, placingImagePoint: tapped, atViewportPoint: viewportCenter)
    }

    /// The rect that a double tap at `point` zooms to, in image space (the rect of docs/design.md section 3).
    public func doubleTapImageRect(atViewportPoint point: Point) -> Rect {
        let tapped = imagePoint(atViewportPoint: guardedViewportPoint(point))
        let scale = min(zoomScale * doubleTapStep, maximumZoomScale)
        return Rect(center: tapped, size: Size(width: viewportSize.width / scale, height: viewportSize.height / scale))
    }
}
