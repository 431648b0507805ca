import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Rendering a viewport: the streamed path (no cache) and the tiled path give the same bytes.
@Suite("Viewport render")
struct ViewportRenderTests {
    @Test(
        "a frame streamed from the decoder equals the frame rendered from cached tiles", arguments: StreamedViews.files)
    func streamedEqualsTiled(file: String) throws {
        let streamed = try StreamedViews.open(file)
        let tiled = try TiledImage(path: streamed.path)
        var rng = SplitMix64(seed: UInt64(file.utf8.count))
        for trial in 0..<5 {
            let viewport = Size(width: Double(40 + rng.int(below: 300)), height: Double(30 + rng.int(below: 300)))
            let state = StreamedViews.randomState(
                imageSize: streamed.imageSize.asSize, viewport: viewport, maximumScaleSetting: 2, &rng)
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
        let image = try StreamedViews.open("jpeg/exif_Landscape_1.jpg")
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
        let file = "bad/gen_corrupt_huffman_data.jpg"
        let strict = try StreamedViews.open(file)
        let state = ZoomState(imageSize: strict.imageSize.asSize, viewportSize: Size(width: 64, height: 64))
        #expect(throws: TileViewError.self) { _ = try strict.render(state) }
        let lenient = try StreamedViews.open(file, options: DecodeOptions(lenient: true))
        let frame = try lenient.render(state)
        #expect(frame.image.width == 64)
        #expect(!lenient.warnings.isEmpty)
    }
}
