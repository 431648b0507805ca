import TileViewCore

/// The step every gesture ends with: clamp the scale to its range, then clamp and centre the offset.
extension ZoomState {
    /// The largest content offset on each axis: max(0, W*s - w); 0 on a centred axis.
    public var contentOffsetLimit: Point {
        let content = contentSize
        return Point(
            x: isCentredHorizontally ? 0 : max(0, content.width - viewportSize.width),
            y: isCentredVertically ? 0 : max(0, content.height - viewportSize.height))
    }

    /// `scale` clamped to `[minimumZoomScale, maximumZoomScale]`; NaN keeps the current scale.
    func clampedZoomScale(_ scale: Double) -> Double {
        guard !scale.isNaN else { return zoomScale }
        return min(max(scale, minimumZoomScale), maximumZoomScale)
    }

    /// Sets the scale (clamped), then scrolls so that `imagePoint` is shown at `viewportPoint`, then clamps and
    /// centres. Every zoom gesture is this one move with a different anchor: the point under the fingers for
    /// pinch, the viewport centre for taps and zoomToRect.
    mutating func zoom(toScale scale: Double, placingImagePoint imagePoint: Point, atViewportPoint viewportPoint: Point)
    {
        zoomScale = clampedZoomScale(scale)
        // With frame origin -o on a scrolling axis, q shows at -o + q*s, so o = q*s - p.
        contentOffset = Point(
            x: imagePoint.x * zoomScale - viewportPoint.x,
            y: imagePoint.y * zoomScale - viewportPoint.y)
        settleContentOffset()
    }

    /// Clamps the offset to `[0, contentOffsetLimit]` and zeroes it on centred axes.
    mutating func settleContentOffset() {
        let limit = contentOffsetLimit
        contentOffset = Point(
            x: Self.clamp(contentOffset.x, limit: limit.x),
            y: Self.clamp(contentOffset.y, limit: limit.y))
        #if DEBUG
            checkInvariants()
        #endif
    }

    /// `offset` in `[0, limit]`. NaN (only reachable from overflowing input) falls back to 0, the leading edge.
    static func clamp(_ offset: Double, limit: Double) -> Double {
        guard !offset.isNaN else { return 0 }
        return min(max(offset, 0), limit)
    }
}
