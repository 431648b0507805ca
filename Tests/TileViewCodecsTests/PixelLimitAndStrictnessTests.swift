import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("Pixel limit and strictness")
struct PixelLimitAndStrictnessTests {
    /// A PNG whose IHDR claims `width` x `height` (its image data is one empty IDAT).
    static func forgedPNG(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr = PNGChunks.bytes32(width) + PNGChunks.bytes32(height) + [8, 6, 0, 0, 0]
        return PNGChunks.join([
            PNGChunks.Chunk(type: "IHDR", data: ihdr), PNGChunks.Chunk(type: "IDAT", data: [0x78, 0x9C]),
            PNGChunks.Chunk(type: "IEND", data: []),
        ])
    }

    /// A corpus JPEG whose SOF0 claims `width` x `height`.
    static func forgedJPEG(width: UInt16, height: UInt16) throws -> [UInt8] {
        var bytes = try Fixtures.bytes("jpeg/gen_chelsea_420_q90.jpg")
        let sof = (0..<(bytes.count - 9)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: PNGChunks.bytes16(height) + PNGChunks.bytes16(width))
        return bytes
    }

    @Test("a header claiming billions of pixels is refused as tooLarge before any pixel memory")
    func hugeHeaders() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let png = Self.forgedPNG(width: 200_000, height: 100_000)  // 2e10 pixels, 80 GB as RGBA
        let jpeg = try Self.forgedJPEG(width: 65_000, height: 65_000)  // 4.2e9 pixels
        for source in [ImageSource.bytes(png), .bytes(jpeg)] {
            let refused = error { try ImageDecoder.decode(source) }
            #expect(refused?.kind == .tooLarge)
            #expect(refused?.message.contains("over the limit of 1000000000 pixels") == true)
        }
        #expect(kind { try PNGRowReader(.bytes(png)) } == .tooLarge)
        #expect(kind { try JPEGScanlineReader(.bytes(jpeg)) } == .tooLarge)
        #expect(kind { try PNGDecoder.decodeRows(.bytes(png), rows: 0..<1) } == .tooLarge)
        #expect(
            kind { try JPEGDecoder.decodeRegion(.bytes(jpeg), region: PixelRect(x: 0, y: 0, width: 8, height: 8)) }
                == .tooLarge)
        #expect(clock.now - start < .seconds(2), "refusing must not touch pixel memory")
        // The header alone still reads, with the size it claims.
        #expect(try ImageHeader.read(from: .bytes(png)).storedSize == PixelSize(width: 200_000, height: 100_000))
    }

    @Test("the limit is inclusive: exactly maxPixels decodes, one fewer is refused")
    func limitBoundary() throws {
        let source = ImageSource.file(path: TestImages.corpus("png/basn6a08.png"))  // 32 x 32
        #expect(try ImageDecoder.decode(source, options: DecodeOptions(maxPixels: 1024)).image.width == 32)
        #expect(kind { try ImageDecoder.decode(source, options: DecodeOptions(maxPixels: 1023)) } == .tooLarge)
    }

    @Test("a truncated JPEG is an error when strict and keeps its decoded rows when lenient")
    func truncatedJPEG() throws {
        let whole = try Fixtures.bytes("jpeg/gen_chelsea_420_q90.jpg")
        let cut = Array(whole.prefix(whole.count / 2))
        let strict = error { try ImageDecoder.decode(.bytes(cut)) }
        #expect(strict?.kind == .truncated)
        #expect(strict?.message.contains("Premature end of JPEG file") == true)
        let lenient = try ImageDecoder.decode(.bytes(cut), options: DecodeOptions(lenient: true))
        #expect(lenient.warnings.contains { $0.contains("Premature end of JPEG file") })
        let full = try ImageDecoder.decode(.bytes(whole)).image
        // The top rows come from the data that is there.
        let top = PixelRect(x: 0, y: 0, width: full.width, height: 64)
        #expect(lenient.image.cropped(to: top) == full.cropped(to: top))
    }

    @Test("a truncated PNG is an error when strict; lenient keeps the rows before the cut, the rest transparent")
    func truncatedPNG() throws {
        // libpng reads image data in blocks of up to 8 KB that must arrive whole, so the rows
        // of the last partial block are lost too: the image is large enough to span several.
        let image = TestImages.random(width: 200, height: 150, opaque: true, seed: 20)
        let png = try PNGEncoder.encode(image, options: PNGEncodeOptions(compression: .level(0)))
        let cut = Array(png.prefix(png.count / 2))
        #expect(kind { try ImageDecoder.decode(.bytes(cut)) } == .truncated)
        let lenient = try ImageDecoder.decode(.bytes(cut), options: DecodeOptions(lenient: true))
        #expect(lenient.warnings.count == 1 && lenient.warnings[0].hasPrefix("truncated PNG data"))
        let decodedRows = (0..<150).filter { y in lenient.image[0, y].a == 255 }.count
        #expect(decodedRows > 30 && decodedRows < 75, "\(decodedRows) rows decoded")
        let top = PixelRect(x: 0, y: 0, width: 200, height: decodedRows)
        #expect(lenient.image.cropped(to: top) == image.cropped(to: top))
        #expect((decodedRows..<150).allSatisfy { y in lenient.image[199, y] == RGBA8(r: 0, g: 0, b: 0, a: 0) })
    }

    @Test("warnings at the very end of a JPEG are seen: extraneous bytes before EOI fail a strict decode")
    func endOfStreamWarnings() throws {
        var bytes = try Fixtures.bytes("jpeg/gen_chelsea_444_q90.jpg")
        // Before the final FF D9. The Huffman decoder prefetches a few bytes into its bit
        // buffer, so only the bytes after those count as extraneous.
        bytes.insert(contentsOf: [UInt8](repeating: 0x5A, count: 12), at: bytes.count - 2)
        let strict = error { try ImageDecoder.decode(.bytes(bytes)) }
        #expect(strict?.kind == .corrupt)
        #expect(strict?.message.contains("extraneous bytes before marker 0xd9") == true)
        let lenient = try ImageDecoder.decode(.bytes(bytes), options: DecodeOptions(lenient: true))
        #expect(lenient.warnings.count == 1 && lenient.warnings[0].contains("extraneous bytes before marker 0xd9"))
        #expect(
            lenient.image
                == (try ImageDecoder.decode(.file(path: TestImages.corpus("jpeg/gen_chelsea_444_q90.jpg")))).image)
    }
}
