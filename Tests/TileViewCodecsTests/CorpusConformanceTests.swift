import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// Every file of the conformance corpus against its reference decode (docs/design.md section 8).
@Suite("Corpus conformance")
struct CorpusConformanceTests {
    /// The kinds of error a refused file of the manifest's category may give: what is wrong with it, as the manifest
    /// says. A file whose first bytes are not a PNG or JPEG signature is an unknown format whatever its category.
    static func errorKinds(of record: CorpusRecord) -> Set<CodecError.Kind> {
        switch record.file {
        case "bad/xs1n0g01.png", "bad/gen_garbage_before_soi.jpg": return [.unknownFormat]
        default: break
        }
        switch record.category {
        case "empty-file": return [.empty]
        case "truncated": return [.truncated]
        // A chunk length past the file's end: cut short.
        case "png-crasher" where record.file.contains("huge_"): return [.truncated]
        case "png-crc", "png-corrupt-data", "png-crasher", "pngsuite-corrupt", "jpeg-corrupt-header": return [.corrupt]
        // Bad entropy data is corrupt; data that ends inside a scan is cut short.
        case "jpeg-corrupt-entropy": return [.corrupt, .truncated]
        case "mislabeled": return [.corrupt, .unknownFormat]
        default: return []
        }
    }

    @Test(
        "a valid file decodes to exactly the reference pixels; an invalid one throws", arguments: CorpusManifest.records
    )
    func corpusFile(_ record: CorpusRecord) throws {
        let source = ImageSource.file(path: record.url.path)
        guard record.isValid else {
            let error = #expect(throws: CodecError.self, "\(record.file) must be refused") {
                try ImageDecoder.decode(source)
            }
            if let error {
                #expect(!error.message.isEmpty)
                let kinds = Self.errorKinds(of: record)
                #expect(
                    kinds.contains(error.kind), "\(record.file) (\(record.category ?? "")): \(error.kind), \(error)")
            }
            return
        }
        // The corpus holds stored values (docs/design.md section 8): no colour management.
        let decoded = try ImageDecoder.decode(source, options: DecodeOptions(color: .keep))
        #expect(decoded.image.width == record.expectedOrientedWidth, "\(record.file)")
        #expect(decoded.image.height == record.expectedOrientedHeight, "\(record.file)")
        #expect(SHA256.hex(decoded.image.pixels) == record.expectedOrientedHash, "\(record.file) oriented pixels")

        let header = try ImageHeader.read(from: source)
        #expect(header == decoded.header, "\(record.file): the header alone equals the decoder's")
        // No cost for sRGB: a file whose colours are sRGB's (untagged, an sRGB chunk or profile) converts to the
        // same bytes; one that is not converts to others.
        let managed = try ImageDecoder.decode(source)
        if header.color.isSRGB {
            #expect(managed.image.pixels == decoded.image.pixels, "\(record.file) (\(header.color.name))")
        } else {
            #expect(header.color.transform != nil, "\(record.file) (\(header.color.name))")
        }
        #expect(
            header.storedSize == PixelSize(width: record.width ?? -1, height: record.height ?? -1), "\(record.file)")
        #expect(header.format.rawValue == record.format, "\(record.file)")

        if record.sha256Rgba8Oriented != nil {
            let stored = try ImageDecoder.decode(source, options: DecodeOptions(applyOrientation: false, color: .keep))
            #expect(stored.image.size == header.storedSize, "\(record.file)")
            #expect(SHA256.hex(stored.image.pixels) == record.sha256Rgba8, "\(record.file) stored pixels")
        }
        if header.format == .jpeg {
            let bytes = try Fixtures.bytes(record.url)
            #expect(ExifOrientationParser.exifValue(inJPEG: bytes) == record.exifOrientation, "\(record.file)")
            #expect(header.orientation == ImageOrientation(exifValue: record.exifOrientation ?? 1), "\(record.file)")
        }
    }

    @Test("decoding from memory equals decoding from the file", arguments: CorpusManifest.records.filter(\.isValid))
    func memoryEqualsFile(_ record: CorpusRecord) throws {
        let bytes = try Fixtures.bytes(record.url)
        let fromMemory = try ImageDecoder.decode(.bytes(bytes), options: DecodeOptions(applyOrientation: false))
        let fromFile = try ImageDecoder.decode(
            .file(path: record.url.path), options: DecodeOptions(applyOrientation: false))
        #expect(fromMemory.image == fromFile.image, "\(record.file)")
        #expect(fromMemory.header == fromFile.header, "\(record.file)")
    }

    @Test(
        "lenient decoding keeps the pixels of warning-only JPEGs and reports the warning",
        arguments: CorpusManifest.records.filter { $0.lenientSha256Rgba8 != nil })
    func lenientPixels(_ record: CorpusRecord) throws {
        let decoded = try ImageDecoder.decode(
            .file(path: record.url.path), options: DecodeOptions(lenient: true, color: .keep))
        #expect(decoded.image.width == record.lenientWidth && decoded.image.height == record.lenientHeight)
        #expect(SHA256.hex(decoded.image.pixels) == record.lenientSha256Rgba8, "\(record.file)")
        #expect(!decoded.warnings.isEmpty, "\(record.file) must carry its libjpeg warning")
    }
}
