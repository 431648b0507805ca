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
        let colorType: Int32
        switch options.colorType {
        case .auto: colorType = image.isOpaque ? 2 : 6
        case .gray: colorType = 0
        case .rgb: colorType = 2
        case .rgba: colorType = 6
        }
        let filter: tv_png_filter
        switch options.filter {
        case .none: filter = TV_PNG_FILTER_NONE
        case .sub: filter = TV_PNG_FILTER_SUB
        case .up: filter = TV_PNG_FILTER_UP
        case .average: filter = TV_PNG_FILTER_AVERAGE
        case .paeth: filter = TV_PNG_FILTER_PAETH
        case .adaptive: filter = TV_PNG_FILTER_ADAPTIVE
        }
        let level = Int32(min(max(options.compressionLevel, 0), 9))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tv_png_encode(
                pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes, colorType, level,
                filter, options.interlaced ? 1 : 0, &output, &length, &error)
        }
        return try encodedBytes(status: status, output: output, length: length, error: error, what: "PNG")
    }
}
