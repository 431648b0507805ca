import TileViewCore

/// The `--json` record of a zoom state, with the key names of docs/design.md section 3, numbers rounded to 6 decimals.
/// Sizes code as `{"width", "height"}`, points as `{"x", "y"}` and rects flat as `{"x", "y", "width", "height"}`.
///
/// Rounding happens once, when the snapshot is made from a state, so that 1024/6000 prints as 0.170667 and a
/// negative zero prints as 0. Encoders write the keys in any order; the record is compared as values.
///
/// A turned image (docs/design.md section 12) adds the key `rotation`, its clockwise angle in degrees (90, 180 or 270);
/// the key is left out for an upright image, so records of upright states are unchanged and records without it
/// decode as upright. Every other key describes what is being zoomed: `image` is the rotated size, and
/// `visibleRect` lies in the rotated image.
public struct ZoomSnapshot: Codable, Equatable, Sendable {
    /// Image size, image space (the rotated image's, when turned).
    public var image: Size
    /// Viewport size, viewport pixels.
    public var viewport: Size
    public var zoomScale: Double
    public var minimumZoomScale: Double
    public var maximumZoomScale: Double
    /// Content space.
    public var contentOffset: Point
    /// Content space.
    public var contentSize: Size
    /// Where the whole image lies, viewport space.
    public var imageFrame: Rect
    /// The part of the image shown, image space.
    public var visibleRect: Rect
    /// How the image is turned, clockwise degrees: 90, 180 or 270; nil (no key) when upright.
    public var rotation: Int?

    public init(
        image: Size, viewport: Size, zoomScale: Double, minimumZoomScale: Double, maximumZoomScale: Double,
        contentOffset: Point, contentSize: Size, imageFrame: Rect, visibleRect: Rect, rotation: Int? = nil
    ) {
        self.image = image
        self.viewport = viewport
        self.zoomScale = zoomScale
        self.minimumZoomScale = minimumZoomScale
        self.maximumZoomScale = maximumZoomScale
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.imageFrame = imageFrame
        self.visibleRect = visibleRect
        self.rotation = rotation
    }

    /// `value` rounded to 6 decimal places, -0 as 0, non-finite as 0 (JSON has no NaN or infinity).
    public static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        // Beyond 1e15 a double has no digits after the sixth decimal left to round (and value * 1e6 could
        // overflow near the top of the range).
        guard abs(value) < 1e15 else { return value + 0 }
        return (value * 1_000_000).rounded() / 1_000_000 + 0  // + 0 turns -0 into +0
    }
}

extension ZoomState {
    /// The state as the `--json` record (docs/design.md section 3), rounded to 6 decimals.
    public var snapshot: ZoomSnapshot {
        let r = ZoomSnapshot.rounded
        func extent(_ size: Size) -> Size { Size(width: r(size.width), height: r(size.height)) }
        func frame(_ rect: Rect) -> Rect {
            Rect(x: r(rect.minX), y: r(rect.minY), width: r(rect.width), height: r(rect.height))
        }
        return ZoomSnapshot(
            image: extent(imageSize), viewport: extent(viewportSize),
            zoomScale: r(zoomScale), minimumZoomScale: r(minimumZoomScale), maximumZoomScale: r(maximumZoomScale),
            contentOffset: Point(x: r(contentOffset.x), y: r(contentOffset.y)),
            contentSize: extent(contentSize), imageFrame: frame(imageFrame), visibleRect: frame(visibleRect),
            rotation: rotation == .upright ? nil : rotation.degrees)
    }
}
