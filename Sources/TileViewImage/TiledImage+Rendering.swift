import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewSystem
import TileViewZoom

extension LevelReader: LevelRowSource {}

/// One frame of a viewport and how it was made.
public struct RenderedFrame: Sendable {
    /// Exactly the viewport's size.
    public let image: ImageBuffer
    /// The level of detail the pixels came from.
    public let level: Int
    /// The level pixels read, nil when the frame shows no image pixel.
    public let sourceRect: PixelRect?

    package init(image: ImageBuffer, level: Int, sourceRect: PixelRect?) {
        (self.image, self.level, self.sourceRect) = (image, level, sourceRect)
    }
}

extension TiledImage {
    /// Renders what the viewport of `state` shows (docs/design.md section 7): picks the level whose
    /// factor 2^L is at most 1/s, decodes only the tiles the visible rect needs at that level,
    /// and resamples them into a frame of exactly the viewport's size over `background`.
    /// `overscroll` moves the drawn image off the state's image frame (a bounce past an edge, `ZoomMotionFrame`).
    public func render(
        _ state: ZoomState, displacedBy overscroll: Point = .zero, background: RGBA8 = .black,
        filter: ResampleFilter = .automatic
    ) throws(TileViewError) -> RenderedFrame {
        let (geometry, level) = frameGeometry(state, displacedBy: overscroll)
        return try render(geometry, level: level, background: background, filter: filter)
    }

    /// `render` and the frame's PNG file, the bytes `ImageFiles.encodePNG` gives for the frame. A frame drawn
    /// straight from the decoder over an opaque background is decoded, drawn and encoded at once on three
    /// threads (`FramePipeline`); any other is drawn, then encoded.
    public func renderPNG(
        _ state: ZoomState, displacedBy overscroll: Point, background: RGBA8, filter: ResampleFilter
    ) throws(TileViewError) -> (frame: RenderedFrame, png: [UInt8]) {
        let (geometry, level) = frameGeometry(state, displacedBy: overscroll)
        let renderer = FrameRenderer(geometry: geometry, filter: filter, background: background)
        guard pixelSource == .decoder, renderer.sourceRect != nil, background.a == 255,
            FramePipeline.pays(frameSize: geometry.frameSize)
        else {
            let frame = try render(geometry, level: level, background: background, filter: filter)
            return (frame, try ImageFiles.encodePNG(frame.image, naming: path))
        }
        var image = ImageBuffer(width: 0, height: 0)
        var png: Result<[UInt8], CodecError> = .success([])
        let rect = try withLevelPixels(for: renderer, level: level) { pixels in
            switch pixels {
            case .rows(let reader): (image, png) = FramePipeline.render(renderer, reader: reader)
            case .buffer(let source, let origin): image = renderer.render(source: source, sourceOrigin: origin)
            }
        }
        let frame = RenderedFrame(image: image, level: level, sourceRect: rect)
        // Over an opaque background every frame pixel is opaque (`FrameRenderer`): the pipeline's RGB file is the
        // one the default colour type picks. Checked all the same, and encoded again in the odd case it is not.
        guard case .success(let bytes) = png, !bytes.isEmpty, image.isOpaque else {
            return (frame, try ImageFiles.encodePNG(image, naming: path))
        }
        return (frame, bytes)
    }

    /// The frame geometry of what the viewport of `state` shows, and the level it is drawn from.
    package func frameGeometry(_ state: ZoomState, displacedBy overscroll: Point) -> (FrameGeometry, level: Int) {
        let origin = state.imageFrame.origin
        return pyramid.frameGeometry(
            frameSize: PixelSize(truncating: state.viewportSize), zoomScale: state.zoomScale,
            imageFrameOrigin: Point(x: origin.x + overscroll.x, y: origin.y + overscroll.y))
    }

    /// Renders `region` (image pixels) scaled to exactly `size`, stretched when the aspect ratios differ, the
    /// way a zoom frame is rendered: the level is the one a zoom at the larger of the two scales would draw,
    /// then the same filters and pixel centres. This is how a server answers "this rect at that size".
    public func render(
        region: PixelRect, size: PixelSize, background: RGBA8 = .black, filter: ResampleFilter = .automatic
    ) throws(TileViewError) -> RenderedFrame {
        let (geometry, level) = regionGeometry(region: region, size: size)
        return try render(geometry, level: level, background: background, filter: filter)
    }

