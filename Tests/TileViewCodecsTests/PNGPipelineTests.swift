import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// A PNG's rows inflated ahead on another thread (`PNGRowReader.startPipeline`) against libpng's own rows: the same
/// pixels, the same error after the same rows, the same warnings and the same verdict on what follows the rows.
@Suite("PNG rows inflated ahead")
struct PNGPipelineTests {
    /// What reading a PNG's rows top to bottom gave.
    struct Outcome: Equatable, CustomStringConvertible {
        var pixels: [UInt8] = []
        var rows = 0
        var error: String?
        var finishError: String?
        var warnings: [String] = []

        var description: String {
            "\(rows) rows, error \(error ?? "none"), finish \(finishError ?? "ok"), warnings \(warnings)"
        }
    }

    /// The background runs on a thread of its own, as the server's does.
    static let threaded = DecodeParts(
        count: 2, run: { count, body in for part in 0..<count { body(part) } },
        background: { body in
            let done = DispatchSemaphore(value: 0)
            Thread {
                body()
                done.signal()
            }.start()
            return { done.wait() }
        })

    /// Reads every row, `step` at a time; `pipeline` nil: libpng alone. `ahead`: whether the pipeline was taken and
    /// gave every row and the end (libpng never took over).
    static func read(_ source: ImageSource, pipeline: DecodeParts?, step: Int = 7) -> (Outcome, ahead: Bool) {
        var outcome = Outcome()
        let reader: PNGRowReader
        do {
            reader = try PNGRowReader(source, options: DecodeOptions(color: .keep))
        } catch {
            outcome.error = "open: \(error.kind) \(error.message)"
            return (outcome, false)
        }
        let ahead = pipeline.map { reader.startPipeline($0) } ?? false
        let height = reader.header.storedSize.height
        guard reader.rowBytes * height <= 64 << 20 else { return (outcome, ahead) }
        let rowBytes = reader.rowBytes
        let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, rowBytes * height), alignment: 16)
        pixels.initializeMemory(as: UInt8.self, repeating: 0)
        defer { pixels.deallocate() }
        do throws(CodecError) {
            while reader.remainingRows > 0 {
                let start = reader.nextRow
                let count = min(step, reader.remainingRows)
                let done = try reader.readRows(
                    count, into: UnsafeMutableRawBufferPointer(rebasing: pixels[(start * rowBytes)...]),
                    rowBytes: rowBytes)
                outcome.rows += done
                if done == 0 { break }
            }
        } catch {
            outcome.rows = reader.nextRow
            outcome.error = "\(error.kind) \(error.message)"
        }
        if outcome.error == nil {
            do throws(CodecError) { try reader.finish() } catch {
                outcome.finishError = "\(error.kind) \(error.message)"
            }
        }
        outcome.warnings = reader.warnings
        outcome.pixels = Array(pixels.prefix(rowBytes * height))
        return (outcome, ahead && reader.rowsInflatedAhead)
    }

    /// libpng's outcome, and the pipeline's run serially and on a thread, compared.
    static func compare(_ source: ImageSource, _ name: String, expectAhead: Bool? = nil) {
        let (plain, _) = read(source, pipeline: nil)
        for (mode, parts) in [("serial", DecodeParts.serial(count: 2)), ("threaded", threaded)] {
            for step in [1, 7, 1000] {
                let (ahead, used) = read(source, pipeline: parts, step: step)
                #expect(ahead.rows == plain.rows, "\(name) \(mode) step \(step): \(ahead) against \(plain)")
                #expect(ahead.error == plain.error, "\(name) \(mode) step \(step): \(ahead) against \(plain)")
                #expect(
                    ahead.finishError == plain.finishError, "\(name) \(mode) step \(step): \(ahead) against \(plain)")
                #expect(ahead.warnings == plain.warnings, "\(name) \(mode) step \(step): \(ahead) against \(plain)")
                // Compared as a Bool: a failure names the first byte that differs instead of printing every pixel.
                let same = ahead.pixels == plain.pixels
                let first =
                    same ? nil : zip(ahead.pixels, plain.pixels).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(same, "\(name) \(mode) step \(step): the pixels differ from byte \(first?.offset ?? -1)")
                if let expectAhead { #expect(used == expectAhead, "\(name): the pipeline gave it all: \(used)") }
            }
        }
    }

    /// A zlib stream of stored blocks (no compression), for image data no encoder would write.
    static func storedZlib(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, raw.count - offset)
            let final: UInt8 = offset + length == raw.count ? 1 : 0
            out += [
                final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            out += raw[offset..<(offset + length)]
            offset += length
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + PNGChunks.bytes32(b << 16 | a)
    }

    /// A PNG of `width` x `height` 8-bit samples of `colorType` with `raw` as its filtered rows (filter type bytes
    /// included), its zlib stream split into IDAT chunks of `chunk` bytes, and `after` chunks before IEND.
    static func png(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8 = 8, zlib: [UInt8], chunk: Int = 8192,
        after: [PNGChunks.Chunk] = []
    ) -> [UInt8] {
        let ihdr =
            PNGChunks.bytes32(UInt32(width)) + PNGChunks.bytes32(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
        var chunks = [PNGChunks.Chunk(type: "IHDR", data: ihdr)]
        var offset = 0
        repeat {
            let length = min(chunk, zlib.count - offset)
            chunks.append(PNGChunks.Chunk(type: "IDAT", data: Array(zlib[offset..<(offset + length)])))
            offset += length
        } while offset < zlib.count
        return PNGChunks.join(chunks + after + [PNGChunks.Chunk(type: "IEND", data: [])])
    }

    /// Seeded filtered rows: every filter type, over samples that are mostly smooth.
    static func filteredRows(width: Int, height: Int, channels: Int, seed: UInt64, filters: [UInt8] = [0, 1, 2, 3, 4])
        -> [UInt8]
    {
        var rng = SplitMix64(seed: seed)
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(filters[(row + Int(rng.next() % 3)) % filters.count])
            for _ in 0..<(width * channels) { raw.append(UInt8(truncatingIfNeeded: rng.next() % 7)) }
        }
        return raw
    }

    @Test("every PNG of the corpus, valid or not: the same rows, errors and warnings as libpng's")
    func corpus() throws {
        var taken = 0
        for record in CorpusManifest.records where record.file.hasSuffix(".png") {
            let bytes = try [UInt8](Data(contentsOf: record.url))
            let (_, used) = Self.read(.bytes(bytes), pipeline: .serial(count: 2))
            if used { taken += 1 }
            Self.compare(.bytes(bytes), record.file)
            Self.compare(.file(path: record.url.path), record.file + " (file)")
        }
        // The corpus has files the pipeline takes (8 or 16 bits, no tRNS, not interlaced) and files it leaves to
        // libpng.
        #expect(taken >= 20, "the pipeline took \(taken) corpus files")
    }

    @Test("every filter type, every sample layout, 8 and 16 bits, IDAT chunks of any size: libpng's rows")
    func filtersAndLayouts() throws {
        // Streams libpng's encoder wrote (deflate with references across chunks), filtered every way it filters.
        for colorType in [PNGEncodeOptions.ColorType.gray, .rgb, .rgba] {
            for (width, height) in [(1, 1), (1, 9), (37, 23), (300, 40)] {
                let image = TestImages.random(width: width, height: height, seed: UInt64(width * 1000 + height))
                for filter in [PNGFilter.none, .sub, .up, .average, .paeth, .adaptive] {
                    let encoded = try PNGEncoder.encode(
                        image, options: PNGEncodeOptions(colorType: colorType, compression: .level(6), filter: filter))
                    for chunk in [1, 7, 8192] {
                        Self.compare(
                            .bytes(Self.rechunked(encoded, chunk: chunk)),
                            "\(colorType) \(width)x\(height) \(filter) chunks of \(chunk)", expectAhead: true)
                    }
                }
            }
        }
        // Gray and alpha (which the encoder does not write) and every layout, 8 and 16 bits a sample, from stored
        // blocks of seeded rows.
        for (colorType, channels) in [(0, 1), (4, 2), (2, 3), (6, 4)] as [(UInt8, Int)] {
            for bitDepth in [8, 16] as [UInt8] {
                for (width, height) in [(1, 1), (37, 23), (300, 40)] {
                    let raw = Self.filteredRows(
                        width: width, height: height, channels: channels * Int(bitDepth / 8),
                        seed: UInt64(width * 1000 + height))
                    for chunk in [1, 8192] {
                        let file = Self.png(
                            width: width, height: height, colorType: colorType, bitDepth: bitDepth,
                            zlib: Self.storedZlib(raw), chunk: chunk)
                        Self.compare(
                            .bytes(file),
                            "type \(colorType), \(bitDepth) bits, \(width)x\(height) stored, chunks of \(chunk)",
                            expectAhead: true)
                    }
                }
            }
        }
    }

    /// `png` with its image data in IDAT chunks of `chunk` bytes.
    static func rechunked(_ png: [UInt8], chunk: Int) -> [UInt8] {
        let chunks = PNGChunks.split(png)
        let data = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        var out: [PNGChunks.Chunk] = []
        for original in chunks {
            if original.type == "IDAT" {
                guard !out.contains(where: { $0.type == "IDAT" }) else { continue }
                for start in stride(from: 0, to: data.count, by: chunk) {
                    out.append(PNGChunks.Chunk(type: "IDAT", data: Array(data[start..<min(start + chunk, data.count)])))
                }
            } else {
                out.append(original)
            }
        }
        return PNGChunks.join(out)
    }

    /// A bad CRC, a bad filter type, data cut short, data left over, text after the rows, a file cut short.
    @Test("damage and oddities give libpng's own outcome")
    func damage() throws {
        let (width, height) = (64, 48)
        let raw = Self.filteredRows(width: width, height: height, channels: 3, seed: 9)
        let encoded = try PNGEncoder.encode(
            TestImages.random(width: width, height: height, opaque: true, seed: 9),
            options: PNGEncodeOptions(colorType: .rgb, compression: .level(6), filter: .adaptive))
        let zlib = PNGChunks.split(encoded).filter { $0.type == "IDAT" }.flatMap(\.data)
        let good = Self.png(width: width, height: height, colorType: 2, zlib: zlib, chunk: 97)
        Self.compare(.bytes(good), "good", expectAhead: true)

        // A CRC that does not match, in a middle IDAT chunk.
        var crc = good
        let idats = Self.chunkOffsets(good, type: "IDAT")
        crc[idats[idats.count / 2] + 8 + 5] ^= 0x40
        Self.compare(.bytes(crc), "bad CRC")

        // A filter type of 5 in row 30.
        var badFilter = raw
        badFilter[30 * (width * 3 + 1)] = 5
        Self.compare(
            .bytes(Self.png(width: width, height: height, colorType: 2, zlib: Self.storedZlib(badFilter))), "filter 5")

        // The stream ends before the last row; and a stream with a row's worth of data over.
        let short = Self.storedZlib(Array(raw.dropLast(width * 3 + 1)))
        Self.compare(.bytes(Self.png(width: width, height: height, colorType: 2, zlib: short)), "short data")
        let over = Self.storedZlib(raw + raw.suffix(width * 3 + 1))
        Self.compare(.bytes(Self.png(width: width, height: height, colorType: 2, zlib: over)), "data over")

        // IDAT chunks after the stream's end: empty, and with bytes.
        for extra in [[], [1, 2, 3]] as [[UInt8]] {
            var chunks = PNGChunks.split(good)
            chunks.insert(PNGChunks.Chunk(type: "IDAT", data: extra), at: chunks.count - 1)
            Self.compare(.bytes(PNGChunks.join(chunks)), "an IDAT of \(extra.count) bytes after the stream")
        }

        // Text after the rows (libpng reads it at the end), and a damaged text chunk there.
        let text = PNGChunks.Chunk(type: "tEXt", data: Array("Comment\u{0}after the image data".utf8))
        let withText = Self.png(width: width, height: height, colorType: 2, zlib: zlib, after: [text])
        Self.compare(.bytes(withText), "text after")
        var damagedText = withText
        let textAt = Self.chunkOffsets(withText, type: "tEXt")[0]
        damagedText[textAt + 8 + 2] ^= 1
        Self.compare(.bytes(damagedText), "damaged text after")

        // An IEND that is not empty; zlib data damaged under a correct CRC; the file cut at every few hundred bytes.
        var iend = PNGChunks.split(good)
        iend[iend.count - 1].data = [1, 2, 3]
        Self.compare(.bytes(PNGChunks.join(iend)), "long IEND")
        var chunks = PNGChunks.split(good)
        let middle = chunks.indices.filter { chunks[$0].type == "IDAT" }[3]
        chunks[middle].data[10] ^= 0xFF
        Self.compare(.bytes(PNGChunks.join(chunks)), "damaged deflate data")
        for cut in stride(from: 60, to: good.count, by: 311) {
            Self.compare(.bytes(Array(good.prefix(cut))), "cut at \(cut)")
        }
    }

    @Test("a reader closed before its last row stops the thread that inflates ahead")
    func abandoned() throws {
        let raw = Self.filteredRows(width: 500, height: 400, channels: 4, seed: 3)
        let file = Self.png(width: 500, height: 400, colorType: 6, zlib: Self.storedZlib(raw))
        for rows in [0, 1, 250] {
            let reader = try PNGRowReader(.bytes(file))
            #expect(reader.startPipeline(Self.threaded))
            var row = [UInt8](repeating: 0, count: reader.rowBytes * max(rows, 1))
            let done = try row.withUnsafeMutableBytes { (raw) throws(CodecError) in
                try reader.readRows(rows, into: raw, rowBytes: reader.rowBytes)
            }
            #expect(done == rows)
            // The reader goes away here with the inflater waiting for room: deinit stops it and waits for it.
        }
    }

    /// The offsets of the chunks of `type` (their length fields).
    static func chunkOffsets(_ png: [UInt8], type: String) -> [Int] {
        var offsets: [Int] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(PNGChunks.bigEndian32(png, at: i))
            if String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self) == type { offsets.append(i) }
            i += 12 + length
        }
        return offsets
    }
}
