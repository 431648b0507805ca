import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The EXIF fields of the info panel: read where a camera writes them, in both byte orders, through the header of
/// a real JPEG, and never a trap on hostile bytes.
@Suite("EXIF fields")
struct ExifFieldsTests {
    /// A TIFF structure with IFD0 (Make, Model, Exif and GPS pointers), an Exif IFD and a GPS IFD.
    static func tiff(littleEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] : [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] {
            littleEndian ? u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) : u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF)
        }
        // Layout: header 8, IFD0 at 8 (4 entries), Exif IFD, GPS IFD, then the values.
        let ifd0 = 8
        let exif = ifd0 + 2 + 4 * 12 + 4
        let gps = exif + 2 + 6 * 12 + 4
        var data = gps + 2 + 4 * 12 + 4
        var values: [UInt8] = []
        func place(_ bytes: [UInt8]) -> Int {
            defer {
                values += bytes
                data += bytes.count
            }
            return data
        }
        func ascii(_ tag: Int, _ text: String) -> [UInt8] {
            let bytes = Array(text.utf8) + [0]
            return u16(tag) + u16(2) + u32(bytes.count) + u32(place(bytes))
        }
        func rational(_ tag: Int, _ pairs: [(Int, Int)]) -> [UInt8] {
            u16(tag) + u16(5) + u32(pairs.count) + u32(place(pairs.flatMap { u32($0.0) + u32($0.1) }))
        }
        func short(_ tag: Int, _ value: Int) -> [UInt8] { u16(tag) + u16(3) + u32(1) + u16(value) + u16(0) }
        func pointer(_ tag: Int, _ offset: Int) -> [UInt8] { u16(tag) + u16(4) + u32(1) + u32(offset) }
        func refEntry(_ tag: Int, _ letter: String) -> [UInt8] {
            u16(tag) + u16(2) + u32(2) + Array(letter.utf8) + [0, 0, 0]
        }
        let ifd0Entries =
            ascii(0x010F, "Canon") + ascii(0x0110, "Canon EOS 5D Mark IV") + pointer(0x8769, exif)
            + pointer(0x8825, gps)
        let exifEntries =
            rational(0x829A, [(1, 250)]) + rational(0x829D, [(28, 10)]) + short(0x8827, 400)
            + ascii(0x9003, "2024:05:01 12:34:56") + rational(0x920A, [(50, 1)]) + ascii(0xA434, "EF50mm f/1.8 STM")
        let gpsEntries =
            refEntry(0x0001, "N") + rational(0x0002, [(48, 1), (51, 1), (2964, 100)])
            + refEntry(0x0003, "W") + rational(0x0004, [(2, 1), (17, 1), (4020, 100)])
        let header: [UInt8] = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(ifd0)
        return header + u16(4) + ifd0Entries + u32(0) + u16(6) + exifEntries + u32(0) + u16(4) + gpsEntries + u32(0)
            + values
    }

    static let expected: ExifFields = {
        var fields = ExifFields()
        fields.camera = "Canon EOS 5D Mark IV"
        fields.lens = "EF50mm f/1.8 STM"
        fields.exposure = "1/250 s"
        fields.fNumber = 2.8
        fields.iso = 400
        fields.focalLength = 50
        fields.taken = "2024:05:01 12:34:56"
        fields.latitude = 48.858233
        fields.longitude = -2.2945
        return fields
    }()

    @Test("every field is read, in both byte orders", arguments: [true, false])
    func fields(littleEndian: Bool) {
        #expect(ExifFields.read(inTIFF: Self.tiff(littleEndian: littleEndian)) == Self.expected)
    }

    @Test("a JPEG's header carries them (no pixel decoded), and a file without EXIF has none")
    func throughTheHeader() throws {
        let payload = Array("Exif".utf8) + [0, 0] + Self.tiff(littleEndian: false)
        let rocket = try Fixtures.bytes(Fixtures.sampleImages.appendingPathComponent("rocket.jpg"))
        let length = payload.count + 2
        let file =
            Array(rocket[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            + Array(rocket[2...])
        #expect(try ImageHeader.read(from: .bytes(file)).exif == Self.expected)
        #expect(try ImageHeader.read(from: .bytes(rocket)).exif == nil)
    }

    @Test("seeded mutations and truncations never trap; text stays printable and short")
    func hostile() {
        let tiff = Self.tiff(littleEndian: true)
        var rng = SplitMix64(seed: 77)
        for trial in 0..<600 {
            let bytes = HostileBytes.mutated(tiff, trial: trial, truncateEvery: 5, maxChanges: 6, &rng)
            guard let fields = ExifFields.read(inTIFF: bytes) else { continue }
            for text in [fields.camera, fields.lens, fields.taken].compactMap({ $0 }) {
                #expect(text.count <= 130 && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
            }
            if let latitude = fields.latitude { #expect(abs(latitude) <= 90) }
            if let longitude = fields.longitude { #expect(abs(longitude) <= 180) }
        }
    }
}
