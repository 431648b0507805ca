import TileView
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Corpus images drawn without a tile cache (every frame streamed from the decoder) in random views, for the tests
/// that hold the streamed path to another way of drawing the same frame (`ViewportRenderTests`,
/// `FramePipelineTests`).
enum StreamedViews {
    /// Both paths' corpus: a 4100x3000 PNG (many tiles), baseline and progressive JPEGs, JPEGs turned by EXIF
    /// orientation 1 and 6, interlaced and plain PNGs with alpha, and a 4097x3 strip.
    static let files = [
        "png/gen_large_4100x3000.png", "jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_420_progressive.jpg",
        "jpeg/exif_Landscape_1.jpg", "jpeg/exif_Landscape_6.jpg", "png/basi6a08.png", "jpeg/gen_4097x3_420.jpg",
        "png/basn6a08.png",
    ]

    /// The corpus file `file` (a path under Tests/Corpus) opened without a tile cache.
    static func open(_ file: String, options: DecodeOptions = DecodeOptions()) throws -> TiledImage {
        try TiledImage(
            path: Fixtures.corpusRoot.appendingPathComponent(file).path, cacheBudgetBytes: 0, options: options)
    }

    /// A view of an image of `imageSize` in `viewport` after 0 to 3 double taps at random viewport points.
    static func randomState(
        imageSize: Size, viewport: Size, maximumScaleSetting: Double, _ rng: inout SplitMix64
    ) -> ZoomState {
        var state = ZoomState(imageSize: imageSize, viewportSize: viewport, maximumScaleSetting: maximumScaleSetting)
        for _ in 0..<rng.int(below: 4) {
            state.doubleTap(
                atViewportPoint: Point(
                    x: Double(rng.int(below: Int(viewport.width))), y: Double(rng.int(below: Int(viewport.height)))))
        }
        return state
    }
}
