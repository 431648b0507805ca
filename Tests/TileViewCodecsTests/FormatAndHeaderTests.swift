import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("Formats and headers")
struct FormatAndHeaderTests {
    @Test("the format comes from the magic bytes alone")
    func sniffing() throws {
        #expect(ImageFormat.sniff(PNGChunks.signature) == .png)
        #expect(ImageFormat.sniff(Array(PNGChunks.signature.prefix(7))) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("GIF87a".utf8)) == .gif)
        #expect(ImageFormat.sniff(Array("GIF8".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(ImageFormat.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]) == .tiff)
        #expect(ImageFormat.sniff([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]) == .tiff)
        #expect(ImageFormat.sniff([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0]) == .tiff)  // BigTIFF
        func isoMedia(_ brands: [String], size: UInt8 = 24) -> [UInt8] {
            [0, 0, 0, size] + Array("ftyp".utf8) + Array(brands[0].utf8) + [0, 0, 0, 0]
                + brands.dropFirst().flatMap { Array($0.utf8) }
        }
        #expect(ImageFormat.sniff(isoMedia(["heic", "mif1", "heic"])) == .heif)
        #expect(ImageFormat.sniff(isoMedia(["avif", "mif1", "avif"])) == .avif)
        // A major brand of mif1 with AVIF among the compatible ones is AVIF; a video file is neither.
        #expect(ImageFormat.sniff(isoMedia(["mif1", "mif1", "avif", "miaf"], size: 28)) == .avif)
        #expect(ImageFormat.sniff(isoMedia(["mp42", "isom", "mp42"])) == nil)
        // A PNG stored under a .jpg name decodes as a PNG.
        let misnamed = try ImageDecoder.decode(.file(path: TestImages.corpus("bad/mozilla-jpg-size-6x6-is-png.jpg")))
        #expect(misnamed.header.format == .png)
    }

