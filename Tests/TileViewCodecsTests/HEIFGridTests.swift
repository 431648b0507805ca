import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// A HEIF or AVIF whose primary image is a grid of coded tiles (what phones write) is read a row of tiles at a time,
/// each tile decoded by libheif as a file of its own, its irot and imir given as an orientation
/// (`Tests/Corpus/grids`, made by `scripts/make-heif-grid.py`; references by libvips, which decodes them whole
/// through libheif).
@Suite("HEIF grids")
struct HEIFGridTests {
    static let root = Fixtures.corpusRoot.appendingPathComponent("grids")
    static let stored = DecodeOptions(applyOrientation: false, color: .keep)

    /// File, stored size, the orientation irot and imir come to, and the tiles.
    static let grids: [(file: String, size: PixelSize, orientation: ImageOrientation, format: ImageFormat)] = [
        ("grid-3x2.heic", PixelSize(width: 180, height: 120), .up, .heif),
        // irot 1 (a quarter turn anticlockwise), then imir 1 (left and right exchanged): Exif 7 (rightMirrored).
        ("grid-3x2-irot1-imir1.heic", PixelSize(width: 180, height: 120), .rightMirrored, .heif),
        // The same two properties in the other order: Exif 5 (leftMirrored). libheif applies them in ipma order.
        ("grid-3x2-imir1-irot1.heic", PixelSize(width: 180, height: 120), .leftMirrored, .heif),
        ("grid-3x2.avif", PixelSize(width: 150, height: 100), .up, .avif),
    ]

    static func path(_ file: String) -> String { root.appendingPathComponent(file).path }

    @Test("a grid's header gives its tiles, stored size and orientation; its pixels are libheif's whole decode's")
    func pixelsAsLibheif() throws {
        for grid in Self.grids {
            let header = try ImageHeader.read(from: .file(path: Self.path(grid.file)))
            #expect(header.format == grid.format, "\(grid.file)")
            #expect(header.storedSize == grid.size, "\(grid.file)")
            #expect(header.orientation == grid.orientation, "\(grid.file): \(header.orientation)")
            #expect(header.isTiled && !header.decodesWhole, "\(grid.file): read a row of tiles at a time")
            // A row of 64 px tiles and one tile's decode, not the image.
            #expect(header.decoderWorkingBytes < 3 * 64 * 64 * 4 + 64 * 64 * 24 + 64 << 10, "\(grid.file)")
            let upright = try ImageDecoder.decode(
                .file(path: Self.path(grid.file)), options: DecodeOptions(color: .keep))
            let reference = try PNGDecoder.decode(
                .file(path: Self.path(grid.file + ".png")), options: Self.stored
            ).image
            #expect(upright.image.size == reference.size, "\(grid.file)")
            #expect(upright.image == reference, "\(grid.file): not libheif's pixels")
        }
    }

    @Test("a region reads the tile columns under it, widened to whole tiles, and its rows are the whole decode's")
    func columnsAndSkippedRows() throws {
        let file = Self.path("grid-3x2.heic")
        let whole = try ImageDecoder.decode(.file(path: file), options: Self.stored).image
        let reader = try ImageRowReader(.file(path: file), format: .heif, options: Self.stored)
        // Columns 70 to 129 lie in tiles 1 and 2 (64 px each); the last is cut by the 180 px output width.
        #expect(reader.cropColumns(70..<130) == 64..<180)
        let width = reader.columns.count
        // Rows 0 to 69 are skipped (the first row of tiles is never decoded), then rows 70 to 119 are read.
        #expect(try reader.skipRows(70) == 70)
        var rows = [UInt8](repeating: 0, count: width * 4 * 50)
        let read = try rows.withUnsafeMutableBytes { raw in try reader.readRows(50, into: raw, rowBytes: width * 4) }
        #expect(read == 50)
        try reader.finish()
        for row in 0..<50 {
            let start = ((70 + row) * whole.width + 64) * 4
            #expect(rows[(row * width * 4)..<((row + 1) * width * 4)] == whole.pixels[start..<(start + width * 4)])
        }
    }

    /// Counts the threads `run` was asked for.
    final class Runs: @unchecked Sendable {
        private let lock = NSLock()
        private var threads = 0
        var count: Int { lock.withLock { threads } }
        func add(_ count: Int) { lock.withLock { threads += count } }
    }

