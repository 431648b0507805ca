import TileViewCore

/// Renders one frame of exactly `frameSize` pixels from the pixels of one level: resamples the level
/// through the frame geometry, blends the cut edges by coverage, and composites over the background.
///
/// Model: the source is straight-alpha RGBA8; it is premultiplied into Float while filtering
/// (a separable pass across, then one down, with weights precomputed per frame column and row when
/// the renderer is made), clamped so colour never exceeds alpha (Lanczos and Catmull-Rom can ring),
/// scaled by the pixel's coverage (see `FrameGeometry`), composited over the background (source
/// over), and turned back into straight alpha, rounded to nearest (ties to even). Pixels the image
/// frame does not touch are the background exactly. Over an opaque background (the default is
/// opaque black) every frame pixel is opaque; over a translucent one the frame keeps the alpha the
/// compositing gives, and a fully transparent pixel is (0, 0, 0, 0). The same inputs give the same
/// bytes (Float arithmetic in a fixed order; no libm in the weights; debug and release agree).
///
/// Cost: the horizontal pass runs once over each level row the frame needs, only for covered
/// frame columns; the vertical pass keeps a ring of as many filtered rows as the longest vertical
/// filter, so the scratch memory is O(frame width * taps + source width), not O(frame area).
public struct FrameRenderer: Sendable {
    public let geometry: FrameGeometry
    /// The filter as asked (possibly `automatic`).
    public let filter: ResampleFilter
    /// The filter actually used for this frame.
    public let resolvedFilter: ResampleFilter
    public let background: RGBA8
    let xAxis: ResampleAxis
    let yAxis: ResampleAxis

    /// A renderer for one geometry; the filter taps are computed here, once.
    public init(geometry: FrameGeometry, filter: ResampleFilter = .automatic, background: RGBA8 = .black) {
        self.geometry = geometry
        self.filter = filter
        self.background = background
        self.resolvedFilter = filter.resolved(shrinking: geometry.isShrinking)
        let level = geometry.levelSize
        (xAxis, yAxis) = Self.axes(geometry, resolvedFilter, 0..<max(0, level.width), 0..<max(0, level.height))
    }

    /// The level pixels `render` reads (the taps of every covered frame pixel, clipped to the
    /// level), or nil when the frame shows no image pixel.
    public var sourceRect: PixelRect? {
        guard !xAxis.outputRange.isEmpty, !yAxis.outputRange.isEmpty else { return nil }
        return PixelRect(
            x: xAxis.sourceRange.lowerBound, y: yAxis.sourceRange.lowerBound,
            width: xAxis.sourceRange.count, height: yAxis.sourceRange.count)
    }

    /// The frame: `source` holds level pixels whose top left is level pixel `sourceOrigin`.
    ///
    /// A source that holds `sourceRect` gives the same bytes whatever else it holds. A source that
    /// misses part of `sourceRect` is clamped at its own edges instead (its edge pixels stand for the
    /// missing ones); a source that misses the level entirely leaves only the background.
    public func render(source: ImageBuffer, sourceOrigin: (x: Int, y: Int)) -> ImageBuffer {
        render(source: source, sourceOrigin: sourceOrigin, reusing: [])
    }

