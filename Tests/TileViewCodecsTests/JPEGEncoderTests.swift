import Testing
import TileViewCodecs
import TileViewCore

@Suite("JPEG encoder")
struct JPEGEncoderTests {
    /// A smooth opaque image: three ramps that JPEG keeps well.
    static func gradient(width: Int = 96, height: Int = 64) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBA8(
                    r: UInt8(x * 255 / max(width - 1, 1)), g: UInt8(y * 255 / max(height - 1, 1)),
                    b: UInt8((x + y) * 255 / max(width + height - 2, 1)))
            }
        }
        return image
    }

    /// The mean absolute difference over the R, G and B channels of every pixel.
    static func meanAbsoluteError(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
        precondition(a.size == b.size)
        var sum = 0
        for i in a.pixels.indices where i % 4 != 3 { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(sum) / Double(a.width * a.height * 3)
    }

    static func roundTrip(_ image: ImageBuffer, _ options: JPEGEncodeOptions = JPEGEncodeOptions()) throws
        -> DecodedImage
    {
        try JPEGDecoder.decode(.bytes(JPEGEncoder.encode(image, options: options)))
    }

    @Test("colour output keeps the size, is YCbCr 4:2:0 and stays close to a smooth input")
    func colourRoundTrip() throws {
        let image = Self.gradient()
        let decoded = try Self.roundTrip(image)
        #expect(decoded.image.size == image.size)
        #expect(decoded.header.format == .jpeg)
        #expect(decoded.header.components == 3)
        #expect(decoded.header.chromaSubsampling == "4:2:0")
        #expect(!decoded.header.isProgressive)
        #expect(decoded.image.isOpaque)
        let error = Self.meanAbsoluteError(image, decoded.image)
        #expect(error < 3, "mean absolute error \(error) at quality 90")
    }

    @Test("a higher quality gives a smaller error and a bigger file")
    func qualityOrdersError() throws {
        let image = Self.gradient()
        let low = try JPEGEncoder.encode(image, options: JPEGEncodeOptions(quality: 50))
        let high = try JPEGEncoder.encode(image, options: JPEGEncodeOptions(quality: 95))
        let lowError = Self.meanAbsoluteError(image, try JPEGDecoder.decode(.bytes(low)).image)
        let highError = Self.meanAbsoluteError(image, try JPEGDecoder.decode(.bytes(high)).image)
        #expect(highError < lowError, "quality 95: \(highError), quality 50: \(lowError)")
        #expect(high.count > low.count)
    }

    @Test("gray output has one component and decodes with R = G = B near the luma")
    func grayscale() throws {
        let image = Self.gradient()
        let decoded = try Self.roundTrip(image, JPEGEncodeOptions(grayscale: true))
        #expect(decoded.header.components == 1)
        #expect(decoded.header.colorType == "gray")
        #expect(decoded.image.size == image.size)
        var worst = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = decoded.image[x, y]
                #expect(p.r == p.g && p.g == p.b, "(\(x), \(y))")
                let q = image[x, y]
                let luma = (77 * Int(q.r) + 150 * Int(q.g) + 29 * Int(q.b) + 128) >> 8
                worst = max(worst, abs(Int(p.r) - luma))
            }
        }
        #expect(worst <= 6, "largest gray difference \(worst)")
    }

    @Test("the output starts with SOI (FFD8) and ends with EOI (FFD9)")
    func markers() throws {
        for grayscale in [false, true] {
            let jpeg = try JPEGEncoder.encode(Self.gradient(), options: JPEGEncodeOptions(grayscale: grayscale))
            #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
            #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        }
    }

    @Test("quality outside 1...100 is clamped")
    func qualityClamped() throws {
        let image = Self.gradient(width: 40, height: 24)
        func encoded(_ quality: Int) throws -> [UInt8] {
            try JPEGEncoder.encode(image, options: JPEGEncodeOptions(quality: quality))
        }
        #expect(try encoded(0) == encoded(1))
        #expect(try encoded(-7) == encoded(1))
        #expect(try encoded(101) == encoded(100))
        #expect(try encoded(1) != encoded(100))
    }

    @Test("thin and tiny images encode and keep their size", arguments: [(1, 1), (3000, 1), (1, 3000), (17, 9)])
    func oddSizes(width: Int, height: Int) throws {
        let image = TestImages.random(width: width, height: height, opaque: true, seed: UInt64(width * 7919 + height))
        for grayscale in [false, true] {
            let decoded = try Self.roundTrip(image, JPEGEncodeOptions(grayscale: grayscale))
            #expect(decoded.image.size == image.size, "\(width)x\(height) gray \(grayscale)")
        }
    }

    @Test(
        "a fully transparent image encodes as the background colour",
        arguments: [RGBA8.black, RGBA8(r: 255, g: 255, b: 255), RGBA8(r: 30, g: 144, b: 255)])
    func transparentIsBackground(background: RGBA8) throws {
        var image = TestImages.random(width: 24, height: 16, seed: 5)
        for i in stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = 0 }
        let decoded = try Self.roundTrip(image, JPEGEncodeOptions(background: background))
        let flat = ImageBuffer(width: 24, height: 16, fill: background)
        let error = Self.meanAbsoluteError(flat, decoded.image)
        #expect(error < 2, "mean absolute error \(error) from \(background)")
    }

    @Test("the default background is black; half-transparent pixels are blended")
    func translucentComposited() throws {
        let half = ImageBuffer(width: 16, height: 16, fill: RGBA8(r: 200, g: 100, b: 50, a: 128))
        let decoded = try Self.roundTrip(half)
        // round(c * 128 / 255): 100, 50, 25 over black.
        #expect(
            Self.meanAbsoluteError(ImageBuffer(width: 16, height: 16, fill: RGBA8(r: 100, g: 50, b: 25)), decoded.image)
                < 2)
        let overWhite = try Self.roundTrip(half, JPEGEncodeOptions(background: RGBA8(r: 255, g: 255, b: 255)))
        // round((c * 128 + 255 * 127) / 255): 227, 177, 152 over white.
        #expect(
            Self.meanAbsoluteError(
                ImageBuffer(width: 16, height: 16, fill: RGBA8(r: 227, g: 177, b: 152)), overWhite.image) < 2)
    }

    @Test("an opaque image ignores the background")
    func opaqueIgnoresBackground() throws {
        let image = Self.gradient(width: 32, height: 32)
        #expect(
            try JPEGEncoder.encode(image)
                == JPEGEncoder.encode(image, options: JPEGEncodeOptions(background: RGBA8(r: 255, g: 0, b: 0))))
    }

    @Test("the same input gives the same bytes")
    func deterministic() throws {
        let image = TestImages.random(width: 50, height: 33, seed: 9)
        for options in [JPEGEncodeOptions(), JPEGEncodeOptions(quality: 75, grayscale: true)] {
            #expect(try JPEGEncoder.encode(image, options: options) == JPEGEncoder.encode(image, options: options))
        }
    }

    @Test("an empty image is refused")
    func emptyRefused() {
        for size in [(0, 0), (0, 5), (5, 0)] {
            #expect(throws: CodecError.self) { try JPEGEncoder.encode(ImageBuffer(width: size.0, height: size.1)) }
        }
    }

    @Test("a side over 65500 pixels is libjpeg's error, reported as too large")
    func tooWide() {
        let image = ImageBuffer(width: 65501, height: 1, fill: .black)
        do {
            _ = try JPEGEncoder.encode(image)
            Issue.record("a 65501x1 image was encoded")
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.message.contains("65500"), "\(error.message)")
        }
    }
}