    @Test("a row of tiles decoded at once, on threads or one after another, gives the rows of one tile at a time")
    func tilesAtOnce() throws {
        for grid in Self.grids {
            let source = ImageSource.file(path: Self.path(grid.file))
            let whole = try ImageDecoder.decode(source, options: Self.stored).image
            let runs = Runs()
            let concurrent = DecodeParts(count: 2) { count, body in
                runs.add(count)
                DispatchQueue.concurrentPerform(iterations: count) { body($0) }
            }
            let serial = DecodeParts(count: 4) { count, body in
                runs.add(count)
                for part in 0..<count { body(part) }
            }
            for parts in [concurrent, serial] {
                let reader = try ImageRowReader(source, format: grid.format, options: Self.stored)
                #expect(reader.header.decoderPartBytes > 0, "\(grid.file)")
                reader.parts = parts
                var rows = [UInt8](repeating: 0, count: whole.pixels.count)
                let width = whole.width * 4
                // In runs that cross rows of tiles (64 rows each) and stop inside them.
                var read = 0
                for count in [5, 70, 100] {
                    read += try rows.withUnsafeMutableBytes { raw in
                        try reader.readRows(
                            count, into: UnsafeMutableRawBufferPointer(rebasing: raw[(read * width)...]),
                            rowBytes: width)
                    }
                }
                #expect(read == whole.height, "\(grid.file)")
                #expect(rows == whole.pixels, "\(grid.file): rows decoded at once differ")
            }
            // Both rows of tiles were decoded at once, 2 threads (3 tiles a row) and 3 tiles one after another.
            #expect(runs.count == 2 * 2 + 2 * 3, "\(grid.file): \(runs.count)")
            // The whole decode (`tileview decode`) takes the same parts: the same pixels, each row of tiles at once.
            let decoded = try ImageDecoder.decode(source, options: Self.stored, parts: concurrent).image
            #expect(decoded == whole, "\(grid.file)")
            #expect(runs.count == 2 * 2 + 2 * 3 + 2 * 2, "\(grid.file): \(runs.count)")
        }
    }

    @Test("bytes flipped in a grid's meta box decode to a picture of the header's size or are refused, never crash")
    func damagedMeta() throws {
        let original = try Fixtures.bytes(URL(fileURLWithPath: Self.path("grid-3x2-irot1-imir1.heic")))
        // The meta box follows the 24-byte ftyp.
        let metaEnd =
            24 + (Int(original[24]) << 24 | Int(original[25]) << 16 | Int(original[26]) << 8 | Int(original[27]))
        var generator = SplitMix64(seed: 29)
        var decoded = 0
        for round in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 32..<metaEnd, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            for options in [DecodeOptions(maxPixels: 1 << 22), DecodeOptions(lenient: true, maxPixels: 1 << 22)] {
                do {
                    let result = try ImageDecoder.decode(.bytes(bytes), options: options)
                    #expect(result.image.size == result.header.orientedSize, "round \(round)")
                    decoded += 1
                } catch {
                    #expect(!error.message.isEmpty, "round \(round)")
                }
            }
        }
        // Most single-byte changes leave a decodable file (names, reserved bytes, tile data lengths within bounds).
        #expect(decoded > 0)
    }

    @Test("damaged tile data, decoded a row of tiles at once, gives rows or an error naming the format, never a crash")
    func damagedTilesAtOnce() throws {
        let original = try Fixtures.bytes(URL(fileURLWithPath: Self.path("grid-3x2.heic")))
        let metaEnd =
            24 + (Int(original[24]) << 24 | Int(original[25]) << 16 | Int(original[26]) << 8 | Int(original[27]))
        let parts = DecodeParts(count: 2) { count, body in
            DispatchQueue.concurrentPerform(iterations: count) { body($0) }
        }
        var generator = SplitMix64(seed: 31)
        var failed = 0
        for round in 0..<60 {
            var bytes = original
            for _ in 0..<Int.random(in: 4...40, using: &generator) {
                bytes[Int.random(in: (metaEnd + 8)..<bytes.count, using: &generator)] ^= 0xFF
            }
            do {
                let reader = try ImageRowReader(.bytes(bytes), format: .heif, options: Self.stored)
                reader.parts = parts
                let width = reader.header.storedSize.width * 4
                var rows = [UInt8](repeating: 0, count: width * reader.header.storedSize.height)
                let read = try rows.withUnsafeMutableBytes { raw in
                    try reader.readRows(reader.header.storedSize.height, into: raw, rowBytes: width)
                }
                #expect(read == reader.header.storedSize.height, "round \(round)")
            } catch let error as CodecError {
                failed += 1
                #expect(error.message.contains("HEIF"), "round \(round): \(error.message)")
            }
        }
        // libde265 refuses some damage and conceals the rest (undefined pixels: docs/serving.md).
        #expect(failed > 0)
    }
}
