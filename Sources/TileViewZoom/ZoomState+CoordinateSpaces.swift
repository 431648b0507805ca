import TileViewCore

/// Where the image lies in the viewport, what part of it is visible, and mapping points between the spaces.
extension ZoomState {
    /// The size of the zoomed image in content space: (W*s, H*s).
    public var contentSize: Size {
        Size(width: imageSize.width * zoomScale, height: imageSize.height * zoomScale)
    }

    /// Whether the content is no wider than the viewport, so that it is centred on x with offset 0.
    ///
    /// Decided on scales, s <= w/W, rather than on W*s <= w: the two agree except where W*s rounds to a hair
    /// above w, and this way the fitting axis at the fit scale is always centred, exactly.
    public var isCentredHorizontally: Bool {
        zoomScale <= viewportSize.width / imageSize.width
    }

    /// Whether the content is no taller than the viewport, so that it is centred on y with offset 0 (s <= h/H).
    public var isCentredVertically: Bool {
        zoomScale <= viewportSize.height / imageSize.height
    }

    /// Where the whole image lies, in viewport space: origin (w - W*s)/2 on a centred axis, else -offset.
    public var imageFrame: Rect {
        let content = contentSize
        return Rect(
            x: Self.frameOrigin(
                centred: isCentredHorizontally, content: content.width, viewport: viewportSize.width,
                offset: contentOffset.x),
            y: Self.frameOrigin(
                centred: isCentredVertically, content: content.height, viewport: viewportSize.height,
                offset: contentOffset.y),
            width: content.width, height: content.height)
    }

    /// The part of the image the viewport shows, in image space: the viewport mapped to image space, intersected
    /// with the image bounds `(0, 0) W x H`. On a centred axis that is the whole image, exactly.
    public var visibleRect: Rect {
        let x = Self.visibleSpan(
            centred: isCentredHorizontally, image: imageSize.width, viewport: viewportSize.width,
            offset: contentOffset.x, scale: zoomScale)
        let y = Self.visibleSpan(
            centred: isCentredVertically, image: imageSize.height, viewport: viewportSize.height,
            offset: contentOffset.y, scale: zoomScale)
        return Rect(
            x: x.lowerBound, y: y.lowerBound, width: x.upperBound - x.lowerBound,
            height: y.upperBound - y.lowerBound)
    }

    /// The image-space point shown at a viewport point: q = (p - frameOrigin) / s.
    public func imagePoint(atViewportPoint point: Point) -> Point {
        let origin = imageFrame.origin
        return Point(x: (point.x - origin.x) / zoomScale, y: (point.y - origin.y) / zoomScale)
    }

    /// The viewport point where an image-space point is shown: p = frameOrigin + q * s.
    public func viewportPoint(atImagePoint point: Point) -> Point {
        let origin = imageFrame.origin
        return Point(x: origin.x + point.x * zoomScale, y: origin.y + point.y * zoomScale)
    }

    /// The centre of the viewport, in viewport space.
    public var viewportCenter: Point {
        Point(x: viewportSize.width / 2, y: viewportSize.height / 2)
    }

    /// The image-space span shown on one axis: all of it when centred, else [o/s, min(W, (o + w)/s)].
    static func visibleSpan(
        centred: Bool, image: Double, viewport: Double, offset: Double, scale: Double
    ) -> ClosedRange<Double> {
        guard !centred else { return 0...image }
        let start = min(offset / scale, image)
        return start...max(start, min(image, (offset + viewport) / scale))
    }

    /// (w - W*s)/2 when centred (never below 0, which only rounding could give), else -offset.
    static func frameOrigin(centred: Bool, content: Double, viewport: Double, offset: Double) -> Double {
        centred ? max(0, (viewport - content) / 2) : -offset
    }
}
