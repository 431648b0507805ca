import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// Random access into baseline JPEGs through the entropy index: any rect of pyramid levels 0 to 3 equals that
/// rect of the whole file's decode, and the files the index cannot reproduce are refused with a reason.
@Suite("JPEG entropy index")
struct JPEGEntropyIndexTests {
    /// Every sampling the corpus has (4:2:0, 4:2:2, 4:4:0, 4:4:4, gray, gray with 2x2 factors), restart
    /// markers, partial MCUs at the right and bottom, a 1-pixel and a 4097-pixel-wide image, EXIF orientation.
    static let files = [
        "jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_422_q90.jpg", "jpeg/gen_chelsea_440_q90.jpg",
        "jpeg/gen_chelsea_444_q90.jpg", "jpeg/gen_chelsea_gray.jpg", "jpeg/gen_chelsea_420_restart1.jpg",
        "jpeg/restarts.jpg", "jpeg/grayscale_24x16_sampling2x2.jpg", "jpeg/gen_17x9_420.jpg",
        "jpeg/gen_1x1_420.jpg", "jpeg/gen_4097x3_420.jpg", "jpeg/mozilla-jpg-size-33x33.jpg",
        "jpeg/exif_Landscape_6.jpg", "jpeg/testimgint.jpg",
    ]

    @Test("any rect of levels 0 to 3 equals that rect of the whole file decoded at the level", arguments: files)
    func rectsMatchWholeDecode(file: String) throws {
        var generator = SplitMix64(seed: UInt64(file.utf8.count) &* 0x2545_F491)
        try Self.expectRectsMatch(TestImages.corpus(file), randomRects: 16, generator: &generator) { size in
            [PixelRect(size: size)]
        }
    }

