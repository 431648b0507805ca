import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("PNG encoder")
struct PNGEncoderTests {
    static let colorTypes: [PNGEncodeOptions.ColorType] = [.gray, .rgb, .rgba]

    @Test(
        "every colour type, filter and compression decodes back to the same pixels",
        arguments: colorTypes, PNGFilter.allCases)
    func roundTrip(colorType: PNGEncodeOptions.ColorType, filter: PNGFilter) throws {
        let image = TestImages.random(
            width: 37, height: 23, gray: colorType == .gray, opaque: colorType != .rgba, seed: 0xE9C0_DE00)
        for compression in [PNGCompression.runs, .level(0), .level(1), .level(6), .level(9)] {
            let options = PNGEncodeOptions(colorType: colorType, compression: compression, filter: filter)
            let png = try PNGEncoder.encode(image, options: options)
            let decoded = try PNGDecoder.decode(.bytes(png))
            #expect(decoded.image == image, "\(colorType) \(filter) \(compression)")
            #expect(decoded.header.colorType == colorType.rawValue, "\(colorType) \(filter) \(compression)")
            #expect(decoded.header.bitDepth == 8)
        }
    }

    @Test("auto writes RGB when every alpha is 255 and RGBA otherwise")
    func autoColorType() throws {
        let opaque = TestImages.random(width: 16, height: 9, opaque: true, seed: 1)
        var translucent = opaque
        translucent[15, 8] = RGBA8(r: 1, g: 2, b: 3, a: 254)
        // IHDR's colour type is byte 25 of the file: 2 = RGB, 6 = RGBA.
        #expect(try PNGEncoder.encode(opaque)[25] == 2)
        #expect(try PNGEncoder.encode(translucent)[25] == 6)
        #expect(try PNGDecoder.decode(.bytes(PNGEncoder.encode(translucent))).image == translucent)
    }