    @Test("empty, unknown and unreadable inputs fail with their own kinds")
    func inputFailures() {
        #expect(kind { try ImageDecoder.decode(.bytes([])) } == .empty)
        #expect(kind { try ImageDecoder.decode(.bytes(Array("BM\u{0}\u{0}....".utf8))) } == .unknownFormat)
        let bmp = message { try ImageDecoder.decode(.bytes(Array("BM\u{0}\u{0}....".utf8))) }
        #expect(bmp.contains("BMP") && bmp.contains("WebP, HEIF, AVIF, TIFF and GIF are supported"), "\(bmp)")
        #expect(kind { try ImageHeader.read(from: .file(path: "/nonexistent/photo.jpg")) } == .io)
        // A GIF cut off inside its screen descriptor: an error naming GIF.
        let gif = message { try ImageDecoder.decode(.bytes(Array("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8))) }
        #expect(gif.contains("GIF"), "\(gif)")
    }

    @Test("headers describe the stored sample layout")
    func headerFields() throws {
        func header(_ file: String) throws -> ImageHeader {
            try ImageHeader.read(from: .file(path: TestImages.corpus(file)))
        }
        let progressive = try header("jpeg/gen_chelsea_420_progressive.jpg")
        #expect(
            progressive.isProgressive && progressive.chromaSubsampling == "4:2:0" && progressive.colorType == "ycbcr")
        #expect(try header("jpeg/gen_chelsea_422_q90.jpg").chromaSubsampling == "4:2:2")
        #expect(try header("jpeg/gen_chelsea_440_q90.jpg").chromaSubsampling == "4:4:0")
        #expect(try header("jpeg/gen_chelsea_444_q90.jpg").chromaSubsampling == "4:4:4")
        let gray = try header("jpeg/gen_chelsea_gray.jpg")
        #expect(gray.colorType == "gray" && gray.components == 1 && gray.chromaSubsampling == nil)
        let rotated = try header("jpeg/exif_Landscape_6.jpg")
        #expect(rotated.orientation == .right && rotated.orientedSize == PixelSize(width: 1800, height: 1200))
        let interlaced = try header("png/basi3p04.png")
        #expect(interlaced.isInterlaced && interlaced.colorType == "palette" && interlaced.bitDepth == 4)
        let sixteen = try header("png/gen_rgba16_64x48.png")
        #expect(sixteen.bitDepth == 16 && sixteen.colorType == "rgba" && sixteen.components == 4)
        #expect(try header("png/gen_graya8_45x30.png").colorType == "gray+alpha")
    }

    @Test("CMYK and YCCK JPEGs decode to djpeg's pixels: R = round(C * K / 255) on the stored values")
    func cmykAndYCCK() throws {
        let cmyk = try ImageDecoder.decode(.bytes(ColorSpaceFixtures.adobeCMYK))
        #expect(cmyk.header.colorType == "cmyk" && cmyk.header.components == 4)
        #expect(cmyk.image.size == PixelSize(width: 11, height: 7))
        #expect(SHA256.hex(cmyk.image.pixels) == ColorSpaceFixtures.adobeCMYKReference)
        let ycck = try ImageDecoder.decode(.bytes(ColorSpaceFixtures.adobeYCCK))
        #expect(ycck.header.colorType == "ycck" && ycck.header.components == 4)
        #expect(SHA256.hex(ycck.image.pixels) == ColorSpaceFixtures.adobeYCCKReference)
        // Scaled and region decodes of CMYK go through the same conversion.
        let region = try JPEGDecoder.decodeRegion(
            .bytes(ColorSpaceFixtures.adobeYCCK), region: PixelRect(x: 3, y: 2, width: 8, height: 5))
        #expect(region.image == ycck.image.cropped(to: PixelRect(x: 3, y: 2, width: 8, height: 5)))
    }

    @Test("12-bit and lossless JPEGs are refused as unsupported, saying so")
    func unsupportedJPEGs() throws {
        let baseline = try Fixtures.bytes("jpeg/mozilla-jpg-size-8x8.jpg")
        guard let sof = (0..<(baseline.count - 4)).first(where: { baseline[$0] == 0xFF && baseline[$0 + 1] == 0xC0 })
        else {
            Issue.record("no SOF0 marker")
            return
        }
        var twelveBit = baseline
        twelveBit[sof + 4] = 12  // the precision byte after the segment length
        let twelve = error { try ImageDecoder.decode(.bytes(twelveBit)) }
        #expect(twelve?.kind == .unsupported)
        #expect(twelve?.message == "12-bit JPEG is not supported (only 8-bit samples are)")
        var lossless = baseline
        lossless[sof + 1] = 0xC3
        let sof3 = error { try ImageDecoder.decode(.bytes(lossless)) }
        #expect(sof3?.kind == .unsupported)
        #expect(sof3?.message == "lossless JPEG (SOF3) is not supported")
    }

    @Test("an APNG decodes to its default image; the animation chunks are passed over")
    func apngDefaultImage() throws {
        let first = TestImages.random(width: 12, height: 10, seed: 10)
        let second = TestImages.random(width: 12, height: 10, seed: 11)
        let chunks = PNGChunks.split(try PNGEncoder.encode(first))
        let secondData = PNGChunks.split(try PNGEncoder.encode(second)).filter { $0.type == "IDAT" }.flatMap(\.data)
        func fcTL(_ sequence: UInt32) -> PNGChunks.Chunk {
            // sequence, width, height, x, y, delay 1/10 s, dispose none, blend source
            let data =
                PNGChunks.bytes32(sequence) + PNGChunks.bytes32(12) + PNGChunks.bytes32(10)
                + PNGChunks.bytes32(0) + PNGChunks.bytes32(0) + PNGChunks.bytes16(1) + PNGChunks.bytes16(10) + [0, 0]
            return PNGChunks.Chunk(type: "fcTL", data: data)
        }
        var apng = [
            chunks[0], PNGChunks.Chunk(type: "acTL", data: PNGChunks.bytes32(2) + PNGChunks.bytes32(0)), fcTL(0),
        ]
        apng += chunks.filter { $0.type == "IDAT" }
        apng += [fcTL(1), PNGChunks.Chunk(type: "fdAT", data: PNGChunks.bytes32(2) + secondData)]
        apng += [PNGChunks.Chunk(type: "IEND", data: [])]
        let decoded = try ImageDecoder.decode(.bytes(PNGChunks.join(apng)))
        #expect(decoded.image == first)
    }

    @Test("a PNG eXIf chunk orients the image like JPEG EXIF does")
    func pngExif() throws {
        let stored = TestImages.random(width: 9, height: 5, seed: 12)
        var chunks = PNGChunks.split(try PNGEncoder.encode(stored))
        for littleEndian in [true, false] {
            let tiff = TIFFBuilder(littleEndian: littleEndian).orientationTIFF(6)
            chunks.insert(PNGChunks.Chunk(type: "eXIf", data: tiff), at: 1)
            let png = PNGChunks.join(chunks)
            chunks.remove(at: 1)
            let header = try ImageHeader.read(from: .bytes(png))
            #expect(header.orientation == .right && header.orientedSize == PixelSize(width: 5, height: 9))
            #expect(try ImageDecoder.decode(.bytes(png)).image == stored.applying(.right))
            #expect(
                try ImageDecoder.decode(.bytes(png), options: DecodeOptions(applyOrientation: false)).image == stored)
        }
    }

    @Test("scaled JPEG decodes keep the orientation: a rotated photo is upright at every scale")
    func scaledOrientation() throws {
        let source = ImageSource.file(path: TestImages.corpus("jpeg/gen_orient6_45x30.jpg"))
        for scale in [1, 2, 4] {
            let stored = try JPEGDecoder.decode(
                source, scaleNumerator: scale, options: DecodeOptions(applyOrientation: false))
            let upright = try JPEGDecoder.decode(source, scaleNumerator: scale)
            #expect(upright.image == stored.image.applying(.right), "scale \(scale)/8")
        }
    }
}

/// The kind of the `CodecError` a call throws, or nil.
func kind<R>(_ body: () throws -> R) -> CodecError.Kind? { error(body)?.kind }

/// The message of the `CodecError` a call throws, or "".
func message<R>(_ body: () throws -> R) -> String { error(body)?.message ?? "" }

/// The `CodecError` a call throws, or nil (also when it throws something else).
func error<R>(_ body: () throws -> R) -> CodecError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? CodecError
    }
}
