import TileView

/// How a served image is turned after it is rendered, and how it is written (IIIF `rotation`, `quality`,
/// `format`; Deep Zoom tiles are plain JPEG).
public struct ImageOutput: Hashable, Sendable {
    public enum Format: String, Sendable { case jpg, png, webp }

    /// Clockwise quarter turns, 0 to 3, applied after `mirrored`.
    public var quarterTurns: Int = 0
    /// Flipped left to right before turning.
    public var mirrored = false
    public var gray = false
    public var format: Format = .jpg

    public init(quarterTurns: Int = 0, mirrored: Bool = false, gray: Bool = false, format: Format = .jpg) {
        self.quarterTurns = normalizedQuarterTurns(quarterTurns)
        self.mirrored = mirrored
        self.gray = gray
        self.format = format
    }

    /// The media type IIIF names for the format.
    public var mediaType: String {
        switch format {
        case .jpg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }
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
    /// the work of a decode and an encode. A plain JPEG answer that is exactly one whole stored tile of a TIFF
    /// (a pyramid level's or its first page's, JPEG-compressed) is that tile's own bytes (`TiledImage
    /// .storedJPEGTile`), as iipsrv answers it.
    public static func render(
        _ image: TiledImage, identifier: String, region: PixelRect, size: PixelSize, output: ImageOutput
    ) throws(TileViewError) -> [UInt8] {
        try render(image, identifier: identifier, plan: image.plan(region: region, size: size), output: output)
    }

    /// `render` of a region planned already (`TiledImage.plan(region:size:)`).
    public static func render(
        _ image: TiledImage, identifier: String, plan: RegionPlan, output: ImageOutput
    ) throws(TileViewError) -> [UInt8] {
        if isLosslessCandidate(plan.region, plan.size, output), let crop = try image.losslessJPEGCrop(plan.region) {
            return crop
        }
        if output == ImageOutput(format: .jpg),
            let tile = try image.storedJPEGTile(region: plan.region, size: plan.size)
        {
            return tile
        }
        var pixels = try image.render(plan).image
        if output.mirrored { pixels = pixels.applying(.upMirrored) }
        switch output.quarterTurns {
        case 1: pixels = pixels.applying(.right)
        case 2: pixels = pixels.applying(.down)
        case 3: pixels = pixels.applying(.left)
        default: break
        }
        if output.gray { pixels = grayscale(pixels) }
        // The frame's memory is this thread's to draw its next frame in (`RenderBlocks`).
        defer { RenderBlocks.keep(.frame, pixels.pixels) }
        do throws(CodecError) {
            switch output.format {
            case .png:
                return try PNGEncoder.encode(pixels)
            case .jpg:
                return try JPEGEncoder.encode(
                    pixels, options: JPEGEncodeOptions(quality: jpegQuality, grayscale: output.gray))
            case .webp:
                return try WebPEncoder.encode(pixels, quality: jpegQuality)
            }
        } catch {
            throw TileViewError(.write, path: identifier, reason: "cannot encode the image: \(error.message)")
        }
    }

    /// Whether an answer may be a lossless crop of the file (`TiledImage.losslessJPEGCrop` says whether it is).
    static func isLosslessCandidate(_ region: PixelRect, _ size: PixelSize, _ output: ImageOutput) -> Bool {
        output == ImageOutput(format: .jpg) && size == region.size
            && region.pixelCount <= TiledImage.losslessCropMaxPixels
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

/// An image request resolved against an open image, and what answering it holds in memory at its peak, worked out
/// before any pixel memory (docs/design.md section 18): the render's plan (`RegionPlan`), the turned or gray copy, the
/// encoder's buffers, and, for a JPEG whose entropy index the answer needs and that is not built yet, the indexing
/// pass. The image is used by one thread at a time: opened and planned on one, rendered on another.
struct ImageRequestPlan: @unchecked Sendable {
    /// What a request asks for, in image pixels.
    struct Wanted: Sendable {
        /// The part of the oriented image, in full-size pixels (IIIF's region, already clipped to the image).
        let region: PixelRect
        /// The answer's size before any turn (IIIF's size applied to `region`).
        let size: PixelSize
        /// The format, turn, mirroring and quality the pixels are written with.
        let output: ImageOutput
    }

    let image: TiledImage
    let wanted: Wanted
    /// What rendering and writing the answer holds at its peak; the work budget reserves `plan.bytes` first.
    let plan: RegionPlan

    init(image: TiledImage, wanted: Wanted) {
        self.image = image
        self.wanted = wanted
        var plan = image.plan(region: wanted.region, size: wanted.size)
        let frame = MemoryEstimate.frameBytes(wanted.size)
        if wanted.output.mirrored || wanted.output.quarterTurns != 0 || wanted.output.gray {
            plan.add("turned copy", bytes: frame)
        }
        // The encoder's rows and its output (which grows by doubling), at most about two frames.
        plan.add("encoding", bytes: FramePlan.sum([FramePlan.product(frame, 2), 64 << 10]))
        let lossless = ImageResponse.isLosslessCandidate(wanted.region, wanted.size, wanted.output)
        if lossless {
            // The crop's coefficients (6 bytes a pixel for 4:4:4) and its output.
            plan.add("lossless crop", bytes: FramePlan.product(wanted.region.pixelCount, 8))
        }
        if let shared = image.sharedTiles, image.header.format == .jpeg,
            !shared.cache.indexSettled(image: shared.image),
            lossless
                || (!plan.streamed && plan.level <= 3
                    && image.pyramid.levelSize(ofLevel: plan.level).pixelCount * 4 > shared.cache.budgetBytes / 2)
        {
            // As `TiledImage.sharedRegion` decides: a level of an upright JPEG larger than half the cache is read
            // through the index.
            for part in image.entropyIndexPassMemory.parts { plan.add(part.what, bytes: part.bytes) }
        }
        self.plan = plan
    }

    /// The largest side each format writes: libjpeg's 65,500, libpng's 1,000,000 (our writer keeps it too),
    /// libwebp's 16,383.
    static func maxSide(_ format: ImageOutput.Format) -> Int {
        switch format {
        case .jpg: 65_500
        case .png: 1_000_000
        case .webp: WebPEncoder.maxSide
        }
    }

    /// 400 for an answer its format cannot hold, before anything is rendered.
    static func checkEncodable(_ wanted: Wanted) throws(ServeError) {
        let side = maxSide(wanted.output.format)
        let turned = wanted.output.quarterTurns % 2 == 1
        let width = turned ? wanted.size.height : wanted.size.width
        let height = turned ? wanted.size.width : wanted.size.height
        guard width <= side, height <= side else {
            throw .request(
                .badRequest(
                    "size", "\(width),\(height)",
                    "a \(wanted.output.format.rawValue) answer is at most \(side) pixels a side"))
        }
    }

    var bytes: Int { plan.bytes }

    /// The plan as a refusal tells it.
    var refused: RefusedPlan {
        RefusedPlan(
            memory: plan.memory, decoderWorkingBytes: plan.decoderWorkingBytes,
            decoderReason: image.header.decodeWorkingReason, smallerHelps: true)
    }

    /// Renders and encodes the answer (errors name the image by `identifier`).
    func render(identifier: String) throws(ServeError) -> EncodedImage {
        do throws(TileViewError) {
            let bytes = try ImageResponse.render(image, identifier: identifier, plan: plan, output: wanted.output)
            return EncodedImage(bytes: bytes, mediaType: wanted.output.mediaType)
        } catch {
            throw .image(error)
        }
    }
}
