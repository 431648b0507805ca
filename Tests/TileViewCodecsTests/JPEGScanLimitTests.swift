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
}
