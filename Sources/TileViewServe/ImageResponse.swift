import TileView

/// How a served image is turned after it is rendered, and how it is written (IIIF `rotation`, `quality`,
/// `format`; Deep Zoom tiles are plain JPEG).
public struct ImageOutput: Hashable, Sendable {
    public enum Format: String, Sendable { case jpg, png }

    /// Clockwise quarter turns, 0 to 3, applied after `mirrored`.
    public var quarterTurns: Int = 0
    /// Flipped left to right before turning.
    public var mirrored = false
    public var gray = false
    public var format: Format = .jpg

    public init(quarterTurns: Int = 0, mirrored: Bool = false, gray: Bool = false, format: Format = .jpg) {
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.mirrored = mirrored
        self.gray = gray
        self.format = format
    }

    /// The media type IIIF names for the format.
    public var mediaType: String { format == .jpg ? "image/jpeg" : "image/png" }
}

/// Renders a region of an image file at a size and encodes it: the whole answer to an image request, done
/// on a worker thread (see `BlockingWork`).
public enum ImageResponse {
    /// The JPEG quality of served images.
    public static let jpegQuality = 90

    /// `region` (oriented image pixels) of `image` scaled to exactly `size`, turned and encoded as `output` asks.
    /// With no tile cache the frame is rendered straight from the decoder (only the rows and columns the region
    /// needs). Errors name the image by `identifier`.
    ///
    /// A plain JPEG answer of a region at its own size whose edges lie on the MCU grid of an upright baseline
    /// JPEG (every level-0 tile of one, and `full/max` of a small one) is the file's own coefficients, cut
    /// without decoding (`TiledImage.losslessJPEGCrop`): no second generation of loss, and about a third of
    /// the work of a decode and an encode.
    public static func render(
        _ image: TiledImage, identifier: String, region: PixelRect, size: PixelSize, output: ImageOutput
    ) throws(TileViewError) -> [UInt8] {
        if output == ImageOutput(format: .jpg), size == region.size, let crop = try image.losslessJPEGCrop(region) {
            return crop
        }
        var pixels = try image.render(region: region, size: size).image
        if output.mirrored { pixels = pixels.applying(.upMirrored) }
        switch output.quarterTurns {
        case 1: pixels = pixels.applying(.right)
        case 2: pixels = pixels.applying(.down)
        case 3: pixels = pixels.applying(.left)
        default: break
        }
        if output.gray { pixels = grayscale(pixels) }
        do throws(CodecError) {
            switch output.format {
            case .png:
                return try PNGEncoder.encode(pixels)
            case .jpg:
                return try JPEGEncoder.encode(
                    pixels, options: JPEGEncodeOptions(quality: jpegQuality, grayscale: output.gray))
            }
        } catch {
            throw TileViewError(.write, path: identifier, reason: "cannot encode the image: \(error.message)")
        }
    }

    /// Luma of each pixel (ITU-R BT.601 weights, rounded) in R, G and B; alpha kept.
    public static func grayscale(_ image: ImageBuffer) -> ImageBuffer {
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let y = (77 * Int(p[i]) + 150 * Int(p[i + 1]) + 29 * Int(p[i + 2]) + 128) >> 8
                p[i] = UInt8(y)
                p[i + 1] = UInt8(y)
                p[i + 2] = UInt8(y)
                i += 4
            }
        }
        return out
    }
}
