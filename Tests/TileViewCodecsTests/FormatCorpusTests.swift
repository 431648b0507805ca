import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// WebP, HEIF, AVIF, TIFF and GIF files against what libvips decodes them to (docs/design.md section 15;
/// `Tests/Corpus/formats`, made by `scripts/make-format-corpus.sh`).
@Suite("Formats corpus")
struct FormatCorpusTests {
    static let valid = FormatCorpus.records.filter { $0.expected == "ok" }.map(\.file)
    static let refused = FormatCorpus.records.filter { $0.expected == "error" }.map(\.file)
    static let damaged = FormatCorpus.records.filter { $0.expected == "ok-lossy" }.map(\.file)

    static let stored = DecodeOptions(applyOrientation: false, color: .keep)

    static func format(_ name: String) -> ImageFormat? {
        ImageFormat(rawValue: name)
    }

    /// The largest difference of any byte between two equal-sized buffers.
    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// The pixels `hash` names, or within `tolerance` of the reference PNG where there is one.
    static func check(
        _ image: ImageBuffer, hash: String?, reference: String?, tolerance: Int, _ record: FormatRecord,
        _ what: String
    ) throws {
        let actual = SHA256.hex(image.pixels)
        if actual == hash { return }
        guard let reference, tolerance > 0 else {
            Issue.record("\(record) \(what): SHA-256 \(actual), the reference is \(hash ?? "none")")
            return
        }
        let expected = try PNGDecoder.decode(
            .file(path: FormatCorpus.root.appendingPathComponent(reference).path), options: stored
        ).image
        try #require(expected.size == image.size, "\(record) \(what): \(image.size), reference \(expected.size)")
        let difference = maxDifference(expected.pixels, image.pixels)
        #expect(difference <= tolerance, "\(record) \(what): differs by \(difference), tolerance \(tolerance)")
    }

    @Test("every valid file: its format, size, orientation and page count from the header, and libvips' pixels")
    func valid() throws {
        for file in Self.valid {
            let record = FormatCorpus.record(file)
            let header = try ImageHeader.read(from: .file(path: record.url.path))
            // A file named for another format (bad/*-named.*) is what its bytes are.
            if let expected = Self.format(record.format) {
                #expect(header.format == expected, "\(record): \(header.format)")
            }
            #expect(header.storedSize == PixelSize(width: record.width ?? -1, height: record.height ?? -1), "\(record)")
            #expect(header.orientation.rawValue == (record.orientation ?? 1), "\(record): \(header.orientation)")
            if let frames = record.frames { #expect(header.frames == frames, "\(record): \(header.frames) frames") }
            if let depth = record.bitDepth, header.format != .gif {
                #expect(header.bitDepth == depth, "\(record): \(header.bitDepth)-bit")
            }
            // A CMYK file's reference is its inks converted to sRGB through its profile.
            var options = Self.stored
            if record.color == "cmyk" { options.color = .srgb }
            let decoded = try ImageDecoder.decode(.file(path: record.url.path), options: options)
            try Self.check(
                decoded.image, hash: record.sha256Rgba8, reference: record.referencePng,
                tolerance: record.tolerance ?? 0, record, "stored values")
            var upright = options
            upright.applyOrientation = true
            let turned = try ImageDecoder.decode(.file(path: record.url.path), options: upright)
            #expect(
                turned.image.size
                    == PixelSize(width: record.orientedWidth ?? -1, height: record.orientedHeight ?? -1),
                "\(record): upright \(turned.image.size)")
            #expect(turned.image == decoded.image.applying(header.orientation), "\(record): upright pixels")
        }
    }

    @Test("a file with a profile is converted to sRGB as lcms2 converts it, and keeps its stored values with keep")
    func profiles() throws {
        let tagged = FormatCorpus.records.filter { $0.expected == "ok" && $0.sha256Rgba8Srgb != nil }
        #expect(tagged.count >= 4, "the corpus has tagged WebP, HEIF, AVIF and TIFF files")
        for record in tagged {
            let header = try ImageHeader.read(from: .file(path: record.url.path))
            #expect(header.color.origin == .iccProfile, "\(record): \(header.color.name)")
            let converted = try ImageDecoder.decode(
                .file(path: record.url.path), options: DecodeOptions(applyOrientation: false, color: .srgb))
            try Self.check(
                converted.image, hash: record.sha256Rgba8Srgb, reference: record.referencePngSrgb,
                tolerance: record.toleranceSrgb ?? 0, record, "converted to sRGB")
            let kept = try ImageDecoder.decode(.file(path: record.url.path), options: Self.stored)
            #expect(kept.image != converted.image, "\(record): the profile changed nothing")
        }
    }

