import TileViewCore

/// Two-finger tap: zoom out one step about the viewport centre.
extension ZoomState {
    /// s' = max(s/k, min); the image point at the viewport centre stays there, then clamp and centre.
    public mutating func twoFingerTap() {
        let center = viewportCenter
        let anchor = imagePoint(atViewportPoint: center)
        zoom(
            toScale: max(zoomScale / doubleTapStep, minimumZoomScale), placingImagePoint: anchor,
            atViewportPoint: center)
    }
}
