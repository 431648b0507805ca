import TileViewCore

/// zoomToRect: show a rect of the image as large as the scale limits allow, centred in the viewport.
extension ZoomState {
    /// Zooms so that `rect` (image space) fills the viewport: s' = clamp(min(w/r.w, h/r.h)), and the centre of
    /// `rect` goes to the viewport centre (o = centre(r)*s' - (w/2, h/2)), then clamp and centre.
    ///
    /// A rect with a negative size is standardised first (its origin moved so the size is positive). A zero
    /// width or height asks for an infinite scale on that axis, so a point-sized rect zooms to the maximum
    /// about that point. A rect with a NaN or infinite component changes nothing.
    public mutating func zoom(toImageRect rect: Rect) {
        let parts = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height]
        guard parts.allSatisfy(\.isFinite) else { return }
        let width = abs(rect.size.width)
        let height = abs(rect.size.height)
        let center = Point(
            x: min(rect.origin.x, rect.origin.x + rect.size.width) + width / 2,
            y: min(rect.origin.y, rect.origin.y + rect.size.height) + height / 2)
        let scale = min(viewportSize.width / width, viewportSize.height / height)
        zoom(toScale: scale, placingImagePoint: center, atViewportPoint: viewportCenter)
    }
}
