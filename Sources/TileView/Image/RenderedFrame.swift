import TileViewCodecs
import TileViewCore
import TileViewRender
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
}

extension TiledImage {
    /// Renders what the viewport of `state` shows (DESIGN section 7): picks the level whose
    /// factor 2^L is at most 1/s, decodes only the tiles the visible rect needs at that level,
    /// and resamples them into a frame of exactly the viewport's size over `background`.
    public func render(
        _ state: ZoomState, background: RGBA8 = .black, filter: ResampleFilter = .automatic
    ) throws(TileViewError) -> RenderedFrame {
        let frameSize = PixelSize(truncating: state.viewportSize)
        let level = pyramid.level(forZoomScale: state.zoomScale)
        let geometry = FrameGeometry(
            frameSize: frameSize, zoomScale: state.zoomScale, imageFrameOrigin: state.imageFrame.origin,
            imageSize: pyramid.imageSize, levelSize: pyramid.levelSize(ofLevel: level))
        return try render(geometry, level: level, background: background, filter: filter)
    }

    /// Renders `region` (image pixels) scaled to exactly `size`, stretched when the aspect ratios differ, the
    /// way a zoom frame is rendered: the level is the one a zoom at the larger of the two scales would draw,
    /// then the same filters and pixel centres. This is how a server answers "this rect at that size".
    public func render(
        region: PixelRect, size: PixelSize, background: RGBA8 = .black, filter: ResampleFilter = .automatic
    ) throws(TileViewError) -> RenderedFrame {
        let scaleX = Double(size.width) / Double(max(region.width, 1))
        let scaleY = Double(size.height) / Double(max(region.height, 1))
        let level = pyramid.level(forZoomScale: max(scaleX, scaleY))
        let geometry = FrameGeometry(
            frameSize: size, zoomScale: scaleX, zoomScaleY: scaleY,
            imageFrameOrigin: Point(x: -Double(region.x) * scaleX, y: -Double(region.y) * scaleY),
            imageSize: pyramid.imageSize, levelSize: pyramid.levelSize(ofLevel: level))
        return try render(geometry, level: level, background: background, filter: filter)
    }

    /// Renders a frame of `geometry` from `level`: straight from the decoder when there is no tile cache,
    /// else through the tiles.
    func render(
        _ geometry: FrameGeometry, level: Int, background: RGBA8, filter: ResampleFilter
    ) throws(TileViewError) -> RenderedFrame {
        let renderer = FrameRenderer(geometry: geometry, filter: filter, background: background)
        if let rect = renderer.sourceRect, streamsFrames {
            // No cache to fill: render straight from the decoder's rows (one band in memory).
            let rows: LevelReader
            do throws(CodecError) {
                rows = try LevelReader(
                    .file(path: path), format: header.format, scale: .pyramidLevel(level, format: header.format),
                    rect: rect, options: options)
            } catch {
                throw TileViewError(error, path: path)
            }
            var source = rows
            let image = renderer.render(rows: &source)
            rows.finish()
            noteStreamedPass(bytes: rect.pixelCount * 4, warnings: rows.lenientWarnings)
            if let error = rows.failure, !rows.lenient { throw TileViewError(error, path: path) }
            return RenderedFrame(image: image, level: level, sourceRect: rect)
        }
        guard let rect = renderer.sourceRect, let source = try region(rect, level: level) else {
            let empty = ImageBuffer(width: 0, height: 0)
            return RenderedFrame(
                image: renderer.render(source: empty, sourceOrigin: (0, 0)), level: level, sourceRect: nil)
        }
        return RenderedFrame(
            image: renderer.render(source: source.buffer, sourceOrigin: source.origin), level: level, sourceRect: rect)
    }
}