    @Test("truncated, damaged and oversized files are refused with one line naming the format, strict or lenient")
    func refused() throws {
        for file in Self.refused {
            let record = FormatCorpus.record(file)
            for lenient in [false, true] {
                let options = DecodeOptions(applyOrientation: false, lenient: lenient)
                do throws(CodecError) {
                    let decoded = try ImageDecoder.decode(.file(path: record.url.path), options: options)
                    // Lenient decoding may keep what decoded of a damaged file, at its size.
                    #expect(lenient && record.category != "huge-claim", "\(record) decoded")
                    #expect(decoded.image.size.pixelCount == (record.width ?? 0) * (record.height ?? 0))
                } catch {
                    let name = Self.format(record.format)!.description
                    let named =
                        error.message.contains(name) || error.message.contains("pixels, over the limit")
                        || (record.format == "avif" && error.message.contains("HEIF"))
                    #expect(named, "\(record): \(error.message)")
                    // One line, as a library's message is passed on (libheif ends its own with a newline).
                    #expect(
                        !error.message.contains(where: \.isNewline) && error.message.last?.isWhitespace == false,
                        "\(record): \(error.message.debugDescription)")
                    // Over the pixel limit, or a size the format cannot have (WebP's sides stop at 16383).
                    if record.category == "huge-claim" {
                        #expect([.tooLarge, .corrupt].contains(error.kind), "\(record): \(error)")
                    }
                }
            }
        }
    }

    @Test("damaged data decodes to a picture of its size or is refused, never anything else")
    func damaged() throws {
        for file in Self.damaged {
            let record = FormatCorpus.record(file)
            for lenient in [false, true] {
                let options = DecodeOptions(applyOrientation: false, lenient: lenient)
                if let decoded = try? ImageDecoder.decode(.file(path: record.url.path), options: options) {
                    #expect(decoded.image.size == PixelSize(width: record.width ?? -1, height: record.height ?? -1))
                }
            }
        }
    }

    @Test("rows read in runs with skips, and regions at every level, equal the whole decode's")
    func rowsAndRegions() throws {
        var random = SplitMix64(seed: 15)
        for file in Self.valid {
            let record = FormatCorpus.record(file)
            let source = ImageSource.file(path: record.url.path)
            let whole = try ImageDecoder.decode(source, options: Self.stored).image
            let format = try ImageHeader.read(from: source).format
            let reader = try ImageRowReader(source, format: format, options: Self.stored)
            let rowBytes = whole.width * 4
            var rows = [UInt8](repeating: 0, count: whole.pixels.count)
            var delivered: [Int] = []
            while reader.remainingRows > 0 {
                let count = Int(random.next() % 7) + 1
                let first = reader.nextRow
                if random.next() % 3 == 0 {
                    try reader.skipRows(count)
                } else {
                    let result = rows.withUnsafeMutableBytes { raw in
                        Result { () throws(CodecError) -> Int in
                            try reader.readRows(
                                count, into: UnsafeMutableRawBufferPointer(rebasing: raw[(first * rowBytes)...]),
                                rowBytes: rowBytes)
                        }
                    }
                    let got = try result.get()
                    delivered += first..<(first + got)
                }
            }
            try reader.finish()
            for row in delivered {
                let range = (row * rowBytes)..<((row + 1) * rowBytes)
                #expect(rows[range] == whole.pixels[range], "\(record): row \(row)")
            }
            for level in 0..<3 {
                let scale = LevelScale.pyramidLevel(level, format: format)
                let size = scale.levelSize(ofStored: whole.size)
                let rect = PixelRect(
                    x: Int(random.next() % UInt64(size.width)), y: Int(random.next() % UInt64(size.height)),
                    width: Int(random.next() % UInt64(size.width)) + 1,
                    height: Int(random.next() % UInt64(size.height)) + 1)
                let reference = BoxReducer.reduce(whole, factor: 1 << level)
                let clipped = rect.intersection(PixelRect(size: size))!
                let fromFile = try LevelReader(source, scale: scale, rect: rect, options: Self.stored).readAll().image
                #expect(fromFile == reference.cropped(to: clipped), "\(record): level \(level) \(rect)")
                let kept = try WholeImage(source, format: format, options: Self.stored)
                let fromWhole = try LevelReader(whole: kept, scale: scale, rect: rect).readAll().image
                #expect(fromWhole == fromFile, "\(record): level \(level) \(rect) from the kept decode")
            }
        }
    }

    @Test("a pyramid TIFF's levels come from its reduced copies where a copy is exactly the level, and libvips agrees")
    func pyramids() throws {
        let pyramids = FormatCorpus.records.filter { $0.levels != nil }
        #expect(pyramids.count == 3, "pages (YCbCr and RGB tiles) and SubIFDs")
        for record in pyramids {
            let source = ImageSource.file(path: record.url.path)
            let header = try ImageHeader.read(from: source)
            #expect(header.storedLevels == record.levels!.map { PixelSize(width: $0[0], height: $0[1]) }, "\(record)")
            let hashes = try #require(record.levelsSha256Rgba8)
            for level in 0...4 {
                let scale = LevelScale.pyramidLevel(level, header: header)
                let size = scale.levelSize(ofStored: header.storedSize)
                #expect(size == BoxReducer.reducedSize(of: header.storedSize, factor: 1 << level), "\(record) \(level)")
                // 150x112 is not level 3 (150x113): level 3 is made from the 300x225 copy.
                let expectedStored = [0, 1, 2, 2, 2][level]
                #expect(scale.storedLevel == expectedStored, "\(record) level \(level): \(scale)")
                let rect = PixelRect(size: size)
                let pixels = try LevelReader(source, scale: scale, rect: rect, options: Self.stored).readAll().image
                if scale.storedLevel > 0 && scale.boxFactor == 1 {
                    #expect(SHA256.hex(pixels.pixels) == hashes[scale.storedLevel - 1], "\(record) level \(level)")
                }
                // A region of the level equals that rect of the whole level, through the tiles it reads.
                let part = PixelRect(
                    x: size.width / 3, y: size.height / 4, width: size.width / 2, height: size.height / 3)
                let region = try LevelReader(source, scale: scale, rect: part, options: Self.stored).readAll().image
                #expect(region == pixels.cropped(to: part), "\(record) level \(level) \(part)")
            }
            // The stored copy is used: it is not the first page box-reduced.
            let reduced = BoxReducer.reduce(try ImageDecoder.decode(source, options: Self.stored).image, factor: 2)
            #expect(SHA256.hex(reduced.pixels) != hashes[0])
        }
    }

    @Test("bytes in memory decode as the file does")
    func fromMemory() throws {
        for file in Self.valid {
            let record = FormatCorpus.record(file)
            let bytes = try [UInt8](Data(contentsOf: record.url))
            let fromFile = try ImageDecoder.decode(.file(path: record.url.path), options: Self.stored)
            let fromBytes = try ImageDecoder.decode(.bytes(bytes), options: Self.stored)
            // The same header, but for the file's bytes a WebP decoder holds when it reads a file into memory.
            var header = fromBytes.header
            header.decoderWorkingBytes = fromFile.header.decoderWorkingBytes
            #expect(fromBytes.image == fromFile.image && header == fromFile.header, "\(record)")
        }
    }
}