    /// Checks that the index of the file at `path` gives, at every level from 0 to 3, the rects `fixed` names and
    /// `randomRects` random ones as the whole file decoded at that level has them.
    static func expectRectsMatch(
        _ path: String, randomRects: Int, generator: inout SplitMix64, fixed: (PixelSize) -> [PixelRect],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let index = try JPEGEntropyIndex(path: path)
        let options = DecodeOptions(applyOrientation: false)
        for level in 0...JPEGEntropyIndex.deepestLevel {
            let scale = LevelScale.pyramidLevel(level, format: .jpeg)
            let whole = try LevelReader(
                .file(path: path), format: .jpeg, scale: scale,
                rect: PixelRect(size: scale.levelSize(ofStored: index.size)), options: options
            ).readAll().image
            var rects = fixed(whole.size)
            for _ in 0..<randomRects { rects.append(RegionDecodeTests.randomRect(in: whole.size, using: &generator)) }
            for rect in rects {
                let got = try index.levelRect(rect, level: level, options: options)
                let expected = whole.cropped(to: rect)
                #expect(
                    got == expected, "\(path) level \(level) \(rect): \(got.differenceSummary(from: expected))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test("damaged copies: refused by the index, or every rect equals the strict decoder's, which accepts them too")
    func damagedCopies() throws {
        try TemporaryFolder.with("entropy-index") { folder in
            let path = folder.appendingPathComponent("damaged.jpg").path
            var generator = SplitMix64(seed: 0x1DE7)
            var indexed = 0
            for file in [
                "jpeg/gen_chelsea_420_restart1.jpg", "jpeg/gen_17x9_420.jpg", "jpeg/restarts.jpg",
                "jpeg/gen_chelsea_gray.jpg", "jpeg/grayscale_24x16_sampling2x2.jpg",
            ] {
                let original = try Fixtures.bytes(file)
                for trial in 0..<80 {
                    // One to three bytes set at random, flipped by a bit, or made 0xFF (a marker's start).
                    var bytes = original
                    for _ in 0..<generator.int(1...3) {
                        let at = generator.int(below: bytes.count)
                        switch generator.int(below: 3) {
                        case 0: bytes[at] = UInt8(generator.int(below: 256))
                        case 1: bytes[at] ^= 1 << generator.int(below: 8)
                        default: bytes[at] = 0xFF
                        }
                    }
                    try Data(bytes).write(to: URL(fileURLWithPath: path))
                    guard let index = try? JPEGEntropyIndex(path: path) else { continue }
                    let level = generator.int(below: JPEGEntropyIndex.deepestLevel + 1)
                    let scale = LevelScale.pyramidLevel(level, format: .jpeg)
                    let whole = PixelRect(size: scale.levelSize(ofStored: index.size))
                    // A header the strict decoder refuses (an unknown JFIF revision, say) fails before any tile.
                    guard let reader = try? LevelReader(.file(path: path), scale: scale, rect: whole, options: .init())
                    else { continue }
                    indexed += 1
                    let expected: ImageBuffer
                    do {
                        expected = try reader.readAll().image
                    } catch {
                        Issue.record("\(file) copy \(trial): indexed, but the strict decoder refuses it: \(error)")
                        continue
                    }
                    for _ in 0..<3 {
                        let rect = RegionDecodeTests.randomRect(in: whole.size, using: &generator)
                        let got = try index.levelRect(rect, level: level, options: .init())
                        #expect(got == expected.cropped(to: rect), "\(file) copy \(trial) level \(level) \(rect)")
                    }
                }
            }
            #expect(indexed > 40, "enough damaged copies stay valid to test")
        }
    }

    @Test("the index describes the file: its size, its MCUs")
    func geometry() throws {
        let index = try JPEGEntropyIndex(path: TestImages.corpus("jpeg/gen_chelsea_422_q90.jpg"))
        #expect(index.size == PixelSize(width: 451, height: 300))
        #expect(index.mcuSize == PixelSize(width: 16, height: 8))
        #expect(index.mcuColumns == 29 && index.mcuRows == 38)
        #expect(index.bytes > 0)
        // A crop is a JPEG of the MCUs' pixels: 3 x 2 MCUs from the right edge reach the image's last column.
        let crop = try index.crop(columns: 26..<29, rows: 5..<7)
        let header = try ImageHeader.read(from: .bytes(crop))
        #expect(header.storedSize == PixelSize(width: 451 - 26 * 16, height: 16))
    }

    @Test(
        "files the index cannot reproduce are refused, with the reason",
        arguments: [
            ("jpeg/gen_chelsea_420_progressive.jpg", CodecError.Kind.unsupported, "progressive"),
            ("bad/gen_corrupt_huffman_data.jpg", .corrupt, "entropy-coded data is not clean"),
            ("bad/extraneous-data.jpg", .corrupt, "entropy-coded data is not clean"),
            ("bad/gen_bad_dht_counts.jpg", .unsupported, "Huffman table"),
            ("bad/missing-sos.jpg", .unsupported, "progressive"),
            ("bad/mozilla-jpg-size-6x6-is-png.jpg", .unsupported, "not a JPEG"),
            ("bad/zero_bytes.jpg", .unsupported, "empty"),
            ("jpeg/no-such-file.jpg", .io, "No such file"),
        ])
    func refusals(file: String, kind: CodecError.Kind, reason: String) {
        #expect {
            _ = try JPEGEntropyIndex(path: TestImages.corpus(file))
        } throws: { error in
            guard let error = error as? CodecError else { return false }
            return error.kind == kind && error.message.lowercased().contains(reason.lowercased())
        }
    }
}

extension JPEGEntropyIndexTests {
    @Test("a DC table with a symbol over 15 that the scan never uses: libjpeg refuses the file, so does the index")
    func unusedBadDCSymbol() throws {
        // Found by the fuzzer (Fuzz/reproducers): the index served tiles of a file that `tileview decode` refuses.
        let path = Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/jpeg-dc-table-symbol-over-15.jpg")
        #expect(throws: CodecError.self) { _ = try JPEGDecoder.decode(.file(path: path.path)) }
        #expect {
            _ = try JPEGEntropyIndex(path: path.path)
        } throws: { error in
            (error as? CodecError)?.message.contains("Bogus Huffman table definition") == true
        }
    }

    @Test(
        "a header libjpeg warns about (an unknown JFIF revision): a strict decode refuses the file, so does the index")
    func headerWarning() throws {
        // Found by the fuzzer: the server answered the index's full-size tiles of such a file and 422 for the rest.
        try TemporaryFolder.with("entropy-index-jfif") { folder in
            let original = try Fixtures.bytes("jpeg/gen_chelsea_420_q90.jpg")
            let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [2, 208, 0, 0, 1, 0, 1, 0, 0]
            let path = folder.appendingPathComponent("jfif-2.208.jpg").path
            try Data(original.prefix(2) + app0 + original.dropFirst(2)).write(to: URL(fileURLWithPath: path))
            #expect(throws: CodecError.self) { _ = try JPEGDecoder.decode(.file(path: path)) }
            #expect(throws: Never.self) {
                _ = try JPEGDecoder.decode(.file(path: path), options: DecodeOptions(lenient: true))
            }
            // Its header: read to describe the file, refused when read as strictly as a decode reads it.
            #expect(throws: Never.self) { _ = try ImageHeader.read(from: .file(path: path)) }
            #expect(throws: CodecError.self) { _ = try ImageHeader.read(from: .file(path: path), strict: true) }
            #expect {
                _ = try JPEGEntropyIndex(path: path)
            } throws: { error in
                guard let error = error as? CodecError else { return false }
                return error.kind == .unsupported && error.message.contains("unknown JFIF revision number 2.208")
            }
            // The same file without the warning is indexed.
            try Data(original).write(to: URL(fileURLWithPath: path))
            #expect(throws: Never.self) { _ = try JPEGEntropyIndex(path: path) }
        }
    }

    /// A JPEG of seeded noise (smooth gradients under it, so that levels differ), `width` x `height` at quality 95:
    /// several bytes a pixel, so a few megapixels make a file of megabytes.
    static func noisyJPEG(width: Int, height: Int, seed: UInt64) throws -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8((x * 255 / width + generator.int(below: 96)) % 256)
                pixels[i + 1] = UInt8((y * 255 / height + generator.int(below: 96)) % 256)
                pixels[i + 2] = UInt8(generator.int(below: 256))
            }
        }
        return try JPEGEncoder.encode(
            ImageBuffer(width: width, height: height, pixels: pixels), options: JPEGEncodeOptions(quality: 95))
    }

    @Test("files larger than the indexing pass's window, and a header longer than it, index as a file read whole does")
    func largerThanTheWindow() throws {
        try TemporaryFolder.with("entropy-index-window") { folder in
            let noisy = try Self.noisyJPEG(width: 1600, height: 1200, seed: 0x3317)
            // The same scan after 24 APP15 segments of 60,000 bytes: a header of 1.4 MB.
            var long: [UInt8] = Array(noisy[0..<2])
            for _ in 0..<24 { long += [0xFF, 0xEF, 0xEA, 0x62] + [UInt8](repeating: 0x55, count: 60_000) }
            long += noisy[2...]
            for (name, bytes) in [("noisy.jpg", noisy), ("long-header.jpg", long)] {
                #expect(
                    bytes.count > 3 << 19, "\(name): \(bytes.count) bytes, more than one and a half windows of 1 MiB")
                let path = folder.appendingPathComponent(name).path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                var generator = SplitMix64(seed: 0x3318)
                // The bottom-right corner (the end of the scan) and random rects.
                try Self.expectRectsMatch(path, randomRects: 6, generator: &generator) { size in
                    [PixelRect(x: size.width - 17, y: size.height - 9, width: 17, height: 9)]
                }
            }
        }
    }
}

