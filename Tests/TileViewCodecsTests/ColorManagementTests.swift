import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The decoders' colour management (docs/design.md section 14) on the tagged corpus `Tests/Corpus/color`: what each
/// file's description says, which files are converted, and the paths around the decoders (profiles in PNGs written, in
/// lossless crops, in crops through the entropy index). The CIEDE2000 law against lcms2's conversions made beforehand
/// is `ColorLawTests` (the command line).
@Suite("Colour management")
struct ColorManagementTests {
    static let folder = Fixtures.corpusRoot.appendingPathComponent("color")
    static func file(_ name: String) -> ImageSource { .file(path: folder.appendingPathComponent(name).path) }
    static let keep = DecodeOptions(color: .keep)

    @Test(
        "each source's description comes from the place docs/design.md section 14 names, in its order",
        arguments: [
            ("adobergb.jpg", ColorDescription.Origin.iccProfile, false),
            ("multi-app2.jpg", .iccProfile, false),
            ("cmyk.jpg", .iccProfile, false),
            ("gray.jpg", .iccProfile, false),
            ("prophoto16.png", .iccProfile, false),
            ("srgb-tagged.jpg", .iccProfile, true),
            ("srgb-chunk.png", .srgbChunk, true),
            ("chrm-gama.png", .chromaticities, false),
            ("r03.jpg", .exifAdobeRGB, false),
            ("untagged.jpg", .assumed, true),
            ("truncated-profile.jpg", .assumed, true),
        ])
    func origins(_ name: String, _ origin: ColorDescription.Origin, _ isSRGB: Bool) throws {
        let header = try ImageHeader.read(from: Self.file(name))
        #expect(header.color.origin == origin, "\(name): \(header.color.name)")
        #expect(header.color.isSRGB == isSRGB, "\(name): \(header.color.name)")
        #expect((header.color.transform == nil) == isSRGB, "\(name)")
        // A profile to carry in a PNG of stored values; none for CMYK, whose kept values are djpeg's RGB of the inks.
        if !isSRGB { #expect((header.color.profileToEmbed != nil) == (name != "cmyk.jpg"), "\(name)") }
    }

    @Test("sRGB, tagged or untagged, decodes to the stored bytes whatever --color says")
    func srgbCostsNothing() throws {
        for name in ["srgb-tagged.jpg", "untagged.jpg", "srgb-chunk.png"] {
            let managed = try ImageDecoder.decode(Self.file(name))
            let stored = try ImageDecoder.decode(Self.file(name), options: Self.keep)
            #expect(managed.image == stored.image, "\(name)")
        }
        let tagged = try ImageDecoder.decode(Self.file("srgb-tagged.jpg"))
        let untagged = try ImageDecoder.decode(Self.file("untagged.jpg"))
        #expect(tagged.image == untagged.image, "the same JPEG data with and without an sRGB profile")
    }

    @Test("a tagged file is converted with --color srgb and keeps its stored bytes with --color keep")
    func taggedConverts() throws {
        for name in [
            "adobergb.jpg", "prophoto.jpg", "gray.jpg", "cmyk.jpg", "adobergb.png", "chrm-gama.png", "r03.jpg",
        ] {
            let managed = try ImageDecoder.decode(Self.file(name))
            let stored = try ImageDecoder.decode(Self.file(name), options: Self.keep)
            #expect(managed.image.size == stored.image.size)
            #expect(managed.image != stored.image, "\(name) must change when converted")
            #expect(managed.image.isOpaque, "\(name): conversion keeps the pixels opaque")
        }
    }

    @Test("a CMYK file kept is djpeg's rule on its inks, as the same file without its profile decodes")
    func cmykKeep() throws {
        let bytes = try Fixtures.bytes(Self.folder.appendingPathComponent("cmyk.jpg"))
        let bare = JPEGSegments.removing(0xE2, from: bytes)
        #expect(bare.count < bytes.count)
        let untagged = try ImageDecoder.decode(.bytes(bare))
        #expect(untagged.header.color.name == ColorDescription.unmanagedCMYK.name)
        #expect(untagged.header.color.origin == .assumed && untagged.header.color.transform == nil)
        let kept = try ImageDecoder.decode(.bytes(bytes), options: Self.keep)
        #expect(kept.image == untagged.image)
        let managed = try ImageDecoder.decode(.bytes(bytes))
        #expect(managed.image != untagged.image, "the profile changes the colours")
    }

    @Test("a profile split over three APP2 markers is the one profile, joined in order")
    func multipleMarkers() throws {
        let split = try ImageHeader.read(from: Self.file("multi-app2.jpg"))
        let whole = try ImageHeader.read(from: Self.file("adobergb.jpg"))
        #expect(split.color.profile == whole.color.profile)
        #expect(split.color.name == whole.color.name)
        let a = try ImageDecoder.decode(Self.file("multi-app2.jpg"))
        let b = try ImageDecoder.decode(Self.file("adobergb.jpg"))
        #expect(a.image == b.image)
    }

    @Test("a profile cut short is a warning naming the fault, and the file decodes as untagged")
    func truncatedProfile() throws {
        let decoded = try ImageDecoder.decode(Self.file("truncated-profile.jpg"))
        #expect(decoded.header.color.problem?.contains("cut short") == true)
        #expect(decoded.warnings.contains { $0.contains("colour profile is ignored") && $0.contains("cut short") })
        #expect(!DecoderWarning.isBenign(decoded.warnings[0]), "shown without --verbose")
        let stored = try ImageDecoder.decode(Self.file("truncated-profile.jpg"), options: Self.keep)
        #expect(decoded.image == stored.image)
    }

    @Test("profiles lcms2 cannot use are refused with a reason, never a crash")
    func badProfiles() throws {
        let good = try #require(try ImageHeader.read(from: Self.file("adobergb.jpg")).color.profile)
        // Wrong colour space for the pixels.
        #expect(throws: CodecError.self) { try ColorTransform(icc: good, layout: .gray) }
        #expect(throws: CodecError.self) { try ColorTransform(icc: good, layout: .cmyk) }
        // Over the size bound: refused before lcms2 reads it.
        var huge = good + [UInt8](repeating: 0, count: 5 << 20)
        let size = huge.count
        huge[0...3] = [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        let error = #expect(throws: CodecError.self) { try ColorTransform(icc: huge, layout: .rgb) }
        #expect(error?.kind == .tooLarge)
        // Header only, and garbage.
        #expect(throws: CodecError.self) { try ColorTransform(icc: Array(good.prefix(132)), layout: .rgb) }
        #expect(throws: CodecError.self) {
            try ColorTransform(icc: [UInt8](repeating: 0x41, count: 2000), layout: .rgb)
        }
        // Garbage whose header gives its own length: lcms2 reads it and says why it is no profile.
        var garbage = [UInt8](repeating: 0x41, count: 2000)
        garbage[0...3] = [0, 0, 0x07, 0xD0]
        let unread = #expect(throws: CodecError.self) { try ColorTransform(icc: garbage, layout: .rgb) }
        #expect(
            unread?.message.hasPrefix("lcms2 cannot read the ICC profile: ") == true, "\(String(describing: unread))")
    }

