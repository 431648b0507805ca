import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("EXIF orientation parser")
struct ExifOrientationParserTests {
    @Test("a hand-built TIFF gives back the value written, in both byte orders", arguments: [true, false])
    func handBuilt(littleEndian: Bool) {
        let builder = TIFFBuilder(littleEndian: littleEndian)
        for value in 0...12 {
            let tiff = builder.orientationTIFF(value)
            #expect(ExifOrientationParser.exifValue(inTIFF: tiff) == value)
            #expect(ExifOrientationParser.orientation(inTIFF: tiff) == ImageOrientation(exifValue: value))
            let jpeg = jpegMarkers([(0xE1, exifHeader + tiff)])
            #expect(ExifOrientationParser.exifValue(inJPEG: jpeg) == value, "value \(value)")
        }
        // IFD0 placed further into the structure.
        let far = builder.tiff(entries: [builder.entry(tag: 0x0112, type: 3, count: 1, short: 6)], ifdOffset: 40)
        #expect(ExifOrientationParser.orientation(inTIFF: far) == .right)
    }

    @Test("only the first APP1 Exif segment counts; other APP segments are passed over")
    func firstExifSegment() {
        let builder = TIFFBuilder(littleEndian: false)
        let xmp = Array("http://ns.adobe.com/xap/1.0/\u{0}<x/>".utf8)
        let jfif: [UInt8] = [0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let jpeg = jpegMarkers([
            (0xE0, jfif), (0xE1, xmp), (0xE1, exifHeader + builder.orientationTIFF(8)),
            (0xE1, exifHeader + builder.orientationTIFF(3)),
        ])
        #expect(ExifOrientationParser.orientation(inJPEG: jpeg) == .left)
        // A first Exif segment without the tag hides a later one.
        let untagged = builder.tiff(entries: [builder.entry(tag: 0x010F, type: 2, count: 1, short: 0)])
        let hidden = jpegMarkers([(0xE1, exifHeader + untagged), (0xE1, exifHeader + builder.orientationTIFF(3))])
        #expect(ExifOrientationParser.orientation(inJPEG: hidden) == nil)
        // Nothing after the first scan is metadata.
        let afterScan = jpegMarkers([]) + [0xFF, 0xE1, 0x00, 0x08] + exifHeader
        #expect(ExifOrientationParser.orientation(inJPEG: afterScan) == nil)
    }

    @Test("a tag of the wrong type or with no count is not an orientation")
    func wrongType() {
        for littleEndian in [true, false] {
            let b = TIFFBuilder(littleEndian: littleEndian)
            #expect(
                ExifOrientationParser.exifValue(
                    inTIFF: b.tiff(entries: [b.entry(tag: 0x0112, type: 4, count: 1, short: 6)])) == nil)
            #expect(
                ExifOrientationParser.exifValue(
                    inTIFF: b.tiff(entries: [b.entry(tag: 0x0112, type: 3, count: 0, short: 6)])) == nil)
        }
        var badMagic = TIFFBuilder(littleEndian: true).orientationTIFF(6)
        badMagic[2] = 43
        #expect(ExifOrientationParser.orientation(inTIFF: badMagic) == nil)
    }

    @Test("every truncation of a valid structure gives nil or the written value, never a trap")
    func truncations() {
        for littleEndian in [true, false] {
            let tiff = TIFFBuilder(littleEndian: littleEndian).orientationTIFF(7)
            let jpeg = jpegMarkers([(0xE1, exifHeader + tiff)])
            for length in 0...tiff.count {
                let value = ExifOrientationParser.exifValue(inTIFF: Array(tiff[0..<length]))
                #expect(value == nil || value == 7, "TIFF cut at \(length)")
            }
            for length in 0...jpeg.count {
                let value = ExifOrientationParser.exifValue(inJPEG: Array(jpeg[0..<length]))
                #expect(value == nil || value == 7, "JPEG cut at \(length)")
            }
        }
    }

    @Test("seeded random and mutated structures never trap and give nil or 1...8")
    func randomStructures() {
        let seed: UInt64 = 0xE1F0_0112
        var generator = SplitMix64(seed: seed)
        for round in 0..<4000 {
            let littleEndian = Bool.random(using: &generator)
            let builder = TIFFBuilder(littleEndian: littleEndian)
            var tiff: [UInt8]
            switch round % 3 {
            case 0:
                // Random bytes behind a plausible header: offsets and counts point anywhere.
                tiff = (littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A])
                tiff += (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            case 1:
                // A valid structure with a few bytes overwritten.
                tiff = builder.orientationTIFF(Int.random(in: 0...9, using: &generator))
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    tiff[Int.random(in: 0..<tiff.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
            default:
                // Huge entry counts and IFD offsets near the end.
                tiff = builder.u16(littleEndian ? 0x4949 : 0x4D4D) + builder.u16(42)
                tiff += builder.u32(Int.random(in: 0...40, using: &generator))
                tiff += builder.u16(Int.random(in: 0...65535, using: &generator))
                tiff += (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            }
            if let orientation = ExifOrientationParser.orientation(inTIFF: tiff) {
                #expect((1...8).contains(orientation.rawValue), "seed \(seed) round \(round)")
            }
            var jpeg = jpegMarkers([(0xE1, exifHeader + tiff)])
            if round % 2 == 0 {
                jpeg[Int.random(in: 0..<jpeg.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let orientation = ExifOrientationParser.orientation(inJPEG: jpeg) {
                #expect((1...8).contains(orientation.rawValue), "seed \(seed) round \(round)")
            }
        }
    }

    @Test("a well-formed structure always parses to the written value (seeded sweep)")
    func validStructures() {
        let seed: UInt64 = 0x0112_0112
        var generator = SplitMix64(seed: seed)
        for round in 0..<1000 {
            let builder = TIFFBuilder(littleEndian: Bool.random(using: &generator))
            let value = Int.random(in: 1...8, using: &generator)
            var entries = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                builder.entry(
                    tag: Int.random(in: 0x0100...0x0111, using: &generator),
                    type: Int.random(in: 1...12, using: &generator),
                    count: Int.random(in: 0...1000, using: &generator),
                    short: Int.random(in: 0...65535, using: &generator))
            }
            entries.insert(
                builder.entry(tag: 0x0112, type: 3, count: 1, short: value),
                at: Int.random(in: 0...entries.count, using: &generator))
            let tiff = builder.tiff(entries: entries, ifdOffset: 8 + 2 * Int.random(in: 0...50, using: &generator))
            #expect(ExifOrientationParser.exifValue(inTIFF: tiff) == value, "seed \(seed) round \(round)")
        }
    }
}
