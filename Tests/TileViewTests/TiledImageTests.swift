import Foundation
import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewTestSupport
import TileViewTiling

/// The tiled model against whole-image decodes: every level, every orientation, any rect.
@Suite("Tiled image")
struct TiledImageTests {
    /// The reference pixels of a whole level: the decoder's own scaling where it has one (JPEG
    /// 1/2 to 1/8), box reduction beyond it (and for every level of the other formats), then orientation.
    static func referenceLevel(_ path: String, level: Int) throws -> ImageBuffer {
        let stored = DecodeOptions(applyOrientation: false)
        let header = try ImageHeader.read(from: .file(path: path))
        let buffer: ImageBuffer
        switch header.format {
        case .jpeg:
            let direct = min(level, 3)
            let scaled = try JPEGDecoder.decode(.file(path: path), scaleNumerator: 8 >> direct, options: stored).image
            buffer = BoxReducer.reduce(scaled, factor: 1 << (level - direct))
        default:
            buffer = BoxReducer.reduce(
                try ImageDecoder.decode(.file(path: path), options: stored).image, factor: 1 << level)
        }
        return buffer.applying(header.orientation)
    }

    /// A rect of random position and size (sides 1 to `side`) inside `size`.
    static func randomRect(in size: PixelSize, upTo side: Int, _ rng: inout SplitMix64) -> PixelRect {
        let w = 1 + rng.int(below: min(size.width, side))
        let h = 1 + rng.int(below: min(size.height, side))
        return PixelRect(
            x: rng.int(below: size.width - w + 1), y: rng.int(below: size.height - h + 1), width: w, height: h)
    }

    /// The pixels of level rect `rect` in a `region(_:level:)` answer, nil when the answer does not hold them.
    static func pixels(of rect: PixelRect, in region: (buffer: ImageBuffer, origin: (x: Int, y: Int))) -> ImageBuffer? {
        let inBuffer = PixelRect(
            x: rect.x - region.origin.x, y: rect.y - region.origin.y, width: rect.width, height: rect.height)
        guard PixelRect(size: region.buffer.size).contains(inBuffer) else { return nil }
        return region.buffer.cropped(to: inBuffer)
    }

    static let files: [String] = [
        "jpeg/exif_Landscape_1.jpg", "jpeg/exif_Landscape_3.jpg", "jpeg/exif_Landscape_5.jpg",
        "jpeg/exif_Landscape_6.jpg", "jpeg/exif_Landscape_8.jpg", "jpeg/gen_chelsea_422_q90.jpg",
        "jpeg/gen_chelsea_420_progressive.jpg", "jpeg/gen_4097x3_420.jpg", "png/gen_large_4100x3000.png",
        "png/basi6a08.png", "png/basn2c08.png",
    ]

    @Test("any rect of any level equals the same rect of the whole level, decoded directly", arguments: files)
    func regionsMatchWholeLevel(file: String) throws {
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        let image = try TiledImage(path: path, tileSize: 64, cacheBudgetBytes: 4 << 20)
        var rng = SplitMix64(seed: UInt64(file.utf8.count) &* 7919)
        for level in image.pyramid.levels where level <= 6 {
            let reference = try Self.referenceLevel(path, level: level)
            let size = image.pyramid.levelSize(ofLevel: level)
            #expect(reference.size == size, "\(file) level \(level): level size")
            for trial in 0..<6 {
                let rect = Self.randomRect(in: size, upTo: 300, &rng)
                let region = try #require(try image.region(rect, level: level))
                let pixels = Self.pixels(of: rect, in: region)
                #expect(pixels != nil, "\(file) level \(level) trial \(trial)")
                #expect(pixels == reference.cropped(to: rect), "\(file) level \(level) trial \(trial): \(rect)")
            }
        }
        #expect(image.residentBytes <= 4 << 20, "the cache settles within its budget")
    }

    @Test("a region that is a whole level the image's size does not divide is that level's pixels, copied")
    func wholeUnevenLevel() throws {
        try TemporaryFolder.with("uneven-level") { folder in
            // 1001 x 700: level 2 is 251 x 175 (1001 / 4 = 250.25), one tile; the power-of-two rule alone would draw
            // its 251 columns from level 1 (501 x 350), resampled.
            let url = folder.appendingPathComponent("uneven.png")
            try TestPages.writePNG(TestPages.page(3, width: 1001, height: 700), to: url)
            let image = try TiledImage(path: url.path)
            let levelSize = image.pyramid.levelSize(ofLevel: 2)
            #expect(levelSize == PixelSize(width: 251, height: 175))
            let frame = try image.render(region: PixelRect(x: 0, y: 0, width: 1001, height: 700), size: levelSize)
            #expect(frame.level == 2)
            let level = try #require(try image.region(PixelRect(size: levelSize), level: 2))
            let copied = frame.image == Self.pixels(of: PixelRect(size: levelSize), in: level)
            #expect(copied, "the answer is level 2's pixels")
        }
    }

