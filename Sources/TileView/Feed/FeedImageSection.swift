import TileViewCodecs
import TileViewCore
import TileViewFeed
import TileViewRender
import TileViewTiling

/// An image section of a feed: one image laid out at the viewport width, drawn from its tiles.
///
/// Model: the image W x H (oriented) is shown at scale s = w / W, so its width is exactly the viewport's and
/// its section is round(w H / W) rows tall (`FeedSection.height(atViewportWidth:)`). For a section frame of
/// height fh and content offset co, the frame shows section rows [co, co + fh): the image frame origin in the
/// frame's own space is (0, -co). The level is the pyramid's for s (the largest L with 2^L <= 1/s); only the
/// tiles under the visible rows plus the filter's reach are decoded (`TiledImage.region`), into a small cache
/// of about two screens of tile rows, so scrolling through a tall image keeps at most that much decoded.
public final class FeedImageSection {
    /// The image, opened when the feed is (only its header is read then).
    public let image: TiledImage
    /// The viewport the feed is laid out for.
    public let viewportSize: PixelSize

    /// Opens `path` for a viewport of `viewportSize`; reads only the header (which gives the section height).
    public init(path: String, viewportSize: PixelSize, options: DecodeOptions) throws(TileViewError) {
        image = try TiledImage(path: path, cacheBudgetBytes: 0, options: options)
        image.setCacheBudget(bytes: Self.cacheBudget(imageSize: image.imageSize, viewportSize: viewportSize))
        self.viewportSize = viewportSize
    }

    /// The zoom scale the image is shown at: w / W.
    public var zoomScale: Double { Double(viewportSize.width) / Double(max(1, image.imageSize.width)) }

    /// The level the section is drawn from.
    public var level: Int { image.pyramid.level(forZoomScale: zoomScale) }

    /// Bytes of decoded tiles held now.
    public var residentBytes: Int { image.residentBytes }

    /// Frees every decoded tile (when the section leaves the resident range).
    public func release() { image.releaseAll() }

    /// The pixels of the section's visible part: w x `frame.frame.height`, over `background`. Nil when the
    /// section does not show.
    public func render(_ frame: SectionFrame, background: RGBA8) throws(TileViewError) -> ImageBuffer? {
        guard frame.isVisible else { return nil }
        let (geometry, level) = image.pyramid.frameGeometry(
            frameSize: PixelSize(width: viewportSize.width, height: frame.frame.height), zoomScale: zoomScale,
            imageFrameOrigin: Point(x: 0, y: -Double(frame.contentOffset)))
        let renderer = FrameRenderer(geometry: geometry, background: background)
        guard let rect = renderer.sourceRect, let source = try image.region(rect, level: level) else {
            return renderer.render(source: ImageBuffer(width: 0, height: 0), sourceOrigin: (0, 0))
        }
        return renderer.render(source: source.buffer, sourceOrigin: source.origin)
    }

    /// The tile cache budget: the tiles of two screens of rows at the section's level plus one tile row above
    /// and below, across the whole level width; never more than the whole level, never less than one tile.
    public static func cacheBudget(
        imageSize: PixelSize, viewportSize: PixelSize, tileSize: Int = TileGrid.defaultTileSize
    )
        -> Int
    {
        let pyramid = LevelPyramid(imageSize: imageSize, tileSize: tileSize)
        let scale = Double(viewportSize.width) / Double(max(1, imageSize.width))
        let level = pyramid.level(forZoomScale: scale)
        let grid = pyramid.grid(ofLevel: level)
        let levelRowsPerViewportRow = Double(grid.levelSize.width) / Double(max(1, viewportSize.width))
        let rows = Int((2 * Double(viewportSize.height) * levelRowsPerViewportRow / Double(tileSize)).rounded(.up)) + 2
        let tiles = max(1, min(grid.columns * rows, grid.columns * grid.rows))
        return tiles * tileSize * tileSize * ImageBuffer.channels
    }
}
