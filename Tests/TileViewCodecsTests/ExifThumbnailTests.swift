import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The EXIF thumbnail (IFD1's JPEGInterchangeFormat): found where a camera writes it, refused when any offset,
/// length or marker is wrong, never a trap on hostile bytes.
@Suite("EXIF thumbnail")
struct ExifThumbnailTests {
    /// A small real JPEG to embed.
    static let thumbnail: [UInt8] = try! JPEGEncoder.encode(
        ImageBuffer(width: 16, height: 12, fill: RGBA8(r: 200, g: 40, b: 10)))

    /// An APP1 "Exif" segment (big-endian TIFF): IFD0 with the Orientation, IFD1 pointing at `thumbnail`.
    static func exifSegment(orientation: Int, thumbnail: [UInt8], start: Int? = nil, length: Int? = nil) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }
        let ifd1 = 8 + 2 + 12 + 4
        let data = ifd1 + 2 + 24 + 4
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + u32(8)
        tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(ifd1)
        tiff += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(start ?? data)
        tiff += u16(0x0202) + u16(4) + u32(1) + u32(length ?? thumbnail.count) + u32(0)
        tiff += thumbnail
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xE1] + u16(payload.count + 2) + payload
    }

    /// A JPEG file (SampleImages/rocket.jpg) with `segment` right after its SOI.
    static func jpeg(with segment: [UInt8]) throws -> [UInt8] {
        let file = try Fixtures.bytes(Fixtures.sampleImages.appendingPathComponent("rocket.jpg"))
        return Array(file[0..<2]) + segment + Array(file[2...])
    }

    @Test("the thumbnail a camera embeds is found, byte for byte; a file without one has none")
    func found() throws {
        let file = try Self.jpeg(with: Self.exifSegment(orientation: 6, thumbnail: Self.thumbnail))
        #expect(ExifThumbnail.jpeg(inJPEG: file) == Self.thumbnail)
        #expect(ExifOrientationParser.exifValue(inJPEG: file) == 6)
        #expect(
            ExifThumbnail.jpeg(inJPEG: try Fixtures.bytes(Fixtures.sampleImages.appendingPathComponent("rocket.jpg")))
                == nil)
        // The decoder reads the file with the segment in it, and its orientation (6: a quarter turn).
        #expect(try JPEGDecoder.decode(.bytes(file)).image.size == PixelSize(width: 427, height: 640), "turned by it")
    }

    @Test("an offset or length out of the structure, or bytes that are not a whole JPEG, give none")
    func refused() throws {
        let count = Self.thumbnail.count
        let cases: [(start: Int?, length: Int?, bytes: [UInt8])] = [
            (nil, count + 1, Self.thumbnail), (1_000_000, nil, Self.thumbnail), (nil, 0, Self.thumbnail),
            (nil, 3, Self.thumbnail), (4, nil, Self.thumbnail), (nil, nil, [0x00, 0xD8] + Self.thumbnail.dropFirst(2)),
            (nil, nil, Array(Self.thumbnail.dropLast(2)) + [0, 0]),
        ]
        for (n, c) in cases.enumerated() {
            let file = try Self.jpeg(
                with: Self.exifSegment(orientation: 1, thumbnail: c.bytes, start: c.start, length: c.length))
            #expect(ExifThumbnail.jpeg(inJPEG: file) == nil, "case \(n)")
        }
    }

    @Test("seeded mutations and truncations of the segment never trap, and give none or a whole JPEG")
    func hostile() throws {
        let segment = Self.exifSegment(orientation: 3, thumbnail: Self.thumbnail)
        var rng = SplitMix64(seed: 16)
        for trial in 0..<400 {
            // The first 4 bytes (the marker and the length) are kept whole.
            let bytes = HostileBytes.mutated(segment, trial: trial, truncateEvery: 4, maxChanges: 4, keep: 4, &rng)
            let found = ExifThumbnail.jpeg(inJPEG: [0xFF, 0xD8] + bytes + [0xFF, 0xD9])
            if let found {
                #expect(found.starts(with: [0xFF, 0xD8, 0xFF]) && found.suffix(2) == [0xFF, 0xD9], "trial \(trial)")
            }
        }
    }

    @Test("an oriented thumbnail carries the orientation in an EXIF segment of its own, and decodes the same")
    func oriented() throws {
        for orientation in 1...8 {
            let turned = ExifThumbnail.oriented(Self.thumbnail, orientation: orientation)
            #expect(ExifOrientationParser.exifValue(inJPEG: turned) == (orientation == 1 ? nil : orientation))
            #expect(
                try JPEGDecoder.decode(.bytes(turned), options: DecodeOptions(applyOrientation: false)).image
                    == JPEGDecoder.decode(.bytes(Self.thumbnail)).image)
        }
    }
}
