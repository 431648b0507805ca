import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// A progressive JPEG's scans may go over its blocks at most 64 times together: valid scans that hold nothing but
/// end-of-band runs cost a pass over the image each, so a small file could make a decode take as long as it likes.
@Suite("JPEG scan limit")
struct JPEGScanLimitTests {
    @Test("190 scans, every coefficient its own scan (64 passes over the blocks), decode to the flat gray")
    func atTheLimit() throws {
        let size = PixelSize(width: 64, height: 48)
        let decoded = try JPEGDecoder.decode(.bytes(ScanHeavyJPEG.progressive(size, refinements: 0)))
        #expect(decoded.header.isProgressive && decoded.image.size == size)
        #expect(decoded.image == ImageBuffer(width: 64, height: 48, fill: RGBA8(r: 128, g: 128, b: 128)))
    }

    @Test(
        "2,647 valid scans, or scans repeated in a lenient decode: refused once they go over the blocks 64 times",
        arguments: [(13, 0, false), (0, 5000, true)])
    func pastTheLimit(refinements: Int, repeats: Int, lenient: Bool) {
        let bytes = ScanHeavyJPEG.progressive(
            PixelSize(width: 64, height: 48), refinements: refinements, repeats: repeats)
        #expect {
            _ = try JPEGDecoder.decode(.bytes(bytes), options: DecodeOptions(lenient: lenient))
        } throws: { error in
            guard let error = error as? CodecError else { return false }
            return error.kind == .unsupported && error.message.contains("go over its blocks more than 64 times")
        }
    }
    /// A tiled TIFF 300 x 256 of two JPEG-compressed YCbCr tiles of 256, both `stream`: the second is cut by the
    /// image's right edge.
    static func tiledTIFF(_ stream: [UInt8]) -> [UInt8] {
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8(value >> (8 * $0) & 0xFF) } }
        let entries: [(tag: Int, type: Int, count: Int, value: [UInt8])] = [
            (256, 4, 1, le(300, 4)), (257, 4, 1, le(256, 4)), (258, 3, 3, []), (259, 3, 1, le(7, 4)),
            (262, 3, 1, le(6, 4)), (277, 3, 1, le(3, 4)), (284, 3, 1, le(1, 4)), (322, 3, 1, le(256, 4)),
            (323, 3, 1, le(256, 4)), (324, 4, 2, []), (325, 4, 2, []), (530, 3, 2, le(1, 2) + le(1, 2)),
        ]
        let ifdEnd = 8 + 2 + entries.count * 12 + 4
        let (bits, offsets, counts, data) = (ifdEnd, ifdEnd + 6, ifdEnd + 14, ifdEnd + 22)
        var file: [UInt8] = [0x49, 0x49, 42, 0] + le(8, 4) + le(entries.count, 2)
        for entry in entries {
            let value: [UInt8]
            switch entry.tag {
            case 258: value = le(bits, 4)
            case 324: value = le(offsets, 4)
            case 325: value = le(counts, 4)
            default: value = entry.value
            }
            file += le(entry.tag, 2) + le(entry.type, 2) + le(entry.count, 4) + value
        }
        file += le(0, 4) + le(8, 2) + le(8, 2) + le(8, 2)
        file += le(data, 4) + le(data, 4) + le(stream.count, 4) + le(stream.count, 4)
        return file + stream
    }

    @Test("a TIFF's stored tile of 2,647 scans is not cut (the decoder takes it, and stops at the limit)")
    func storedTile() throws {
        let size = PixelSize(width: 256, height: 256)
        let sound = Self.tiledTIFF(ScanHeavyJPEG.progressive(size, refinements: 0))
        let heavy = Self.tiledTIFF(ScanHeavyJPEG.progressive(size, refinements: 13))
        let cut = try ImageRowReader.storedJPEGTile(in: .bytes(sound), directory: 8, column: 1, row: 0, tileSize: 256)
        #expect(try ImageHeader.read(from: .bytes(try #require(cut))).storedSize == PixelSize(width: 44, height: 256))
        #expect(
            try ImageRowReader.storedJPEGTile(in: .bytes(heavy), directory: 8, column: 1, row: 0, tileSize: 256) == nil)
    }
}
