import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Rendering a viewport: the streamed path (no cache) and the tiled path give the same bytes.
@Suite("Viewport render")
struct ViewportRenderTests {
    static let files = [
        "png/gen_large_4100x3000.png", "jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_420_progressive.jpg",
        "jpeg/exif_Landscape_1.jpg", "jpeg/exif_Landscape_6.jpg", "png/basi6a08.png", "jpeg/gen_4097x3_420.jpg",
    ]

    @Test("a frame streamed from the decoder equals the frame rendered from cached tiles", arguments: files)
    func streamedEqualsTiled(file: String) throws {
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        let streamed = try TiledImage(path: path, cacheBudgetBytes: 0)
        let tiled = try TiledImage(path: path)
        var rng = SplitMix64(seed: UInt64(file.utf8.count))
        for trial in 0..<5 {
            let viewport = Size(width: Double(40 + rng.int(below: 300)), height: Double(30 + rng.int(below: 300)))
            var state = ZoomState(
                imageSize: streamed.imageSize.asSize, viewportSize: viewport, maximumScaleSetting: 2)
            for _ in 0..<rng.int(below: 4) {
                state.doubleTap(
                    atViewportPoint: Point(
                        x: Double(rng.int(below: Int(viewport.width))), y: Double(rng.int(below: Int(viewport.height))))
                )
            }
            let a = try streamed.render(state, background: RGBA8(r: 10, g: 20, b: 30))
            let b = try tiled.render(state, background: RGBA8(r: 10, g: 20, b: 30))
            #expect(a.level == b.level)
            #expect(a.image.size == PixelSize(width: Int(viewport.width), height: Int(viewport.height)))
            let identical = a.image == b.image  // compared outside #expect: the buffers are large
            #expect(identical, "\(file) trial \(trial) at scale \(state.zoomScale), level \(a.level)")
        }
        #expect(streamed.residentBytes == 0)
    }

    @Test("a fit view decodes only the level it draws: libjpeg's 1/8 scale for a tiny viewport")
    func fitDecodesOnlyItsLevel() throws {
        let path = Fixtures.corpusRoot.appendingPathComponent("jpeg/exif_Landscape_1.jpg").path
        let image = try TiledImage(path: path, cacheBudgetBytes: 0)
        let state = ZoomState(imageSize: image.imageSize.asSize, viewportSize: Size(width: 100, height: 75))
        let frame = try image.render(state)
        // s = 100/1800: 1/s = 18 would allow level 4, but the pyramid stops at level 3 (225x150
        // fits in one tile): libjpeg's 1/8 scale, 1/64 of the full-size pixels.
        #expect(frame.level == 3)
        let rect = try #require(frame.sourceRect)
        #expect(image.bytesDecoded == rect.pixelCount * 4)
        #expect(image.bytesDecoded <= 225 * 150 * 4)
        #expect(image.decodePasses == 1)
    }

    @Test("a damaged JPEG fails when streamed, naming the file; lenient renders with a warning")
    func streamedDamage() throws {
        let path = Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg").path
        let strict = try TiledImage(path: path, cacheBudgetBytes: 0)
        let state = ZoomState(imageSize: strict.imageSize.asSize, viewportSize: Size(width: 64, height: 64))
        #expect(throws: TileViewError.self) { _ = try strict.render(state) }
        let lenient = try TiledImage(path: path, cacheBudgetBytes: 0, options: DecodeOptions(lenient: true))
        let frame = try lenient.render(state)
        #expect(frame.image.width == 64)
        #expect(!lenient.warnings.isEmpty)
    }
}
