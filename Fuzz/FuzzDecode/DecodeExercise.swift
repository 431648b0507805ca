import TileViewCodecs
import TileViewCore

/// One input run through every decoding entry point, with the laws that tie their results together.
///
/// Entry points: format sniffing, `ImageHeader.read`, `ImageDecoder.decode` strict and lenient,
/// the EXIF parser, then per format `DecodeExercise+JPEG` (DCT scales 1/2 ... 1/8, a region at a
/// derived scale and crop, the scanline reader), `DecodeExercise+PNG` (row streaming with
/// skips, a region, a band of rows) or `DecodeExercise+Rows` (the other formats: row streaming with skips, a
/// region). Every decoder gets `maxPixels` so that a small file
/// declaring a huge image is refused before its pixels are allocated.
struct DecodeExercise {
    /// Largest stored width * height decoded here (16 MiB of RGBA per decode), which keeps
    /// the process well under libFuzzer's -rss_limit_mb.
    static let maxPixels = 1 << 22

    /// Largest working memory a decoder may declare for a decode here (`ImageHeader.decoderWorkingBytes`): a
    /// 908-byte TIFF declaring 26,881 samples a pixel asks for a 1.9 GB strip. Every run that draws or decodes plans
    /// it first (`--max-memory`, the server's work budget) and refuses such a file before allocating; here it is
    /// not decoded, as `maxPixels` keeps the pixels under libFuzzer's -rss_limit_mb.
    static let maxWorkingBytes = 256 << 20

    /// An image within `maxPixels` whose decoder would hold more than `maxWorkingBytes`: not decoded here. (One over
    /// `maxPixels` is, to check that the pixel limit refuses it before anything is allocated.)
    static func refusedByMemoryPlan(_ header: ImageHeader) -> Bool {
        header.storedSize.pixelCount <= maxPixels && header.decoderWorkingBytes > maxWorkingBytes
    }

    let bytes: [UInt8]
    var choices: FuzzChoices