    /// `render(source:sourceOrigin:)` with the frame's pixels made in `storage`'s memory where its capacity holds
    /// them (a block kept from an earlier frame: `ImageBuffer.pixelStorage`); the same bytes either way.
    public func render(source: ImageBuffer, sourceOrigin: (x: Int, y: Int), reusing storage: consuming [UInt8])
        -> ImageBuffer
    {
        let (x, y) = axes(reading: source, at: sourceOrigin)
        return renderFrame(xAxis: x, yAxis: y, reusing: consume storage) { x, y, paint, out, width in
            source.pixels.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                var rows = BufferRowSource(
                    base: base, width: source.width, origin: sourceOrigin, firstColumn: x.sourceRange.lowerBound)
                Self.resample(rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width)
            }
        }
    }

    /// Draws the image onto `frame` (which must be `geometry.frameSize`) instead of over the flat background:
    /// each covered pixel composites the image over the colour already there, exactly as a render over a
    /// background of that colour would; pixels the image frame does not touch are left alone. `source` is as for
    /// `render(source:sourceOrigin:)`.
    public func draw(source: ImageBuffer, sourceOrigin: (x: Int, y: Int), onto frame: inout ImageBuffer) {
        let (x, y) = axes(reading: source, at: sourceOrigin)
        source.pixels.withUnsafeBufferPointer { bytes in
            drawFrame(onto: &frame, xAxis: x, yAxis: y) { x, y, paint, out, width in
                guard let base = bytes.baseAddress else { return }
                var rows = BufferRowSource(
                    base: base, width: source.width, origin: sourceOrigin, firstColumn: x.sourceRange.lowerBound)
                Self.resample(rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width)
            }
        }
    }

    /// `draw` over the pixels already in `frame` (see `draw(source:sourceOrigin:onto:)`).
    func drawFrame(
        onto frame: inout ImageBuffer, xAxis x: ResampleAxis, yAxis y: ResampleAxis,
        draw: (ResampleAxis, ResampleAxis, BackgroundPaint, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) {
        precondition(frame.size == geometry.frameSize, "drawing a \(geometry.frameSize) frame onto \(frame.size)")
        guard !x.outputRange.isEmpty, !y.outputRange.isEmpty else { return }
        let width = frame.width
        frame.pixels.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            draw(x, y, .destination, out, width)
        }
    }

    /// The axes for a source holding `held` level pixels: those of the geometry when it holds `sourceRect`,
    /// else clamped to what it holds (or empty when it misses the level).
    func axes(reading source: ImageBuffer, at sourceOrigin: (x: Int, y: Int)) -> (ResampleAxis, ResampleAxis) {
        guard let needed = sourceRect else { return (xAxis, yAxis) }
        let held = PixelRect(x: sourceOrigin.x, y: sourceOrigin.y, width: source.width, height: source.height)
        if held.contains(needed) { return (xAxis, yAxis) }
        guard let usable = held.intersection(PixelRect(size: geometry.levelSize)) else { return (.empty, .empty) }
        return Self.axes(geometry, resolvedFilter, usable.x..<usable.maxX, usable.y..<usable.maxY)
    }

    /// The frame buffer: background outside the covered part, `draw` inside (when anything is covered).
    func renderFrame(
        xAxis x: ResampleAxis, yAxis y: ResampleAxis, reusing storage: consuming [UInt8] = [],
        draw: (ResampleAxis, ResampleAxis, BackgroundPaint, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) -> ImageBuffer {
        let width = max(0, geometry.frameSize.width)
        let height = max(0, geometry.frameSize.height)
        let count = width * height * 4
        var pixels: [UInt8]
        if storage.capacity >= count, count > 0 {
            // Every byte is written below: the background outside the covered part, the image inside.
            pixels = ImageBuffer.pixelStorage(count: count, reusing: consume storage)
            pixels.withUnsafeMutableBufferPointer { buffer in
                guard let out = buffer.baseAddress else { return }
                renderFrame(into: out, xAxis: x, yAxis: y, draw: draw)
            }
        } else {
            pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                initialized = count
                guard let out = buffer.baseAddress else { return }
                renderFrame(into: out, xAxis: x, yAxis: y, draw: draw)
            }
        }
        return ImageBuffer(width: width, height: height, pixels: pixels)
    }

    /// The frame into `out` (`geometry.frameSize`, RGBA8, rows `4 * width` bytes apart): the background
    /// outside the covered part first, then `draw` inside (when anything is covered).
    func renderFrame(
        into out: UnsafeMutablePointer<UInt8>, xAxis x: ResampleAxis, yAxis y: ResampleAxis,
        draw: (ResampleAxis, ResampleAxis, BackgroundPaint, UnsafeMutablePointer<UInt8>, Int) -> Void
    ) {
        let width = max(0, geometry.frameSize.width)
        let height = max(0, geometry.frameSize.height)
        let drawsImage = !x.outputRange.isEmpty && !y.outputRange.isEmpty
        let covered = drawsImage ? (x.outputRange, y.outputRange) : (0..<0, 0..<0)
        Self.fillBackground(out, width: width, height: height, outside: covered, with: background)
        if drawsImage { draw(x, y, BackgroundPaint(background), out, width) }
    }

    /// One call for one frame: the geometry, the filter and the render together.
    public static func render(
        source: ImageBuffer, sourceOrigin: (x: Int, y: Int), zoomScale: Double, imageFrameOrigin: Point,
        imageSize: PixelSize, levelSize: PixelSize, frameSize: PixelSize, background: RGBA8 = .black,
        filter: ResampleFilter = .automatic
    ) -> ImageBuffer {
        let geometry = FrameGeometry(
            frameSize: frameSize, zoomScale: zoomScale, imageFrameOrigin: imageFrameOrigin, imageSize: imageSize,
            levelSize: levelSize)
        return FrameRenderer(geometry: geometry, filter: filter, background: background)
            .render(source: source, sourceOrigin: sourceOrigin)
    }

    private static func axes(
        _ geometry: FrameGeometry, _ filter: ResampleFilter, _ xClamp: Range<Int>, _ yClamp: Range<Int>
    ) -> (ResampleAxis, ResampleAxis) {
        guard geometry.isDrawable else { return (.empty, .empty) }
        let x = ResampleAxis(
            frameLength: geometry.frameSize.width, origin: geometry.imageFrameOrigin.x, zoomScale: geometry.zoomScale,
            imageLength: geometry.imageSize.width, levelLength: geometry.levelSize.width, filter: filter,
            clampRange: xClamp)
        let y = ResampleAxis(
            frameLength: geometry.frameSize.height, origin: geometry.imageFrameOrigin.y, zoomScale: geometry.zoomScaleY,
            imageLength: geometry.imageSize.height, levelLength: geometry.levelSize.height, filter: filter,
            clampRange: yClamp)
        return (x, y)
    }
}