@Suite("WebP encoder")
struct WebPEncoderTests {
    @Test("libwebp writes what libwebp reads back: the size, the alpha, pixels within lossy bounds")
    func roundTrip() throws {
        var random = SplitMix64(seed: 7)
        for (width, height, opaque) in [(1, 1, true), (17, 9, false), (128, 96, true), (300, 7, false)] {
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    pixels[i] = UInt8(x * 255 / max(1, width - 1))
                    pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
                    pixels[i + 2] = UInt8(truncatingIfNeeded: random.next() % 16 + 100)
                    pixels[i + 3] = opaque ? 255 : UInt8(x % 2 == 0 ? 255 : 128)
                }
            }
            let image = ImageBuffer(width: width, height: height, pixels: pixels)
            let bytes = try WebPEncoder.encode(image, quality: 95)
            #expect(ImageFormat.sniff(Array(bytes.prefix(32))) == .webp)
            let decoded = try ImageDecoder.decode(.bytes(bytes), options: DecodeOptions(color: .keep)).image
            #expect(decoded.size == image.size)
            #expect(decoded.isOpaque == opaque, "\(width)x\(height)")
            let total = zip(decoded.pixels, pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(total) / Double(pixels.count) < 6, "\(width)x\(height): mean difference")
        }
    }

    @Test("an empty image, or one past WebP's 16383 pixels a side, is refused")
    func limits() {
        #expect(throws: CodecError.self) { try WebPEncoder.encode(ImageBuffer(width: 0, height: 0)) }
        #expect(throws: CodecError.self) { try WebPEncoder.encode(ImageBuffer(width: 16384, height: 1)) }
    }
}
