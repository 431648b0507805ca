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
}
