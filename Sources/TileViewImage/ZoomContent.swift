import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewSystem
import TileViewTiling
import TileViewZoom

/// What a viewport zooms: an image file (`TiledImage`) or a scene (`SceneImage`). The zoom engine sees only
/// `contentSize`; the content draws what a zoom state shows and counts what it decoded.
public protocol ZoomContent: AnyObject {
    /// The file, as the user named it.
    var path: String { get }
    /// The size the zoom engine zooms: the oriented image's pixels, or the scene's points.
    var contentSize: Size { get }
    /// The level of detail a frame at `zoomScale` is drawn from (0 for a scene: each of its images picks its own).
    func level(forZoomScale zoomScale: Double) -> Int
    /// The size of `level` (the content size, rounded, for a scene).
    func levelSize(ofLevel level: Int) -> PixelSize
    /// What the viewport of `state` shows, over `background`, with the content drawn `overscroll` viewport pixels
    /// off the state's image frame (a bounce past an edge; zero otherwise). The state's `rotation` is not applied
    /// here: a turned state is drawn from the content `rotated(clockwiseQuarterTurns:)` gives.
    func render(_ state: ZoomState, displacedBy overscroll: Point, background: RGBA8, filter: ResampleFilter)
        throws(TileViewError) -> RenderedFrame
    /// `render` and the frame's PNG file (the bytes `ImageFiles.encodePNG` gives for the frame; an image drawn
    /// straight from its decoder encodes while it draws).
    func renderPNG(_ state: ZoomState, displacedBy overscroll: Point, background: RGBA8, filter: ResampleFilter)
        throws(TileViewError) -> (frame: RenderedFrame, png: [UInt8])
    /// The same content turned clockwise by quarter turns (its `contentSize` swapped for odd turns).
    func rotated(clockwiseQuarterTurns: Int) throws(TileViewError) -> any ZoomContent
    /// Tile cache counters (summed over a scene's images).
    var statistics: TileCacheStatistics { get }
    /// Bytes of level pixels decoded so far.
    var bytesDecoded: Int { get }
    /// Bytes of level pixels decoded straight into frames, without tiles.
    var streamedBytes: Int { get }
    /// Decoding passes over the files.
    var decodePasses: Int { get }
    /// Bytes of decoded pixels held now.
    var residentBytes: Int { get }
    /// What decoding for a frame holds at its peak beside the frame and the tiles it reads, whatever the frame
    /// shows: a band of the widest level, the decoder's rows, and the decoder's working memory (a progressive JPEG's
    /// coefficients, an image decoded whole: `ImageHeader.decodeWorkingBytes`); a scene's largest over its images,
    /// which are drawn one at a time.
    var decodePeakBytes: Int { get }
    /// What decoding for the frame of `state` holds at its peak: `decodePeakBytes`, or more where that frame needs
    /// more (a turned image decodes the stored block under every row of tiles the frame touches, and turns it).
    func decodePeakBytes(for state: ZoomState) -> Int
    /// The level pixels the frame of `state` reads at once (the region of tiles under its source rect, 4 bytes a
    /// pixel; a scene's largest over its layers, drawn one at a time); nil where only the bound from the viewport is
    /// known (up to twice the viewport's side on each axis).
    func frameSourceBytes(for state: ZoomState) -> Int?
    /// Warnings of lenient decoding, each naming its file when that is not `path`.
    var warnings: [String] { get }
    /// The colour description of the stored values its frames show with `--color keep`, when every image shown
    /// has the same one and it is not sRGB (docs/design.md section 14): the PNG carries its profile. Nil when frames
    /// are converted to sRGB.
    var keptColor: ColorDescription? { get }
    /// Changes the tile cache budget (of every image, for a scene); 0 frees the tiles.
    func setCacheBudget(bytes: Int)
    /// Frees every decoded byte.
    func releaseAll()
}

extension ZoomContent {
    /// Content that knows no better: the bound whatever the frame shows (images and scenes work it out from the
    /// frame).
    public func decodePeakBytes(for state: ZoomState) -> Int { decodePeakBytes }
    public func frameSourceBytes(for state: ZoomState) -> Int? { nil }

