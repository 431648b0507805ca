import TileViewCore

/// Where an image lies in a frame and which level pixels the frame needs: the plain numbers of one
/// render, with no zoom engine behind them.
///
/// Spaces: viewport (frame pixels, origin top left), image (pixels of the oriented level-0 image)
/// and level (pixels of the chosen level, `levelSize`). The image frame, where the whole image lies
/// in viewport space, is `imageFrameOrigin` with size (W * s, H * s) for zoom scale s. Pixel centres
/// map as docs/design.md section 7 says:
///
///     image x = (viewport x + 0.5 - imageFrameOrigin.x) / s - 0.5
///     level x = (image x + 0.5) * levelScale.x - 0.5,   levelScale.x = levelWidth / imageWidth
///
/// (likewise y), where pixel i's centre is at i in both spaces.
///
/// Edge coverage: a viewport pixel shows the image in proportion to the part of its square that
/// the image frame covers (the product of its coverage across and down, each in [0, 1]). A pixel
/// inside the frame has coverage 1; a pixel the frame does not touch shows only the background; an
/// edge pixel that the frame cuts blends the image over the background by its coverage, so a frame
/// edge at a fractional position is antialiased rather than jagged. The image colour at a cut pixel
/// is sampled at its centre with clamp-to-edge sampling, like every other pixel.
public struct FrameGeometry: Hashable, Sendable, CustomStringConvertible {
    /// The frame (viewport) size; the rendered buffer is exactly this size.
    public var frameSize: PixelSize
    /// Viewport pixels per image pixel (horizontally; vertically too unless `zoomScaleY` differs).
    public var zoomScale: Double
    /// Viewport pixels per image pixel vertically: `zoomScale` for a zoom, another value only for a frame
    /// that stretches its image (an IIIF `w,h` of another aspect ratio).
    public var zoomScaleY: Double
    /// The top left of the image frame, in viewport space.
    public var imageFrameOrigin: Point
    /// The oriented image size (level 0).
    public var imageSize: PixelSize
    /// The size of the level the source pixels come from (`imageSize` for level 0).
    public var levelSize: PixelSize

    /// The geometry of one frame; `levelSize` defaults to the image size (level 0).
    public init(
        frameSize: PixelSize, zoomScale: Double, zoomScaleY: Double? = nil, imageFrameOrigin: Point,
        imageSize: PixelSize, levelSize: PixelSize? = nil
    ) {
        self.frameSize = frameSize
        self.zoomScale = zoomScale
        self.zoomScaleY = zoomScaleY ?? zoomScale
        self.imageFrameOrigin = imageFrameOrigin
        self.imageSize = imageSize
        self.levelSize = levelSize ?? imageSize
    }

    /// Level pixels per image pixel: levelW / W and levelH / H (1 on an empty axis).
    public var levelScale: (x: Double, y: Double) {
        (
            imageSize.width > 0 ? Double(levelSize.width) / Double(imageSize.width) : 1,
            imageSize.height > 0 ? Double(levelSize.height) / Double(imageSize.height) : 1
        )
    }

    /// Level pixels per viewport pixel on each axis; above 1 the frame shrinks the level.
    public var levelPixelsPerViewportPixel: (x: Double, y: Double) {
        let scale = levelScale
        return (scale.x / zoomScale, scale.y / zoomScaleY)
    }

    /// True when the frame shrinks the level on either axis (then `automatic` filters with Lanczos-3).
    public var isShrinking: Bool {
        let f = levelPixelsPerViewportPixel
        return max(f.x, f.y) > 1
    }

    /// Where the whole image lies, in viewport space: origin and (W * s, H * s).
    public var imageFrame: Rect {
        Rect(
            origin: imageFrameOrigin,
            size: Size(width: Double(imageSize.width) * zoomScale, height: Double(imageSize.height) * zoomScaleY))
    }

    /// True when the numbers describe something drawable: a positive finite scale, a finite
    /// origin, and non-empty frame, image and level.
    public var isDrawable: Bool {
        zoomScale.isFinite && zoomScale > 0 && zoomScaleY.isFinite && zoomScaleY > 0 && imageFrameOrigin.x.isFinite
            && imageFrameOrigin.y.isFinite
            && !frameSize.isEmpty && !imageSize.isEmpty && !levelSize.isEmpty
    }

    /// The image point under a viewport point: (p - imageFrameOrigin) / s.
    public func imagePoint(atViewportPoint p: Point) -> Point {
        Point(x: (p.x - imageFrameOrigin.x) / zoomScale, y: (p.y - imageFrameOrigin.y) / zoomScaleY)
    }

    /// The level-space position (pixel i's centre at i) that viewport pixel (x, y) samples.
    public func levelSampleCentre(ofViewportPixelX x: Int, y: Int) -> Point {
        let scale = levelScale
        return Point(
            x: Self.levelCentre(Double(x), imageFrameOrigin.x, zoomScale, scale.x),
            y: Self.levelCentre(Double(y), imageFrameOrigin.y, zoomScaleY, scale.y))
    }

    /// The part of viewport pixel (x, y) that the image frame covers, in [0, 1].
    public func coverage(ofViewportPixelX x: Int, y: Int) -> Double {
        let frame = imageFrame
        return Self.coverage(Double(x), frame.minX, frame.maxX) * Self.coverage(Double(y), frame.minY, frame.maxY)
    }

    /// The frame pixels that show some of the image (coverage above 0), or nil when none does.
    public var coveredViewportRect: PixelRect? {
        guard isDrawable else { return nil }
        let frame = imageFrame
        guard let xs = Self.coveredRange(frame.minX, frame.maxX, frameSize.width),
            let ys = Self.coveredRange(frame.minY, frame.maxY, frameSize.height)
        else { return nil }
        return PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
    }

    /// The level pixels a render with `filter` reads: the taps of every covered frame pixel, which is
    /// the visible part plus the filter's support, clipped to the level. Decode exactly this rect
    /// (or more) and pass it to `FrameRenderer.render(source:sourceOrigin:)`. Nil when the frame
    /// shows no image pixel.
    public func sourceRect(filter: ResampleFilter = .automatic) -> PixelRect? {
        FrameRenderer(geometry: self, filter: filter).sourceRect
    }

    public var description: String {
        "frame \(frameSize), scale \(zoomScale), image \(imageSize) at \(imageFrameOrigin), level \(levelSize)"
    }

    /// level centre = ((v + 0.5 - origin) / s - 0.5 + 0.5) * levelScale - 0.5, written as docs/design.md has it.
    static func levelCentre(_ v: Double, _ origin: Double, _ s: Double, _ levelScale: Double) -> Double {
        let image = (v + 0.5 - origin) / s - 0.5
        return (image + 0.5) * levelScale - 0.5
    }

    /// The length of [v, v + 1) inside [lo, hi), clamped to [0, 1].
    static func coverage(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
        min(max(min(v + 1, hi) - max(v, lo), 0), 1)
    }

    /// The frame pixels 0..<length whose square meets [lo, hi) with a positive length.
    static func coveredRange(_ lo: Double, _ hi: Double, _ length: Int) -> Range<Int>? {
        guard lo.isFinite, hi.isFinite, hi > lo, hi > 0, lo < Double(length) else { return nil }
        var first = Int(max(lo, 0).rounded(.down))
        var end = Int(min(hi, Double(length)).rounded(.up))
        while first < end && coverage(Double(first), lo, hi) <= 0 { first += 1 }
        while end > first && coverage(Double(end - 1), lo, hi) <= 0 { end -= 1 }
        return first < end ? first..<end : nil
    }
}