    /// Renders a frame of `geometry` from `level`: straight from the decoder when there is no tile cache (or
    /// `streaming` asks for it, upright images only), else through the tiles.
    package func render(
        _ geometry: FrameGeometry, level: Int, background: RGBA8, filter: ResampleFilter, streaming: Bool = false
    ) throws(TileViewError) -> RenderedFrame {
        let renderer = FrameRenderer(geometry: geometry, filter: filter, background: background)
        var image = ImageBuffer(width: 0, height: 0)
        let rect = try withLevelPixels(for: renderer, level: level, streaming: streaming) { pixels in
            switch pixels {
            case .rows(var rows): image = renderer.render(rows: &rows)
            case .buffer(let source, let origin):
                // In this thread's kept frame block, where its server gave one back (`RenderBlocks`).
                image = renderer.render(source: source, sourceOrigin: origin, reusing: RenderBlocks.take(.frame))
            }
        }
        return RenderedFrame(image: image, level: level, sourceRect: rect)
    }

    /// The frame of `renderer` from `level`, drawn straight from the decoder with the decoder on a thread of its
    /// own (`PrefetchedRows`, on two or more processors) while this thread resamples, and the decoded bytes held
    /// meanwhile (the ring of rows); the bytes `render(_:level:background:filter:)` gives. For an image that
    /// whose `pixelSource` is the decoder only (a gallery page that keeps no tiles).
    package func renderPrefetched(_ renderer: FrameRenderer, level: Int) throws(TileViewError) -> (
        image: ImageBuffer, heldBytes: Int
    ) {
        precondition(pixelSource == .decoder, "only an image read straight from its decoder streams its frames")
        var image = ImageBuffer(width: 0, height: 0)
        var held = 0
        _ = try withLevelPixels(for: renderer, level: level) { pixels in
            switch pixels {
            case .rows(let reader):
                let rows = PrefetchedRows(reader)
                var source = rows
                image = renderer.render(rows: &source)
                held = rows.heldBytes
                rows.finish()
            case .buffer(let source, let origin):
                image = renderer.render(source: source, sourceOrigin: origin)
                held = source.byteCount
            }
        }
        return (image, held)
    }

    /// Draws the image through `geometry` from `level` onto `frame` (of the geometry's frame size): each pixel the
    /// image frame covers composites the image over the colour already there (`FrameRenderer.draw`).
    package func draw(
        _ geometry: FrameGeometry, level: Int, onto frame: inout ImageBuffer, filter: ResampleFilter
    ) throws(TileViewError) {
        let renderer = FrameRenderer(geometry: geometry, filter: filter)
        var target = frame
        frame = ImageBuffer(width: 0, height: 0)  // one owner while drawing: no copy of the pixels
        defer { frame = target }
        _ = try withLevelPixels(for: renderer, level: level) { pixels in
            switch pixels {
            case .rows(var rows): renderer.draw(rows: &rows, onto: &target)
            case .buffer(let source, let origin): renderer.draw(source: source, sourceOrigin: origin, onto: &target)
            }
        }
    }

    /// Where a frame's level pixels come from.
    package enum LevelPixels {
        /// Rows straight from the decoder, one band in memory.
        case rows(LevelReader)
        /// A decoded region (from the tiles) and the level pixel at its top left.
        case buffer(ImageBuffer, origin: (x: Int, y: Int))
    }

    /// Hands `use` the level pixels `renderer` reads: straight from the decoder when that is the `pixelSource` (or
    /// `streaming` asks for it, upright images only), else the region from the tiles (an empty buffer when the
    /// frame shows no image pixel). Returns the level rect read, nil when none.
    package func withLevelPixels(
        for renderer: FrameRenderer, level: Int, streaming: Bool = false, _ use: (LevelPixels) -> Void
    ) throws(TileViewError) -> PixelRect? {
        if let rect = renderer.sourceRect, pixelSource == .decoder || (streaming && orientation == .up) {
            let rows = try levelReader(rect, level: level)
            use(.rows(rows))
            rows.finish()
            noteStreamedPass(bytes: rect.pixelCount * 4, warnings: rows.lenientWarnings)
            if let error = rows.failure, !rows.lenient { throw TileViewError(error, path: path) }
            return rect
        }
        // The mosaic is made in this thread's kept block and kept again for its next render (`RenderBlocks`); a
        // single tile handed on as it is stays the cache's, and the block goes back unused.
        var storage: [UInt8]? = RenderBlocks.take(.mosaic)
        guard let rect = renderer.sourceRect, let source = try region(rect, level: level, storage: &storage) else {
            use(.buffer(ImageBuffer(width: 0, height: 0), origin: (0, 0)))
            if let storage { RenderBlocks.keep(.mosaic, storage) }
            return nil
        }
        use(.buffer(source.buffer, origin: source.origin))
        RenderBlocks.keep(.mosaic, storage ?? source.buffer.pixels)
        return rect
    }
}