    @Test("RGB drops alpha without compositing; gray is rounded Rec. 601 luma")
    func droppedChannels() throws {
        let image = TestImages.random(width: 20, height: 5, seed: 2)
        let rgb = try PNGDecoder.decode(.bytes(PNGEncoder.encode(image, options: PNGEncodeOptions(colorType: .rgb))))
        let gray = try PNGDecoder.decode(.bytes(PNGEncoder.encode(image, options: PNGEncodeOptions(colorType: .gray))))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                #expect(rgb.image[x, y] == RGBA8(r: p.r, g: p.g, b: p.b, a: 255), "(\(x), \(y))")
                let weighted: Int = 77 * Int(p.r) + 150 * Int(p.g) + 29 * Int(p.b)
                let luma = UInt8((weighted + 128) >> 8)
                #expect(gray.image[x, y] == RGBA8(r: luma, g: luma, b: luma, a: 255), "(\(x), \(y))")
            }
        }
    }

    @Test("interlaced output decodes back, whole and streamed")
    func interlacedRoundTrip() throws {
        let image = TestImages.random(width: 29, height: 17, seed: 3)
        let png = try PNGEncoder.encode(image, options: PNGEncodeOptions(interlaced: true))
        let decoded = try PNGDecoder.decode(.bytes(png))
        #expect(decoded.header.isInterlaced)
        #expect(decoded.image == image)
        let rows = try PNGDecoder.decodeRows(.bytes(png), rows: 5..<12)
        #expect(rows.image == image.cropped(to: PixelRect(x: 0, y: 5, width: 29, height: 7)))
    }

    @Test("higher levels are not larger than storing, and every level is a valid stream")
    func levelsCompress() throws {
        let image = TestImages.random(width: 64, height: 64, opaque: true, seed: 4)
        let stored = try PNGEncoder.encode(image, options: PNGEncodeOptions(compression: .level(0)))
        let best = try PNGEncoder.encode(image, options: PNGEncodeOptions(compression: .level(9)))
        #expect(best.count < stored.count)
        #expect(try PNGDecoder.decode(.bytes(best)).image == image)
    }

    @Test("runs codes only repeats of the byte before; a level finds strings further back")
    func runsFindOnlyRuns() throws {
        // Every row repeats a 7-pixel pattern of random colours and a run-length coder finds no runs in it
        // under no filter, while zlib's matcher replaces all but the first pattern of a row with copies.
        var image = ImageBuffer(width: 700, height: 40)
        var rng = SplitMix64(seed: 0x0052_4C45)
        let pattern = (0..<7).map { _ in
            RGBA8(r: UInt8(rng.int(below: 256)), g: UInt8(rng.int(below: 256)), b: UInt8(rng.int(below: 256)), a: 255)
        }
        for y in 0..<image.height {
            for x in 0..<image.width { image[x, y] = pattern[(x + y) % 7] }
        }
        let runs = try PNGEncoder.encode(image, options: PNGEncodeOptions(filter: .none))
        let level = try PNGEncoder.encode(image, options: PNGEncodeOptions(compression: .level(1), filter: .none))
        let stored = try PNGEncoder.encode(image, options: PNGEncodeOptions(compression: .level(0), filter: .none))
        #expect(PNGEncodeOptions().compression == .runs)
        #expect(level.count * 20 < runs.count, "level 1: \(level.count) bytes, runs: \(runs.count)")
        #expect(runs.count < stored.count)
        #expect(try PNGDecoder.decode(.bytes(runs)).image == image)
    }

    @Test(
        "runs: images of one and many blocks, runs longer than a match and across blocks decode back",
        arguments: [PNGEncodeOptions.ColorType.gray, .rgb, .rgba], [PNGFilter.none, .sub, .up, .average, .paeth])
    func runsRoundTrip(colorType: PNGEncodeOptions.ColorType, filter: PNGFilter) throws {
        var rng = SplitMix64(seed: 0x5255_4E53 &+ UInt64(colorType.rawValue.utf8.count) &* 31)
        let gray = colorType == .gray
        let opaque = colorType != .rgba
        var images = [
            TestImages.random(width: 1, height: 1, gray: gray, opaque: opaque, seed: rng.next()),
            TestImages.random(width: 1, height: 300, gray: gray, opaque: opaque, seed: rng.next()),
            // Noise over several 64 KiB blocks: little to code as runs.
            TestImages.random(width: 257, height: 131, gray: gray, opaque: opaque, seed: rng.next()),
        ]
        // Flat rows of one colour each, 5,000 pixels wide: runs far longer than 258 bytes, across blocks.
        var flat = ImageBuffer(width: 5000, height: 24)
        for y in 0..<flat.height {
            let v = UInt8(rng.int(below: 256))
            let colour = gray ? RGBA8(r: v, g: v, b: v, a: 255) : RGBA8(r: v, g: 255 - v, b: v / 2, a: opaque ? 255 : v)
            for x in 0..<flat.width { flat[x, y] = colour }
        }
        images.append(flat)
        for image in images {
            let options = PNGEncodeOptions(colorType: colorType, compression: .runs, filter: filter)
            let png = try PNGEncoder.encode(image, options: options)
            let decoded = try PNGDecoder.decode(.bytes(png))
            #expect(decoded.image == image, "\(image.width)x\(image.height) \(colorType) \(filter)")
            #expect(decoded.header.colorType == colorType.rawValue)
        }
        if filter == .sub {  // a flat row filters to zeros: a few runs of 258 bytes
            let flatPNG = try PNGEncoder.encode(flat, options: PNGEncodeOptions(colorType: colorType, filter: filter))
            #expect(flatPNG.count < flat.width * flat.height / 20, "flat rows: \(flatPNG.count) bytes")
        }
    }

    @Test("the chosen filter is the one written on every row", arguments: PNGFilter.allCases)
    func filterIsApplied(filter: PNGFilter) throws {
        let image = TestImages.random(width: 31, height: 12, seed: 5)
        let png = try PNGEncoder.encode(image, options: PNGEncodeOptions(compression: .level(0), filter: filter))
        // Level 0 stores the filtered rows: zlib header, then stored blocks (1-byte header, LEN, NLEN, data).
        let zlib = PNGChunks.split(png).filter { $0.type == "IDAT" }.flatMap(\.data)
        var raw: [UInt8] = []
        var i = 2
        while i + 5 <= zlib.count {
            let length = Int(zlib[i + 1]) | Int(zlib[i + 2]) << 8
            raw += zlib[(i + 5)..<(i + 5 + length)]
            if zlib[i] & 1 == 1 { break }
            i += 5 + length
        }
        let rowLength = 1 + image.width * 4
        #expect(raw.count == rowLength * image.height)
        let rowFilters = stride(from: 0, to: raw.count, by: rowLength).map { raw[$0] }
        let expected: [PNGFilter: UInt8] = [.none: 0, .sub: 1, .up: 2, .average: 3, .paeth: 4]
        if let type = expected[filter] {
            #expect(rowFilters.allSatisfy { $0 == type }, "\(filter): \(rowFilters)")
        } else {
            #expect(rowFilters.allSatisfy { $0 <= 4 } && Set(rowFilters).count > 1, "adaptive: \(rowFilters)")
        }
    }

    @Test(
        "both writers stop at libpng's limit of 1,000,000 pixels a side, which the decoder has too",
        arguments: [PNGCompression.runs, .level(2)])
    func sideLimit(compression: PNGCompression) throws {
        let options = PNGEncodeOptions(compression: compression)
        let widest = try PNGEncoder.encode(ImageBuffer(width: 1_000_000, height: 1), options: options)
        #expect(try PNGDecoder.decode(.bytes(widest)).image.width == 1_000_000)
        #expect(throws: CodecError.self) {
            try PNGEncoder.encode(ImageBuffer(width: 1_000_001, height: 1), options: options)
        }
        #expect(throws: CodecError.self) {
            try PNGEncoder.encode(ImageBuffer(width: 1, height: 1_000_001), options: options)
        }
    }

    @Test("an empty image is refused")
    func emptyImage() {
        #expect(throws: CodecError.self) { try PNGEncoder.encode(ImageBuffer(width: 0, height: 4)) }
    }

    @Test(
        "rows encoded a band at a time give the bytes of the whole-image encoder",
        arguments: [PNGEncodeOptions.ColorType.gray, .rgb, .rgba, .auto], [false, true])
    func rowEncoder(colorType: PNGEncodeOptions.ColorType, interlaced: Bool) throws {
        var rng = SplitMix64(seed: 0x5EED_0000 + UInt64(colorType.rawValue.utf8.count) + (interlaced ? 100 : 0))
        for trial in 0..<6 {
            let width = 1 + rng.int(below: 70)
            let height = 1 + rng.int(below: 60)
            let opaque = colorType != .rgba && trial % 2 == 0
            let image = TestImages.random(
                width: width, height: height, gray: colorType == .gray, opaque: opaque, seed: rng.next())
            let options = PNGEncodeOptions(
                colorType: colorType, compression: [PNGCompression.runs, .level(0), .level(2), .level(9)][trial % 4],
                filter: PNGFilter.allCases[trial % PNGFilter.allCases.count], interlaced: interlaced)
            let encoder = try PNGRowEncoder(width: width, height: height, opaque: image.isOpaque, options: options)
            #expect(encoder.passes == (interlaced ? 7 : 1))
            try image.pixels.withUnsafeBufferPointer { pixels in
                for _ in 0..<encoder.passes {
                    var row = 0
                    while row < height {
                        let band = min(height - row, rng.int(below: 9))  // bands of 0 rows too
                        try encoder.write(
                            pixels.baseAddress! + row * image.rowBytes, rowBytes: image.rowBytes, count: band)
                        row += band
                    }
                }
            }
            let whole = try PNGEncoder.encode(image, options: options)
            #expect(try encoder.finish() == whole, "\(colorType) \(width)x\(height) trial \(trial)")
        }
    }

    @Test("the row encoder refuses rows past the last one and an end before it, and says why")
    func rowEncoderMisuse() throws {
        let image = TestImages.random(width: 8, height: 4, opaque: true, seed: 3)
        try image.pixels.withUnsafeBufferPointer { pixels in
            let early = try PNGRowEncoder(width: 8, height: 4, opaque: true)
            try early.write(pixels.baseAddress!, rowBytes: image.rowBytes, count: 3)
            #expect(throws: CodecError.self) { _ = try early.finish() }

            let over = try PNGRowEncoder(width: 8, height: 4, opaque: true)
            let error = #expect(throws: CodecError.self) {
                try over.write(pixels.baseAddress!, rowBytes: image.rowBytes, count: 5)
            }
            #expect(error?.message.contains("more rows than the PNG holds") == true)
            // After a failure nothing more is written.
            #expect(throws: CodecError.self) { try over.write(pixels.baseAddress!, rowBytes: image.rowBytes, count: 1) }
        }
        #expect(throws: CodecError.self) { _ = try PNGRowEncoder(width: 0, height: 4, opaque: true) }
    }
}
