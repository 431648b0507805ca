import TileViewCore

/// Pinch: scale by a factor about the point between the fingers.
extension ZoomState {
    /// Pinch by `factor` about a viewport point: s' = clamp(s*f); the image point under the fingers stays under
    /// them, then clamp and centre.
    ///
    /// Degenerate factors follow the clamp: 0 or a negative factor gives the minimum scale, +infinity the
    /// maximum; a NaN factor keeps the scale (the state is only re-clamped). A non-finite coordinate of the point
    /// is taken as the viewport centre's.
    public mutating func pinch(by factor: Double, aboutViewportPoint point: Point) {
        let fingers = guardedViewportPoint(point)
        let anchor = imagePoint(atViewportPoint: fingers)
        let scale = factor.isNaN ? zoomScale : (factor <= 0 ? minimumZoomScale : zoomScale * factor)
        zoom(toScale: scale, placingImagePoint: anchor, atViewportPoint: fingers)
    }
}