extension JPEGEntropyIndexTests {
    @Test("a saved index read back gives the same rects; over another file, or damaged, it is refused or safe")
    func savedAndLoaded() throws {
        for file in ["jpeg/gen_chelsea_420_restart1.jpg", "jpeg/gen_chelsea_444_q90.jpg", "jpeg/gen_chelsea_gray.jpg"] {
            let path = TestImages.corpus(file)
            let index = try JPEGEntropyIndex(path: path)
            let saved = try index.saved()
            let descriptor = try OpenDescriptor.open(regularFile: path)
            let loaded = try JPEGEntropyIndex(loading: saved, descriptor: descriptor)
            #expect(loaded.size == index.size && loaded.mcuColumns == index.mcuColumns && loaded.bytes == index.bytes)
            let options = DecodeOptions(applyOrientation: false)
            var generator = SplitMix64(seed: 0x5A7E)
            for level in 0...JPEGEntropyIndex.deepestLevel {
                let levelSize = LevelScale.pyramidLevel(level, format: .jpeg).levelSize(ofStored: index.size)
                for _ in 0..<4 {
                    let rect = RegionDecodeTests.randomRect(in: levelSize, using: &generator)
                    #expect(
                        try loaded.levelRect(rect, level: level, options: options)
                            == index.levelRect(rect, level: level, options: options), "\(file) \(level) \(rect)")
                }
            }
            // Over another file: refused by its length or its header.
            let other = try OpenDescriptor.open(regularFile: TestImages.corpus("jpeg/gen_17x9_420.jpg"))
            #expect(throws: CodecError.self) { try JPEGEntropyIndex(loading: saved, descriptor: other) }
            // Damaged bytes: refused, or an index whose crops fail or give some image, never a crash.
            for _ in 0..<200 {
                var damaged = saved
                for _ in 0..<generator.int(1...4) {
                    damaged[generator.int(below: damaged.count)] ^= 1 << generator.int(below: 8)
                }
                if generator.int(below: 4) == 0 { damaged.removeLast(generator.int(1...min(64, damaged.count - 1))) }
                guard let index = try? JPEGEntropyIndex(loading: damaged, descriptor: descriptor) else { continue }
                _ = try? index.levelRect(PixelRect(size: index.size), level: 0, options: options)
            }
        }
    }
}

