import CImageCodecs
import TileViewCore

/// Encodes an RGBA8 buffer as a lossy WebP in memory with libwebp (the server's IIIF `webp` answers).
public enum WebPEncoder {
    /// The WebP file bytes for `image` at `quality` (0...100, libwebp's scale; clamped), keeping its alpha when it
    /// is not opaque. An empty image, or one over 16383 pixels a side (WebP's limit), is refused.
    public static func encode(_ image: ImageBuffer, quality: Int = 90) throws(CodecError) -> [UInt8] {
        guard image.width > 0 && image.height > 0 else {
            throw CodecError(.unsupported, "a \(image.width)x\(image.height) image cannot be written as WebP")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let alpha: Int32 = image.isOpaque ? 0 : 1
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tv_webp_encode(
                pixels.baseAddress, UInt32(image.width), UInt32(image.height), image.rowBytes,
                Int32(min(max(quality, 0), 100)), alpha, &output, &length, &error)
        }
        return try encodedBytes(status: status, output: output, length: length, error: error, what: "WebP")
    }

    /// The largest side libwebp writes.
    public static let maxSide = 16383
}