    /// Formats whose library may give different pixels for the same damaged file from one decode to the next.
    static let undefinedOnDamage: Set<ImageFormat> = [.heif, .avif]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.choices = FuzzChoices(bytes)
    }

    var source: ImageSource { .bytes(bytes) }

    /// Strict, turned upright: what `tileview decode` does by default.
    static let strictOptions = DecodeOptions(applyOrientation: true, lenient: false, maxPixels: maxPixels)
    /// Strict, stored layout: what the region and streaming paths deliver.
    static let storedOptions = DecodeOptions(applyOrientation: false, lenient: false, maxPixels: maxPixels)
    /// Lenient, stored layout.
    static let lenientStoredOptions = DecodeOptions(applyOrientation: false, lenient: true, maxPixels: maxPixels)

    /// Runs every entry point and returns one line on what the strict decode made of the input.
    mutating func run() -> String {
        exerciseExifParser()
        let header = Result { () throws(CodecError) in try ImageHeader.read(from: source) }
        if case .success(let read) = header, Self.refusedByMemoryPlan(read) {
            return "\(read.format): refused by a memory plan (\(read.decoderWorkingBytes) working bytes)"
        }
        let strict = Result { () throws(CodecError) in try ImageDecoder.decode(source, options: Self.strictOptions) }
        let lenient = Result { () throws(CodecError) in
            try ImageDecoder.decode(source, options: Self.lenientStoredOptions)
        }
        checkAgreement(header: header, strict: strict, lenient: lenient)
        if case .success(let header) = header {
            // The stored-layout full decode, when the strict decode vouches for it.
            let reference: ImageBuffer?
            if case .success = strict, case .success(let decoded) = lenient {
                reference = decoded.image
            } else {
                reference = nil
            }
            switch header.format {
            case .jpeg: exerciseJPEG(header: header, fullStored: reference)
            case .png: exercisePNG(header: header, fullStored: reference, strictSucceeded: (try? strict.get()) != nil)
            default: exerciseRows(header: header, fullStored: reference, strictSucceeded: (try? strict.get()) != nil)
            }
        }
        return Self.describe(header: header, strict: strict)
    }

    /// Laws between the header, the strict decode and the lenient decode of the same bytes.
    private func checkAgreement(
        header: Result<ImageHeader, CodecError>, strict: Result<DecodedImage, CodecError>,
        lenient: Result<DecodedImage, CodecError>
    ) {
        guard case .success(let header) = header else {
            // Decoders open the input as the header reader does, so they cannot do better.
            law((try? strict.get()) == nil, "the header cannot be read but the strict decode succeeds")
            law((try? lenient.get()) == nil, "the header cannot be read but the lenient decode succeeds")
            return
        }
        if header.format == .jpeg {
            // Two readers of the Exif orientation: the Swift marker walk and libjpeg's saved APP1.
            let walked = ExifOrientationParser.orientation(inJPEG: bytes) ?? .up
            law(walked == header.orientation, "Exif orientation: marker walk \(walked), header \(header.orientation)")
        }
        if case .success(let decoded) = strict {
            law(decoded.header == header, "the decode's header \(decoded.header) differs from the header \(header)")
            law(
                decoded.image.size == header.orientedSize,
                "decoded \(decoded.image.size), the header says \(header.orientedSize) upright")
            guard case .success(let relaxed) = lenient else {
                fatalError("law broken: the strict decode succeeds but the lenient one fails")
            }
            // libheif with libde265 leaves the pixels of some damaged HEVC data undefined (uninitialised memory:
            // heif-convert's own output changes with MALLOC_PERTURB_ on Fuzz/reproducers/heic-damaged-*.heic),
            // so two decodes of one HEIF need not agree; every other decoder's must.
            if !Self.undefinedOnDamage.contains(header.format) {
                law(
                    relaxed.image.applying(header.orientation) == decoded.image,
                    "the lenient decode's pixels differ from the strict decode's")
            }
        }
        if case .success(let relaxed) = lenient {
            law(relaxed.image.size == header.storedSize, "lenient decode \(relaxed.image.size) of \(header.storedSize)")
        }
    }

    /// The EXIF parser on the raw bytes and on slices of them read as TIFF structures.
    private mutating func exerciseExifParser() {
        _ = ExifOrientationParser.exifValue(inJPEG: bytes)
        let starts = [0, choices.pick(0...bytes.count)]
        for start in starts where start <= bytes.count {
            let tiff = bytes[start...]
            let value = ExifOrientationParser.exifValue(inTIFF: Array(tiff))
            law((value ?? 0) >= 0 && (value ?? 0) <= 0xFFFF, "an Exif SHORT read as \(value ?? 0)")
            let orientation = ExifOrientationParser.orientation(inTIFF: Array(tiff))
            law(
                orientation == value.map(ImageOrientation.init(exifValue:)),
                "orientation(inTIFF:) \(String(describing: orientation)) disagrees with exifValue \(String(describing: value))"
            )
        }
    }

    /// One line for the replayer: format, size and the strict decode's outcome.
    private static func describe(header: Result<ImageHeader, CodecError>, strict: Result<DecodedImage, CodecError>)
        -> String
    {
        switch (header, strict) {
        case (.failure(let error), _):
            return "no header: \(error.kind.rawValue): \(error.message)"
        case (.success(let header), .success(let decoded)):
            let warnings = decoded.warnings.isEmpty ? "" : " (\(decoded.warnings.count) warnings)"
            return "\(header.format) \(header.storedSize) \(header.colorType)/\(header.bitDepth): decoded\(warnings)"
        case (.success(let header), .failure(let error)):
            return "\(header.format) \(header.storedSize): \(error.kind.rawValue): \(error.message)"
        }
    }
}

extension DecodeExercise {
    /// `count` zeroed bytes that `read` fills (rows read before an error stay, the rest zero), and the error's kind
    /// and message as `describe` words them.
    static func zeroedRows(
        _ count: Int, describe: (CodecError) -> String = { "\($0.kind): \($0.message)" },
        _ read: (UnsafeMutableRawBufferPointer) throws(CodecError) -> Void
    ) -> (rows: [UInt8], error: String?) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        var failure: String? = nil
        do throws(CodecError) { try read(buffer) } catch { failure = describe(error) }
        return ([UInt8](buffer.prefix(count)), failure)
    }
}