    @Test("seeded mutations of real profiles give a transform or an error, never a trap")
    func mutatedProfiles() throws {
        var profiles: [(bytes: [UInt8], layout: ColorLayout)] = []
        for (name, layout) in [("adobergb.jpg", ColorLayout.rgb), ("gray.jpg", .gray), ("cmyk.jpg", .cmykInverted)] {
            if let profile = try ImageHeader.read(from: Self.file(name)).color.profile {
                profiles.append((profile, layout))
            }
        }
        #expect(profiles.count == 3)
        var random = SplitMix64(seed: 0x1CC)
        var built = 0
        var refused = 0
        for round in 0..<300 {
            let (original, layout) = profiles[round % profiles.count]
            var bytes = original
            for _ in 0..<(1 + Int(random.next() % 8)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes[at] ^= 0xFF
                default: bytes = Array(bytes.prefix(max(132, at)))
                }
            }
            do {
                let transform = try ColorTransform(icc: bytes, layout: layout)
                // Whatever lcms2 built must run over pixels.
                var image = ImageBuffer(width: 16, height: 1, pixels: (0..<64).map { UInt8($0 * 4) })
                if layout != .cmykInverted { transform.apply(to: &image) }
                built += 1
            } catch {
                refused += 1
            }
        }
        #expect(built + refused == 300)
        #expect(refused > 0, "some mutations must be refused")
    }

    @Test("a PNG written with a profile carries it in iCCP: decoded, the same stored bytes and the same profile")
    func pngCarriesProfile() throws {
        let stored = try ImageDecoder.decode(Self.file("adobergb.jpg"), options: Self.keep)
        let color = stored.header.color
        let png = try PNGEncoder.encode(stored.image, options: color.embedding(in: PNGEncodeOptions()))
        let back = try ImageDecoder.decode(.bytes(png), options: Self.keep)
        #expect(back.image == stored.image)
        #expect(back.header.color.profile == color.profile)
        #expect(back.header.color.origin == .iccProfile)
        // Converted, the PNG shows what the JPEG shows.
        #expect(try ImageDecoder.decode(.bytes(png)).image == ImageDecoder.decode(Self.file("adobergb.jpg")).image)
        // sRGB carries nothing.
        let srgb = try ImageHeader.read(from: Self.file("srgb-tagged.jpg")).color
        #expect(srgb.embedding(in: PNGEncodeOptions()).iccProfile == nil)
    }

    @Test("a lossless crop of a tagged JPEG carries its profile; a crop through the index converts as the file does")
    func entropyIndexCrops() throws {
        let source = Self.file("adobergb.jpg")
        let header = try ImageHeader.read(from: source)
        let index = try JPEGEntropyIndex(source)
        let crop = try index.crop(
            columns: 0..<index.mcuColumns, rows: 0..<index.mcuRows, profile: header.color.profileToEmbed)
        let cropHeader = try ImageHeader.read(from: .bytes(crop))
        #expect(cropHeader.color.profile == header.color.profile)
        let bare = try index.crop(columns: 0..<index.mcuColumns, rows: 0..<index.mcuRows)
        #expect(try ImageHeader.read(from: .bytes(bare)).color.origin == .assumed)

        let rect = PixelRect(x: 16, y: 16, width: 64, height: 48)
        for level in 0...1 {
            let scale = LevelScale.pyramidLevel(level, format: .jpeg)
            let throughIndex = try index.levelRect(rect, level: level, options: DecodeOptions(), color: header.color)
            let reader = try LevelReader(source, format: .jpeg, scale: scale, rect: rect, options: DecodeOptions())
            let (whole, failure) = try reader.readAll()
            #expect(failure == nil)
            #expect(throughIndex == whole, "level \(level)")
            let stored = try index.levelRect(rect, level: level, options: Self.keep, color: header.color)
            #expect(stored != whole, "keep is not converted")
        }
    }

    @Test("one transform serves several threads at once with the same bytes")
    func concurrentUse() async throws {
        let transform = try #require(try ImageHeader.read(from: Self.file("prophoto.jpg")).color.transform)
        let pixels = (0..<(256 * 64 * 4)).map {
            UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) | ($0 % 4 == 3 ? 255 : 0)
        }
        var expected = ImageBuffer(width: 256, height: 64, pixels: pixels)
        transform.apply(to: &expected)
        let results = await withTaskGroup(of: ImageBuffer.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var image = ImageBuffer(width: 256, height: 64, pixels: pixels)
                    for _ in 0..<20 {
                        image = ImageBuffer(width: 256, height: 64, pixels: pixels)
                        transform.apply(to: &image)
                    }
                    return image
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        for image in results { #expect(image == expected) }
    }
}
