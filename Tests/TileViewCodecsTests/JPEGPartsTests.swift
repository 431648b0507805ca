import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// A JPEG's 1/8 scale decoded in parts at once (`DecodeParts`, `tv_jpeg_parts_plan`) gives libjpeg's bytes, its
/// errors and its warnings, or leaves the file to libjpeg.
@Suite("JPEG 1/8 scale decoded in parts")
struct JPEGPartsTests {
    /// Every JPEG of the corpus, good and bad.
    static let corpusJPEGs: [String] = ["jpeg", "color", "bad"].flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: TestImages.corpus(folder))) ?? [])
            .filter { $0.hasSuffix(".jpg") }.sorted().map { "\(folder)/\($0)" }
    }

    /// The files whose layout the parts reproduce: each must be decoded in parts, not left to libjpeg.
    static let decodedInParts = [
        "jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_422_q90.jpg", "jpeg/gen_chelsea_444_q90.jpg",
        "jpeg/gen_chelsea_gray.jpg", "jpeg/gen_chelsea_420_restart1.jpg", "jpeg/restarts.jpg", "jpeg/testorig.jpg",
        "color/adobergb.jpg",
    ]

    /// What a 1/8 decode gives: the rows (or the error), whether parts made them, and the warnings.
    struct Outcome: Equatable {
        var pixels: [UInt8]?
        var error: String?
        var inParts: Bool
        var warnings: [String]
    }

    static func decodeEighth(_ source: ImageSource, lenient: Bool = false, parts: DecodeParts?) -> Outcome {
        do throws(CodecError) {
            let reader = try JPEGScanlineReader(source, options: DecodeOptions(lenient: lenient))
            let window = try reader.start(scaleNumerator: 1, parts: parts)
            let raw = UnsafeMutableRawBufferPointer.allocate(
                byteCount: max(1, window.outputSize.pixelCount * 4), alignment: 16)
            defer { raw.deallocate() }
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            var failure: String? = nil
            do throws(CodecError) {
                _ = try reader.readRows(window.outputSize.height, into: raw, rowBytes: window.rowBytes)
                try reader.finish()
            } catch {
                failure = "\(error.kind): \(error.message)"
            }
            let pixels = [UInt8](raw.prefix(window.outputSize.pixelCount * 4))
            return Outcome(
                pixels: pixels, error: failure, inParts: reader.decodedByParts, warnings: reader.warnings)
        } catch {
            return Outcome(pixels: nil, error: "\(error.kind): \(error.message)", inParts: false, warnings: [])
        }
    }

    @Test("every corpus JPEG: in 2, 3, 7 and 64 parts the same rows, errors and warnings as libjpeg's decode")
    func corpus() throws {
        #expect(Self.corpusJPEGs.count > 50)
        var inParts: Set<String> = []
        for file in Self.corpusJPEGs {
            // From memory the parts run to the ends of their shares; from the file each reads its own share and
            // stops short of the next (the parts of these small files then leave most of it to the first).
            let memory = ImageSource.bytes(try Fixtures.bytes(Fixtures.corpusRoot.appendingPathComponent(file)))
            for source in [memory, .file(path: TestImages.corpus(file))] {
                for lenient in [false, true] {
                    let whole = Self.decodeEighth(source, lenient: lenient, parts: nil)
                    #expect(!whole.inParts)
                    for count in [2, 3, 7, 64] {
                        var parted = Self.decodeEighth(source, lenient: lenient, parts: .serial(count: count))
                        if parted.inParts { inParts.insert(file) }
                        parted.inParts = false
                        #expect(parted == whole, "\(file) in \(count) parts, lenient \(lenient)")
                    }
                }
            }
        }
        for file in Self.decodedInParts { #expect(inParts.contains(file), "\(file) was left to libjpeg") }
        // Nor a progressive file, 4:4:0 chroma, or a scan libjpeg warns about.
        for file in [
            "jpeg/gen_chelsea_420_progressive.jpg", "jpeg/gen_chelsea_440_q90.jpg", "bad/gen_corrupt_huffman_data.jpg",
            "bad/extraneous-data.jpg",
        ] {
            #expect(!inParts.contains(file), "\(file)")
        }
    }

    @Test("a DC table with a symbol over 15 that the scan never uses: libjpeg's start refuses it, so do the parts")
    func unusedBadDCSymbol() throws {
        // Found by the fuzzer (Fuzz/reproducers): the parts decoded it, libjpeg stops at its start.
        let bytes = try Fixtures.bytes(
            Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/jpeg-dc-table-symbol-over-15.jpg"))
        for count in [2, 3] {
            let whole = Self.decodeEighth(.bytes(bytes), parts: nil)
            let parted = Self.decodeEighth(.bytes(bytes), parts: .serial(count: count))
            #expect(whole.error?.contains("Bogus Huffman table") == true, "\(whole.error ?? "no error")")
            #expect(parted.error == whole.error && parted.pixels == whole.pixels)
        }
    }

    @Test("a 4:2:0 chroma block libjpeg-turbo's SIMD and C 2x2 transforms disagree on is left to libjpeg")
    func chromaBeyondSIMDRange() throws {
        // Found by the fuzzer (Fuzz/reproducers): a quantiser of 58 on a large coefficient. The SIMD transform keeps
        // products to 16 bits and saturates; the C one (which the parts follow) wraps through its range limit.
        let bytes = try Fixtures.bytes(
            Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/jpeg-2x2-chroma-beyond-simd-range.jpg"))
        let whole = Self.decodeEighth(.bytes(bytes), parts: nil)
        var parted = Self.decodeEighth(.bytes(bytes), parts: .serial(count: 2))
        #expect(whole.error == nil && !parted.inParts)
        parted.inParts = false
        #expect(parted == whole)
    }

    /// A seeded image: smooth colour ramps and noise, so blocks have AC terms of every size.
    static func pattern(_ size: PixelSize, using generator: inout SplitMix64) -> ImageBuffer {
        var pixels = [UInt8](repeating: 255, count: size.pixelCount * 4)
        let noise = Int.random(in: 0...120, using: &generator)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                pixels[i] = UInt8((x * 255) / max(1, size.width - 1))
                pixels[i + 1] = UInt8(truncatingIfNeeded: (x ^ y) &* 3)
                pixels[i + 2] = UInt8(
                    clamping: (y * 255) / max(1, size.height - 1) + Int.random(in: 0...noise, using: &generator) - noise
                        / 2)
            }
        }
        return ImageBuffer(width: size.width, height: size.height, pixels: pixels)
    }

    /// A seeded JPEG of the sweeps: a `pattern` of a random size up to `largest`, 4:2:0 or gray, at a random quality.
    static func sweepJPEG(largest: PixelSize, smallest: Int = 1, using generator: inout SplitMix64) throws -> (
        jpeg: [UInt8], size: PixelSize, options: JPEGEncodeOptions
    ) {
        let size = PixelSize(
            width: Int.random(in: smallest...largest.width, using: &generator),
            height: Int.random(in: smallest...largest.height, using: &generator))
        let options = JPEGEncodeOptions(
            quality: Int.random(in: 5...100, using: &generator), grayscale: Bool.random(using: &generator))
        return (try JPEGEncoder.encode(Self.pattern(size, using: &generator), options: options), size, options)
    }

    @Test("a seeded sweep of encoded images (4:2:0 and gray, sizes, qualities): parts give libjpeg's bytes")
    func seededSweep() throws {
        var generator = SplitMix64(seed: 0x5EED_1B8)
        for round in 0..<24 {
            let (jpeg, size, options) = try Self.sweepJPEG(
                largest: PixelSize(width: 700, height: 500), using: &generator)
            let whole = Self.decodeEighth(.bytes(jpeg), parts: nil)
            let count = Int.random(in: 2...16, using: &generator)
            var parted = Self.decodeEighth(.bytes(jpeg), parts: .serial(count: count))
            #expect(parted.inParts || jpeg.count < 2 * count, "round \(round): \(size) left to libjpeg")
            parted.inParts = false
            #expect(parted == whole, "round \(round): \(size), quality \(options.quality), \(count) parts")
        }
    }

    @Test("damaged entropy-coded data: parts give up and libjpeg's error or warnings stand, strict and lenient")
    func damagedData() throws {
        let clean = try Fixtures.bytes(Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_chelsea_420_q90.jpg"))
        var generator = SplitMix64(seed: 0xDA4A6E)
        var changed = 0
        for round in 0..<40 {
            var bytes = clean
            // Bytes well inside the scan (past the header's 1 KiB), changed at random.
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 1024..<(bytes.count - 2), using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            for lenient in [false, true] {
                let whole = Self.decodeEighth(.bytes(bytes), lenient: lenient, parts: nil)
                var parted = Self.decodeEighth(.bytes(bytes), lenient: lenient, parts: .serial(count: 5))
                if whole.error != nil || !whole.warnings.isEmpty { changed += 1 }
                if !whole.warnings.isEmpty || whole.error != nil { #expect(!parted.inParts, "round \(round)") }
                parted.inParts = false
                #expect(parted == whole, "round \(round), lenient \(lenient)")
            }
        }
        // The sweep reached damage libjpeg reports, not only changes it decodes without a word.
        #expect(changed > 10)
    }

    /// The entropy index a 1/8 decode in `count` parts keeps (nil when it kept none), with whether parts made the
    /// rows and the rows themselves.
    static func keptIndex(_ source: ImageSource, parts: DecodeParts) -> (index: [UInt8]?, inParts: Bool, rows: Outcome)
    {
        var parts = parts
        parts.keepsEntropyIndex = true
        let rows = decodeEighth(source, parts: parts)
        guard let reader = try? JPEGScanlineReader(source), (try? reader.start(scaleNumerator: 1, parts: parts)) != nil
        else { return (nil, false, rows) }
        return (reader.entropyIndex, reader.decodedByParts, rows)
    }

    @Test("the entropy index the parts keep is byte for byte the index's own pass, for every corpus JPEG")
    func keptEntropyIndex() throws {
        var kept: Set<String> = []
        for file in Self.corpusJPEGs {
            let path = TestImages.corpus(file)
            let own = try? JPEGEntropyIndex(.file(path: path)).saved()
            let memory = ImageSource.bytes(try Fixtures.bytes(Fixtures.corpusRoot.appendingPathComponent(file)))
            for source in [memory, .file(path: path)] {
                let whole = Self.decodeEighth(source, parts: nil)
                for count in [2, 3, 7, 64] {
                    let (index, inParts, rows) = Self.keptIndex(source, parts: .serial(count: count))
                    var parted = rows
                    parted.inParts = false
                    let unchanged = parted == whole
                    #expect(unchanged, "\(file) in \(count) parts: keeping the index changed the rows")
                    guard inParts else {
                        #expect(index == nil, "\(file): an index without parts")
                        continue
                    }
                    // Where the pass refuses the data (a DC beyond 8-bit samples' range), the parts keep none.
                    let same = index == own
                    #expect(same, "\(file) in \(count) parts: \(index?.count ?? 0) bytes, the pass \(own?.count ?? 0)")
                    if index != nil { kept.insert(file) }
                }
            }
        }
        // Restart markers, 4:2:0, 4:2:2, 4:4:4 and gray among them.
        for file in Self.decodedInParts { #expect(kept.contains(file), "\(file) kept no index") }
    }

    @Test("a clean join whose rows are left to libjpeg (a chroma block past the SIMD range) keeps no index")
    func indexOnlyFromParts() throws {
        // Found by the fuzzer (Fuzz/reproducers): the parts joined, then a 4:2:0 chroma block its 2x2 transforms might
        // not agree on sent the rows to libjpeg; an index kept then would say the parts made what libjpeg made.
        let path = Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/jpeg-index-rows-left-to-libjpeg.jpg")
        let bytes = try Fixtures.bytes(path)
        for count in [2, 3] {
            let kept = Self.keptIndex(.bytes(bytes), parts: .serial(count: count))
            #expect(!kept.inParts && kept.index == nil, "\(count) parts")
            let whole = Self.decodeEighth(.bytes(bytes), parts: nil)
            var rows = kept.rows
            rows.inParts = false
            let same = rows == whole
            #expect(same, "\(count) parts: not libjpeg's rows")
        }
    }

    @Test("a seeded sweep of encoded images: the index the parts keep is the pass's")
    func keptEntropyIndexSweep() throws {
        var generator = SplitMix64(seed: 0x1DE_C5)
        for round in 0..<16 {
            let (jpeg, size, _) = try Self.sweepJPEG(
                largest: PixelSize(width: 900, height: 600), smallest: 8, using: &generator)
            try TemporaryFolder.with("kept-index") { folder in
                let path = folder.appendingPathComponent("sweep.jpg").path
                try Data(jpeg).write(to: URL(fileURLWithPath: path))
                let own = try JPEGEntropyIndex(.file(path: path)).saved()
                let count = Int.random(in: 2...12, using: &generator)
                let (index, inParts, _) = Self.keptIndex(.file(path: path), parts: .serial(count: count))
                #expect(!inParts || index == own, "round \(round): \(size), \(count) parts")
                #expect(inParts || jpeg.count < 2 * count, "round \(round): \(size) left to libjpeg")
            }
        }
    }

    @Test("parts run on threads of their own give the same bytes, and the same entropy index")
    func threads() throws {
        let source = ImageSource.file(path: TestImages.corpus("jpeg/testorig.jpg"))
        // One thread per part, each joined through a semaphore.
        let onThreads = DecodeParts(count: 4, minimumBytes: 1) { count, body in
            let semaphores = (0..<count).map { _ in DispatchSemaphore(value: 0) }
            for part in 0..<count {
                Thread.detachNewThread {
                    body(part)
                    semaphores[part].signal()
                }
            }
            for semaphore in semaphores { semaphore.wait() }
        }
        let whole = Self.decodeEighth(source, parts: nil)
        var parted = Self.decodeEighth(source, parts: onThreads)
        #expect(parted.inParts)
        parted.inParts = false
        #expect(parted == whole)
        // The entropy index kept on the way, each part's positions written by its own thread.
        let kept = Self.keptIndex(source, parts: onThreads)
        let own = try JPEGEntropyIndex(source).saved()
        #expect(kept.inParts && kept.index == own)
    }
}