    @Test("a 1:1 crop decodes only the tiles it meets, in one pass")
    func cropDecodesOnlyItsTiles() throws {
        let path = Fixtures.corpusRoot.appendingPathComponent("png/gen_large_4100x3000.png").path
        let image = try TiledImage(path: path, tileSize: 256)
        let rect = PixelRect(x: 2000, y: 1500, width: 300, height: 200)
        _ = try image.region(rect, level: 0)
        let expected = image.pyramid.grid(ofLevel: 0).tiles(intersecting: rect).count
        #expect(image.statistics.tilesDecoded == expected)
        #expect(image.decodePasses == 1)
        // Asking again is served from the cache.
        _ = try image.region(rect, level: 0)
        #expect(image.decodePasses == 1)
        #expect(image.statistics.tilesDecoded == expected)
        image.releaseAll()
        #expect(image.residentBytes == 0)
    }

    @Test("without a cache budget nothing stays resident after a region is served")
    func noBudgetKeepsNothing() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path
        let image = try TiledImage(path: path, cacheBudgetBytes: 0)
        let region = try #require(try image.region(PixelRect(x: 100, y: 100, width: 500, height: 400), level: 0))
        #expect(region.buffer.width >= 500 && region.buffer.height >= 400)
        #expect(image.residentBytes == 0)
        // Every region is decoded again: nothing was kept.
        _ = try image.region(PixelRect(x: 100, y: 100, width: 500, height: 400), level: 0)
        #expect(image.decodePasses == 2)
    }

    @Test("changing the cache budget in place keeps tiles from then on, and 0 frees them all")
    func cacheBudgetInPlace() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path
        let image = try TiledImage(path: path, cacheBudgetBytes: 0)
        let rect = PixelRect(x: 0, y: 0, width: 300, height: 300)
        _ = try image.region(rect, level: 0)
        #expect(image.residentBytes == 0)
        image.setCacheBudget(bytes: 8 << 20)
        _ = try image.region(rect, level: 0)
        #expect(image.residentBytes > 0)
        let passes = image.decodePasses
        _ = try image.region(rect, level: 0)
        #expect(image.decodePasses == passes, "served from the cache")
        image.setCacheBudget(bytes: 0)
        #expect(image.residentBytes == 0)
    }

    @Test("a rect outside the level gives nil and decodes nothing")
    func outsideRect() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
        let image = try TiledImage(path: path)
        #expect(try image.region(PixelRect(x: 5000, y: 0, width: 10, height: 10), level: 0) == nil)
        #expect(image.decodePasses == 0)
    }

    @Test("opening over the pixel limit fails before any decoding, naming the file")
    func pixelLimit() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("coffee.png").path
        #expect(throws: TileViewError.self) {
            _ = try TiledImage(path: path, options: DecodeOptions(maxPixels: 1000))
        }
        do {
            _ = try TiledImage(path: path, options: DecodeOptions(maxPixels: 1000))
        } catch {
            #expect(error.path == path)
            #expect(error.kind == .decode)
        }
    }

    @Test("a damaged file fails with the file's name when its tiles are decoded")
    func damagedFile() throws {
        let path = Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg").path
        let image = try TiledImage(path: path)
        #expect(throws: TileViewError.self) {
            _ = try image.region(PixelRect(size: image.imageSize), level: 0)
        }
        let lenient = try TiledImage(path: path, options: DecodeOptions(lenient: true))
        _ = try lenient.region(PixelRect(size: lenient.imageSize), level: 0)
        #expect(!lenient.warnings.isEmpty)
    }
}

@Suite("Tiled image: decoding memory")
struct TiledImageMemoryTests {
    @Test("an image whose decoder must hold more than the room left is refused from its header, naming why")
    func refusedFromTheHeader() throws {
        for (file, words) in [
            ("jpeg/gen_chelsea_420_progressive.jpg", "a progressive JPEG keeps every coefficient"),
            ("png/basi6a08.png", "an interlaced PNG is decoded whole"),
        ] {
            let path = Fixtures.corpusRoot.appendingPathComponent(file).path
            let tight = DecodeOptions(maxMemoryBytes: 1000, memoryLimitBytes: 5 << 20)
            #expect(throws: TileViewError.self) { try TiledImage(path: path, options: tight) }
            do {
                _ = try TiledImage(path: path, options: tight)
            } catch {
                #expect(error.reason.contains(words), "\(error)")
                #expect(error.reason.contains("of the memory limit of 5.0 MiB"), "\(error)")
            }
            _ = try TiledImage(path: path, options: DecodeOptions(maxMemoryBytes: 10 << 20))
        }
        // Sequential files are read in bands: no working memory to refuse.
        let baseline = Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_chelsea_420_q90.jpg").path
        _ = try TiledImage(path: baseline, options: DecodeOptions(maxMemoryBytes: 0))
        // The limits do not name a different job: a run resumed under another limit reuses its frames.
        #expect(DecodeOptions(maxMemoryBytes: 5, memoryLimitBytes: 9).description == DecodeOptions().description)
    }
}
