import CImageCodecs
import TileViewCore

/// Encodes an RGBA8 buffer as a baseline 8-bit JPEG (JFIF) in memory with libjpeg-turbo.
///
/// Colour output is YCbCr with 4:2:0 chroma subsampling; gray output has one component. Both use
/// the ISLOW DCT and the standard Huffman tables (no optimisation pass), so the same pixels and
/// options always give the same bytes.
public enum JPEGEncoder {
    /// The JPEG file bytes for `image`. Rows go to libjpeg straight from the buffer, which skips
    /// the alpha byte; when the image is not opaque, it is first composited over
    /// `options.background` (source over, rounded to nearest). `options.quality` is clamped to
    /// 1...100. An empty image, or one over 65500 pixels wide or high, is refused.
    public static func encode(_ image: ImageBuffer, options: JPEGEncodeOptions = JPEGEncodeOptions()) throws(CodecError)
        -> [UInt8]
    {
        guard image.width > 0 && image.height > 0 else {
            throw CodecError(.unsupported, "a \(image.width)x\(image.height) image cannot be written as JPEG")
        }
        let source = image.isOpaque ? image : flattened(image, over: options.background)
        let quality = Int32(min(max(options.quality, 1), 100))
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = source.pixels.withUnsafeBufferPointer { pixels in
            tv_jpeg_encode(
                pixels.baseAddress, UInt32(source.width), UInt32(source.height), source.rowBytes, quality,
                options.grayscale ? 1 : 0, &output, &length, &error)
        }
        return try encodedBytes(status: status, output: output, length: length, error: error, what: "JPEG")
    }

    /// `image` composited over the opaque colour `background`:
    /// c = round((c * a + background * (255 - a)) / 255), alpha 255.
    static func flattened(_ image: ImageBuffer, over background: RGBA8) -> ImageBuffer {
        var pixels = image.pixels
        let back = (Int(background.r), Int(background.g), Int(background.b))
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Int(p[i + 3])
                if a != 255 {
                    let rest = 255 - a
                    p[i] = UInt8((Int(p[i]) * a + back.0 * rest + 127) / 255)
                    p[i + 1] = UInt8((Int(p[i + 1]) * a + back.1 * rest + 127) / 255)
                    p[i + 2] = UInt8((Int(p[i + 2]) * a + back.2 * rest + 127) / 255)
                    p[i + 3] = 255
                }
                i += 4
            }
        }
        return ImageBuffer(width: image.width, height: image.height, pixels: pixels)
    }
}