extension JPEGEntropyIndexTests {
    @Test("a header past 4 MiB, or entries past 16 MiB, are refused before the pass allocates for them")
    func limits() throws {
        try TemporaryFolder.with("entropy-index-limits") { folder in
            let gray = try Fixtures.bytes("jpeg/gen_chelsea_gray.jpg")
            // 72 APP15 segments of 60,000 bytes before the scan: a header of 4.3 MB.
            var long: [UInt8] = Array(gray[0..<2])
            for _ in 0..<72 { long += [0xFF, 0xEF, 0xEA, 0x62] + [UInt8](repeating: 0x55, count: 60_000) }
            long += gray[2...]
            // The same file's frame declaring 65,500 x 65,500 pixels: 8x8 MCUs whose entries would take 134 MB
            // (the pass would meet the end of the data long before; it must not allocate them first).
            var huge = gray
            let sof = try #require((0..<huge.count - 1).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
            huge.replaceSubrange(sof + 5..<sof + 9, with: [0xFF, 0xDC, 0xFF, 0xDC])
            for (name, bytes, reason) in [
                ("long-header.jpg", long, "a header longer than 4 MiB"), ("huge.jpg", huge, "too many MCUs"),
            ] {
                let path = folder.appendingPathComponent(name).path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                #expect {
                    _ = try JPEGEntropyIndex(path: path)
                } throws: { error in
                    guard let error = error as? CodecError else { return false }
                    return error.kind == .unsupported && error.message.contains(reason)
                }
            }
        }
    }

    @Test("passBytes holds an index and its saved bytes twice (in C and in Swift), and 1 MiB for libjpeg")
    func passBytesCoverTheIndex() throws {
        for file in Self.files {
            let path = TestImages.corpus(file)
            guard let index = try? JPEGEntropyIndex(path: path) else { continue }
            let fileBytes = try Fixtures.bytes(file).count
            let plan = JPEGEntropyIndex.passBytes(storedSize: index.size, fileBytes: fileBytes)
            let held = index.bytes + 2 * (try index.saved().count) + (1 << 20)
            #expect(held <= plan, "\(file): \(held) bytes held, \(plan) planned")
        }
        // The largest plan: a 4 MiB header and 16 MiB of entries, three times, the tables, and 1 MiB.
        let largest = JPEGEntropyIndex.passBytes(
            storedSize: PixelSize(width: 65_535, height: 65_535), fileBytes: JPEGEntropyIndex.maxFileBytes)
        #expect(largest == 3 * ((20 << 20) + 36) + (1 << 20) + JPEGEntropyIndex.fixedBytes)
    }
}
