import CImageCodecs
import TileViewCore

/// Encodes an RGBA8 buffer as an 8-bit PNG in memory with libpng.
public enum PNGEncoder {
    /// The PNG file bytes for `image`. Rows are handed to libpng straight from the buffer (RGB
    /// drops the alpha byte inside libpng; gray converts one row at a time).
    public static func encode(_ image: ImageBuffer, options: PNGEncodeOptions = PNGEncodeOptions()) throws(CodecError)
        -> [UInt8]
    {
        guard image.width > 0 && image.height > 0 else {
            throw CodecError(.unsupported, "a \(image.width)x\(image.height) image cannot be written as PNG")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tv_png_encode(
                pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                options.colorType.pngColorType(opaque: image.isOpaque), options.compression.zlibLevel,
                options.compression.shimDeflate, options.filter.shimFilter,
                options.interlaced ? 1 : 0, &output, &length, &error)
        }
        let bytes = try encodedBytes(status: status, output: output, length: length, error: error, what: "PNG")
        return try withProfile(bytes, options: options)
    }

    /// `png` with an iCCP chunk of `options.iccProfile` after its IHDR (unchanged without a profile).
    public static func withProfile(_ png: [UInt8], options: PNGEncodeOptions) throws(CodecError) -> [UInt8] {
        guard let profile = options.iccProfile, !profile.isEmpty else { return png }
        // Signature (8) and IHDR (4 + 4 + 13 + 4): the encoders write IHDR first, always 13 bytes.
        let afterHeader = 33
        precondition(png.count > afterHeader, "an encoder's PNG holds at least its signature and IHDR")
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = profile.withUnsafeBufferPointer {
            tv_png_iccp_chunk($0.baseAddress, $0.count, options.iccProfileName, &output, &length, &error)
        }
        let chunk = try encodedBytes(status: status, output: output, length: length, error: error, what: "PNG")
        return Array(png[..<afterHeader]) + chunk + png[afterHeader...]
    }
}

/// A PNG encoded a few rows at a time, so that the rows at the top of an image can be compressed while the rows
/// below are still being drawn: `write` every row top to bottom (`passes` times over for Adam7), then `finish`.
/// Given the same rows and options the bytes are `PNGEncoder.encode`'s, the colour type being the one `opaque`
/// names (`auto`: RGB when `opaque`, else RGBA). Not thread-safe: one thread at a time.
public final class PNGRowEncoder {
    public let width: Int
    public let height: Int
    /// How many times every row is written: 7 for Adam7, else 1.
    public let passes: Int
    private var encoder: OpaquePointer?
    private let options: PNGEncodeOptions

    public init(width: Int, height: Int, opaque: Bool, options: PNGEncodeOptions = PNGEncodeOptions())
        throws(CodecError)
    {
        guard width > 0 && height > 0, let w = UInt32(exactly: width), let h = UInt32(exactly: height) else {
            throw CodecError(.unsupported, "a \(width)x\(height) image cannot be written as PNG")
        }
        self.width = width
        self.height = height
        self.options = options
        var error = tv_error()
        var passes: Int32 = 0
        let status = tv_png_row_encoder_begin(
            w, h, options.colorType.pngColorType(opaque: opaque), options.compression.zlibLevel,
            options.compression.shimDeflate, options.filter.shimFilter,
            options.interlaced ? 1 : 0, &encoder, &passes, &error)
        self.passes = Int(passes)
        try Self.check(status, error)
    }

    deinit { tv_png_row_encoder_free(encoder) }

    /// Compresses the next `count` rows, `rowBytes` apart from `rows` (RGBA8, `width` pixels each).
    public func write(_ rows: UnsafePointer<UInt8>, rowBytes: Int, count: Int) throws(CodecError) {
        guard count > 0 else { return }
        var error = tv_error()
        try Self.check(tv_png_row_encoder_write(encoder, rows, rowBytes, UInt32(count), &error), error)
    }

    /// The file bytes, once every row is written.
    public func finish() throws(CodecError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = tv_png_row_encoder_end(encoder, &output, &length, &error)
        let bytes = try encodedBytes(status: status, output: output, length: length, error: error, what: "PNG")
        return try PNGEncoder.withProfile(bytes, options: options)
    }

    private static func check(_ status: tv_status, _ error: tv_error) throws(CodecError) {
        try checkEncoder(status: status, error: error, what: "PNG")
    }
}
