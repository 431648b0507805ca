import CImageCodecs
import TileViewCore

extension CodecError {
    /// The error for a shim status other than TV_OK, worded for people.
    init(status: tv_status, error: tv_error, format: ImageFormat?) {
        let text = withUnsafeBytes(of: error.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let name = format?.description ?? "image"
        let lenientHint = error.from_warning != 0 ? " (lenient decoding keeps what could be decoded)" : ""
        func phrased(_ prefix: String) -> String {
            text.lowercased().hasPrefix(prefix.lowercased()) ? prefix + text.dropFirst(prefix.count) : prefix + text
        }
        switch status {
        case TV_ERR_CORRUPT:
            self.init(.corrupt, phrased("corrupt \(name) data: ") + lenientHint)
        case TV_ERR_TRUNCATED:
            self.init(.truncated, phrased("truncated \(name) data: ") + lenientHint)
        case TV_ERR_UNSUPPORTED:
            // libpng's and libjpeg's texts name their format; the other libraries' do not.
            self.init(.unsupported, format == nil || format == .png || format == .jpeg ? text : "\(name): \(text)")
        case TV_ERR_LIMIT:
            self.init(.tooLarge, "\(name) image too large: \(text)")
        case TV_ERR_NOMEM:
            self = .outOfMemory(name, text)
        case TV_ERR_IO:
            self.init(.io, "cannot read the file: \(text)")
        default:
            self.init(.corrupt, "\(name) decoder: \(text)")
        }
    }

    /// The start of an out-of-memory error's message.
    public static let outOfMemoryLead = "not enough memory to decode"

    /// A decode the allocator, or a library's own memory limit, refused (`name`: the format): unlike the file's own
    /// faults, it may succeed when less memory is in use.
    public static func outOfMemory(_ name: String, _ detail: String) -> CodecError {
        CodecError(.tooLarge, "\(outOfMemoryLead) the \(name) image (\(detail))")
    }

    /// Whether this is an `outOfMemory` error.
    public var isOutOfMemory: Bool { kind == .tooLarge && message.hasPrefix(Self.outOfMemoryLead) }

    /// The error for an image whose stored size is over the pixel limit.
    static func overPixelLimit(_ size: PixelSize, limit: Int) -> CodecError {
        CodecError(
            .tooLarge,
            "the image is \(size.width)x\(size.height) = \(size.pixelCount) pixels, over the limit of \(limit) pixels")
    }

    /// Refuses a reader just opened on an image of `width` x `height` stored pixels over `options.maxPixels`, after
    /// `close` has released its decoder.
    static func requireWithinPixelLimit(
        width: UInt32, height: UInt32, _ options: DecodeOptions, close: () -> Void
    ) throws(CodecError) {
        let size = PixelSize(width: Int(width), height: Int(height))
        guard size.pixelCount > options.maxPixels else { return }
        close()
        throw overPixelLimit(size, limit: options.maxPixels)
    }
}

/// The warnings of a decoder as texts, a repeated text once with its tally.
func warningTexts(_ log: OpaquePointer?) -> [String] {
    guard let log else { return [] }
    var texts: [String] = []
    var listed = 0
    for index in 0..<tv_warning_log_distinct(log) {
        let text = String(cString: tv_warning_log_text(log, index))
        let times = Int(tv_warning_log_times(log, index))
        listed += times
        texts.append(times > 1 ? "\(text) (\(times) times)" : text)
    }
    let total = Int(tv_warning_log_total(log))
    if total > listed { texts.append("\(total - listed) more warnings") }
    return texts
}

/// The bytes a shim encoder returned, freed here, or the error it reported (`what`: "PNG", "JPEG"): the one
/// tail of the PNG and JPEG encoders. Out of memory and over libjpeg's size limit are `.tooLarge`.
func encodedBytes(
    status: tv_status, output: UnsafeMutablePointer<UInt8>?, length: Int, error: tv_error, what: String
) throws(CodecError) -> [UInt8] {
    guard let output else {
        try checkEncoder(status: status == TV_OK ? TV_ERR_ARG : status, error: error, what: what)
        return []
    }
    defer { tv_free(output) }
    try checkEncoder(status: status, error: error, what: what)
    return Array(UnsafeBufferPointer(start: output, count: length))
}

/// Throws the error a shim encoder reported, unless `status` is TV_OK.
func checkEncoder(status: tv_status, error: tv_error, what: String) throws(CodecError) {
    guard status != TV_OK else { return }
    let text = withUnsafeBytes(of: error.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let kind: CodecError.Kind = status == TV_ERR_NOMEM || status == TV_ERR_LIMIT ? .tooLarge : .unsupported
    throw CodecError(kind, "cannot write the \(what): \(text)")
}