    public func renderPNG(_ state: ZoomState, displacedBy overscroll: Point, background: RGBA8, filter: ResampleFilter)
        throws(TileViewError) -> (frame: RenderedFrame, png: [UInt8])
    {
        let frame = try render(state, displacedBy: overscroll, background: background, filter: filter)
        return (frame, try ImageFiles.encodePNG(frame.image, naming: path))
    }
}

extension TiledImage: ZoomContent {
    public var contentSize: Size { imageSize.asSize }
    public var keptColor: ColorDescription? {
        // A gray profile goes only into a gray PNG, and a frame (over its background) is RGB.
        options.color == .keep && header.color.profileToEmbed != nil && header.color.layout != .gray
            ? header.color : nil
    }
    public func level(forZoomScale zoomScale: Double) -> Int { pyramid.level(forZoomScale: zoomScale) }
    public func levelSize(ofLevel level: Int) -> PixelSize { pyramid.levelSize(ofLevel: level) }
    public var decodePeakBytes: Int {
        let width = max(1, header.storedSize.width, header.storedSize.height)
        // A band of tiles across level 0 (either side, turned), and the decoder's rows as `plan(region:size:)`
        // counts them at their widest (a JPEG's 1/8 scale boxed down by up to 8 rows a component).
        return FramePlan.sum([
            FramePlan.product(width, pyramid.tileSize, 4), FramePlan.product(width, 8, 12), header.decodeWorkingBytes,
        ])
    }

    /// A turned image's frame decodes the stored block under every row of tiles its source rect touches, and turns
    /// it (as `RegionPlan` counts a region's "turned block", `turnedBlockCopies`): from a view's viewport alone that
    /// block is up to twice the viewport's side in rows of the level's whole width, so it is counted from the frame.
    public func decodePeakBytes(for state: ZoomState) -> Int {
        let (geometry, level) = frameGeometry(state, displacedBy: .zero)
        guard let source = FrameRenderer.plan(geometry).sourceRect else { return decodePeakBytes }
        return decodePeakBytes(level: level, source: source)
    }

    public func frameSourceBytes(for state: ZoomState) -> Int? {
        Self.sourceBytes(of: frameGeometry(state, displacedBy: .zero).0)
    }

    /// The level pixels a frame of `geometry` reads (its source rect, 4 bytes a pixel; 0 when it shows none).
    package static func sourceBytes(of geometry: FrameGeometry) -> Int {
        guard let source = FrameRenderer.plan(geometry).sourceRect else { return 0 }
        return FramePlan.product(source.width, source.height, 4)
    }

    /// `decodePeakBytes(for:)` of a frame that reads `source` (level pixels) of `level`: a gallery's page draws.
    package func decodePeakBytes(level: Int, source: PixelRect) -> Int {
        guard orientation != .up else { return decodePeakBytes }
        let grid = pyramid.grid(ofLevel: level)
        let rows = Set(grid.tiles(intersecting: source).map(\.row)).count
        let block = FramePlan.product(grid.levelSize.width, grid.tileSize, 4, rows, turnedBlockCopies)
        return FramePlan.sum([block, decodePeakBytes])
    }

    /// The image reopened with its orientation turned (the header is not read again). Over a shared tile cache
    /// the turned image's tiles have their own name.
    public func rotated(clockwiseQuarterTurns more: Int) throws(TileViewError) -> any ZoomContent {
        try turned(by: more)
    }

    /// `rotated(clockwiseQuarterTurns:)` as an image: the same image turned by `more` quarter turns.
    public func turned(by more: Int) throws(TileViewError) -> TiledImage {
        let total = normalizedQuarterTurns(turns + more)
        guard total != turns else { return self }
        let turned = try TiledImage(
            source: source, name: path, header: header, tileSize: pyramid.tileSize, cacheBudgetBytes: cacheBudgetBytes,
            sharedTiles: sharedTiles.map { SharedTiles(cache: $0.cache, image: "\($0.image) turned \(total)") },
            options: options, clockwiseQuarterTurns: total)
        turned.decodesInParts = decodesInParts
        return turned
    }
}
