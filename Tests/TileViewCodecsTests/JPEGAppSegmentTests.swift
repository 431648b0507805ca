import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The decoder keeps only the APP segments it uses while it reads a header: the first APP1 Exif segment and APP2
/// ICC_PROFILE pieces up to 4 MiB; every other APP1 and APP2 segment (XMP, MPF, padding) is skipped, however many.
@Suite("JPEG APP segments")
struct JPEGAppSegmentTests {
    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }

    /// An Exif segment whose one IFD entry is orientation `value` (big-endian TIFF).
    static func exif(orientation value: UInt8) -> [UInt8] {
        Array("Exif".utf8) + [
            0, 0, 0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0,
        ]
            + [0, 0, 0, 0]
    }

    /// `jpeg` with `segments` after its SOI.
    static func inserting(_ segments: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + segments + jpeg.dropFirst(2)
    }

    @Test("the first Exif segment is read after 200 segments of XMP, and a second Exif segment is not")
    func exifAfterOtherSegments() throws {
        let jpeg = try Fixtures.bytes("jpeg/gen_chelsea_420_q90.jpg")
        let xmp = Self.segment(
            0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + [UInt8](repeating: 0x20, count: 60_000))
        var segments: [UInt8] = []
        for _ in 0..<200 { segments += xmp }
        segments += Self.segment(0xE1, Self.exif(orientation: 6)) + Self.segment(0xE1, Self.exif(orientation: 3))
        let header = try ImageHeader.read(from: .bytes(Self.inserting(segments, into: jpeg)))
        #expect(header.orientation.exifValue == 6)
    }

    @Test("ICC_PROFILE pieces among other APP2 segments are joined; past 4 MiB the profile is refused, named")
    func iccPieces() throws {
        let tagged = try ImageHeader.read(from: .bytes(Fixtures.bytes("color/adobergb.jpg")))
        let profile = try #require(tagged.color.profile)
        let plain = JPEGSegments.removing(0xE2, from: try Fixtures.bytes("color/adobergb.jpg"))
        // The profile in three pieces, each after an MPF-like APP2 segment.
        let cuts = [0, profile.count / 3, 2 * profile.count / 3, profile.count]
        var segments: [UInt8] = []
        for k in 0..<3 {
            segments += Self.segment(0xE2, Array("MPF\0".utf8) + [UInt8](repeating: 7, count: 30_000))
            segments += Self.segment(
                0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(k + 1), 3] + profile[cuts[k]..<cuts[k + 1]])
        }
        let joined = try ImageHeader.read(from: .bytes(Self.inserting(segments, into: plain)))
        #expect(joined.color.profile == profile && joined.color.problem == nil)
        // 65 pieces of 65,519 bytes: 4.06 MiB.
        var large: [UInt8] = []
        for k in 1...65 {
            large += Self.segment(
                0xE2, Array("ICC_PROFILE\0".utf8) + [UInt8(k), 65] + [UInt8](repeating: UInt8(k), count: 65_519))
        }
        let refused = try ImageHeader.read(from: .bytes(Self.inserting(large, into: plain)))
        #expect(refused.color.profile == nil)
        #expect(refused.color.problem?.contains("larger than the 4 MiB accepted") == true, "\(refused.color)")
    }
}
