import TileViewCore

/// Rotation: turning the content by quarter turns about the viewport centre, and mapping between the rotated image
/// the engine zooms and the unrotated image a renderer reads pixels from.
///
/// A renderer draws a rotated state by taking `unrotatedVisibleRect` (or any unrotated rect) from the unrotated
/// image, turning it clockwise by `rotation`, and placing the result where the rotated image lies: `imageFrame`
/// for the whole image, or the viewport rect of `visibleRect`. Per pixel, `unrotatedImagePoint(atViewportPoint:)`
/// says which unrotated image point a viewport point shows.
extension ZoomState {
    /// Turns the content clockwise by `quarterTurns` quarter turns (negative: anticlockwise) about the viewport
    /// centre. The image's width and height swap for an odd number of turns and the zoom limits are recomputed
    /// for the rotated size; a state at fit (`zoomScale == minimumZoomScale`) stays at fit, the new fit; otherwise
    /// the scale is kept, clamped to the new limits. The image point at the viewport centre stays there as far as
    /// the clamping allows, then clamp and centre. A whole number of full turns changes nothing.
    ///
    /// In a square viewport, or from a state at fit, a turn never needs clamping, so four turns (or a turn and
    /// its opposite) give back the state they started from, up to rounding.
    public mutating func rotate(quarterTurns: Int) {
        let turn = ZoomRotation(quarterTurns: quarterTurns)
        guard turn != .upright else { return }
        let center = viewportCenter
        let anchor = unrotatedImagePoint(atImagePoint: imagePoint(atViewportPoint: center))
        let wasAtFit = zoomScale == minimumZoomScale
        let scale = zoomScale
        rotation = rotation.turned(by: turn.quarterTurns)
        // The scale and offset are out of date until the zoom below sets them (it checks the state when done).
        zoom(
            toScale: wasAtFit ? minimumZoomScale : scale, placingImagePoint: imagePoint(atUnrotatedImagePoint: anchor),
            atViewportPoint: center)
    }

    /// The unrotated image point at a (rotated) image point.
    public func unrotatedImagePoint(atImagePoint point: Point) -> Point {
        rotation.unrotatedPoint(point, inUnrotatedSize: unrotatedImageSize)
    }

    /// The (rotated) image point at an unrotated image point.
    public func imagePoint(atUnrotatedImagePoint point: Point) -> Point {
        rotation.rotatedPoint(point, inUnrotatedSize: unrotatedImageSize)
    }

    /// The unrotated image rect covering a (rotated) image rect.
    public func unrotatedImageRect(forImageRect rect: Rect) -> Rect {
        rotation.unrotatedRect(rect, inUnrotatedSize: unrotatedImageSize)
    }

    /// The (rotated) image rect covering an unrotated image rect.
    public func imageRect(forUnrotatedImageRect rect: Rect) -> Rect {
        rotation.rotatedRect(rect, inUnrotatedSize: unrotatedImageSize)
    }

    /// The part of the unrotated image the viewport shows: `visibleRect` mapped back through the rotation. On a
    /// centred axis of the rotated image that is the whole unrotated extent on the matching axis, exactly.
    public var unrotatedVisibleRect: Rect {
        unrotatedImageRect(forImageRect: visibleRect)
    }

    /// The unrotated image point shown at a viewport point.
    public func unrotatedImagePoint(atViewportPoint point: Point) -> Point {
        unrotatedImagePoint(atImagePoint: imagePoint(atViewportPoint: point))
    }
}
