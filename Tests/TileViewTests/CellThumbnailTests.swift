import Foundation
import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewTestSupport

/// Grid thumbnails: the decode scale, aspect fill, and equality with a whole-image reference.
@Suite("Cell thumbnail")
struct CellThumbnailTests {
    @Test(
        "the JPEG scale is the smallest M/8 at or above the fill scale, and the box factor the largest 1/f at or above it"
    )
    func scaleChoice() {
        let seed: UInt64 = 0xCE11_5CA1E
        print("cell scale sweep seed \(seed)")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<5000 {
            let image = PixelSize(width: 1 + rng.int(below: 5000), height: 1 + rng.int(below: 5000))
            let cell = PixelSize(width: 1 + rng.int(below: 300), height: 1 + rng.int(below: 300))
            let s = CellThumbnail.fillScale(imageSize: image, cellSize: cell)
            let m = CellThumbnail.jpegScaleNumerator(imageSize: image, cellSize: cell)
            #expect((1...8).contains(m))
            if m < 8 || Double(m) / 8 >= s {
                #expect(Double(m) / 8 >= s * (1 - 1e-12), "\(image) in \(cell): M \(m) covers the cell")
            } else {
                #expect(s > 1 - 1e-12, "M 8 without covering only when the cell enlarges the image")
            }
            if m > 1 { #expect(Double(m - 1) / 8 < s * (1 + 1e-12), "\(image) in \(cell): M \(m) is the smallest") }
            let f = CellThumbnail.boxFactor(imageSize: image, cellSize: cell)
            #expect(f >= 1)
            if f > 1 { #expect(Double(f) * s <= 1 + 1e-12, "\(image) in \(cell): factor \(f) still covers") }
            #expect(Double(f + 1) * s > 1 - 1e-12, "\(image) in \(cell): factor \(f) is the largest")
        }
    }

    static let files: [String] = [
        "SampleImages/rocket.jpg", "SampleImages/retina.jpg", "SampleImages/hubble_deep_field.jpg",
        "SampleImages/coffee.png", "SampleImages/chelsea.png", "corpus/jpeg/exif_Landscape_5.jpg",
        "corpus/jpeg/exif_Landscape_6.jpg", "corpus/jpeg/exif_Landscape_8.jpg", "corpus/png/basn6a08.png",
        "corpus/png/basi0g08.png", "corpus/jpeg/gen_4097x3_420.jpg",
    ]

    static func path(_ file: String) -> String {
        if file.hasPrefix("corpus/") {
            return Fixtures.corpusRoot.appendingPathComponent(String(file.dropFirst(7))).path
        }
        return Fixtures.packageRoot.appendingPathComponent(file).path
    }

    /// The whole image decoded at the thumbnail's scale (JPEG M/8, the other formats box factor f), turned upright, then
    /// resampled into the cell with the fill geometry.
    static func reference(_ path: String, cell: PixelSize, background: RGBA8) throws -> ImageBuffer {
        let header = try ImageHeader.read(from: .file(path: path))
        let size = header.orientedSize
        let level: ImageBuffer
        switch header.format {
        case .jpeg:
            let m = CellThumbnail.jpegScaleNumerator(imageSize: size, cellSize: cell)
            level = try JPEGDecoder.decode(.file(path: path), scaleNumerator: m).image
        default:
            let f = CellThumbnail.boxFactor(imageSize: size, cellSize: cell)
            let stored = try ImageDecoder.decode(.file(path: path), options: DecodeOptions(applyOrientation: false))
                .image
            level = BoxReducer.reduce(stored, factor: f).applying(header.orientation)
        }
        let geometry = CellThumbnail.geometry(imageSize: size, levelSize: level.size, cellSize: cell)
        return FrameRenderer(geometry: geometry, background: background).render(source: level, sourceOrigin: (0, 0))
    }

    @Test("a thumbnail equals the whole image decoded at the same scale and resampled into the cell", arguments: files)
    func matchesWholeImageReference(file: String) throws {
        let path = Self.path(file)
        let background = RGBA8(r: 10, g: 200, b: 30)
        for cell in [
            PixelSize(width: 50, height: 50), PixelSize(width: 51, height: 50), PixelSize(width: 13, height: 29),
        ] {
            let thumbnail = try CellThumbnail.render(file: path, cellSize: cell, background: background)
            #expect(thumbnail.image.size == cell)
            #expect(
                thumbnail.image == (try Self.reference(path, cell: cell, background: background)), "\(file) at \(cell)")
        }
    }

    @Test("aspect fill: the cell is covered top to bottom by the centre of a wide image")
    func aspectFill() throws {
        // 300x100: red, green, blue bands of 100 columns; a 30x30 cell shows the middle 100x100.
        var image = ImageBuffer(width: 300, height: 100)
        for y in 0..<100 {
            for x in 0..<300 {
                image[x, y] =
                    x < 100
                    ? RGBA8(r: 255, g: 0, b: 0) : (x < 200 ? RGBA8(r: 0, g: 255, b: 0) : RGBA8(r: 0, g: 0, b: 255))
            }
        }
        try TemporaryFolder.with("cell-fill") { dir in
            let path = dir.appendingPathComponent("bands.png").path
            try Data(try PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: path))
            let cell = try CellThumbnail.render(
                file: path, cellSize: PixelSize(width: 30, height: 30), background: .black
            )
            .image
            for y in 0..<30 {
                for x in 10..<20 {
                    #expect(cell[x, y] == RGBA8(r: 0, g: 255, b: 0), "(\(x), \(y)) shows the middle band")
                }
                #expect(
                    cell[0, y].g > 200 && cell[29, y].g > 200,
                    "row \(y): the edges are the middle band, not the background"
                )
            }
        }
    }

    @Test("a damaged file fails naming it; lenient keeps what decoded and warns")
    func damaged() throws {
        // A 200x200 PNG stored without compression, cut in the middle of its image data.
        try TemporaryFolder.with("cell-damaged") { dir in
            let whole = try PNGEncoder.encode(
                ImageBuffer(width: 200, height: 200, fill: RGBA8(r: 200, g: 100, b: 50)),
                options: PNGEncodeOptions(compression: .level(0)))
            let cutPNG = dir.appendingPathComponent("cut.png")
            try Data(whole.prefix(whole.count / 2)).write(to: cutPNG)
            let corruptJPEG = Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg")
            for url in [cutPNG, corruptJPEG] {
                let cell = PixelSize(width: 40, height: 40)
                do throws(TileViewError) {
                    _ = try CellThumbnail.render(file: url.path, cellSize: cell)
                    Issue.record("\(url.lastPathComponent) must fail in strict mode")
                } catch {
                    #expect(error.path == url.path)
                }
                let lenient = try CellThumbnail.render(
                    file: url.path, cellSize: cell, options: DecodeOptions(lenient: true))
                #expect(lenient.image.size == cell)
                #expect(!lenient.warnings.isEmpty, "\(url.lastPathComponent): lenient mode warns")
            }
            let top = try CellThumbnail.render(
                file: cutPNG.path, cellSize: PixelSize(width: 40, height: 40), background: .black,
                options: DecodeOptions(lenient: true)
            ).image
            #expect(top[20, 2] == RGBA8(r: 200, g: 100, b: 50), "the rows decoded before the cut are kept")
            #expect(top[20, 37] == .black, "the rows after it show the background")
        }
    }
}
