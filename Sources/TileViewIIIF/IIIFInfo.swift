import TileViewCore

/// The IIIF Image API 3.0 image information document (`info.json`, section 5) of a level 2 service that also
/// offers mirroring and upscaling (`^` sizes).
public struct IIIFInfo: Encodable, Hashable, Sendable {
    /// A size of the full image (`{"width": …, "height": …}`).
    public struct SizeEntry: Encodable, Hashable, Sendable {
        public var width: Int
        public var height: Int
        public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }
    }

    /// Square tiles of `width` pixels at each scale factor.
    public struct TileEntry: Encodable, Hashable, Sendable {
        public var width: Int
        public var scaleFactors: [Int]
        public init(width: Int, scaleFactors: [Int]) { (self.width, self.scaleFactors) = (width, scaleFactors) }
    }

    /// The base URI of the image, without a trailing slash.
    public var id: String
    /// The oriented width of the full image.
    public var width: Int
    /// The oriented height of the full image.
    public var height: Int
    public var maxArea: Int?
    public var maxWidth: Int?
    public var maxHeight: Int?
    /// The power-of-two reductions of the full image within the limits, smallest first.
    public var sizes: [SizeEntry]
    public var tiles: [TileEntry]
    /// The qualities offered besides `default`.
    public var extraQualities: [String]
    /// The features offered beyond the level 2 profile.
    public var extraFeatures: [String]
    /// The formats offered besides level 2's `jpg` and `png`.
    public var extraFormats: [String]

    /// The document for the image at `id` whose oriented size is `imageSize`, under `limits`, tiled in squares
    /// of `tileSize` pixels.
    ///
    /// `sizes` lists ceil(W / 2^k) x ceil(H / 2^k) for k = 0, 1, … down to the first that fits in one tile,
    /// keeping only those within the limits, smallest first. `tiles` has scale factors 1, 2, 4, … down to the
    /// first at which the image fits in one tile.
    public init(id: String, imageSize: PixelSize, limits: IIIFLimits = IIIFLimits(), tileSize: Int = 256) {
        self.id = id
        width = imageSize.width
        height = imageSize.height
        maxArea = limits.maxArea
        maxWidth = limits.maxWidth
        maxHeight = limits.maxWidth == nil ? nil : limits.maxHeight
        var factors: [Int] = []
        var reductions: [SizeEntry] = []
        var factor = 1
        while true {
            let size = PixelSize(
                width: Self.ceilingDivision(imageSize.width, factor),
                height: Self.ceilingDivision(imageSize.height, factor))
            factors.append(factor)
            if limits.allows(size), !size.isEmpty {
                reductions.append(SizeEntry(width: size.width, height: size.height))
            }
            if (size.width <= tileSize && size.height <= tileSize) || factor > Int.max / 4 { break }
            factor *= 2
        }
        sizes = reductions.reversed()
        tiles = [TileEntry(width: tileSize, scaleFactors: factors)]
        extraQualities = [IIIFQuality.color.rawValue, IIIFQuality.gray.rawValue]
        extraFeatures = ["mirroring", "sizeUpscaling"]
        extraFormats = [IIIFFormat.webp.rawValue]
    }

    static func ceilingDivision(_ a: Int, _ b: Int) -> Int { a <= 0 ? 0 : (a - 1) / b + 1 }

    private enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, `protocol`, profile, width, height, maxArea, maxWidth, maxHeight, sizes, tiles
        case extraQualities, extraFeatures, extraFormats
    }

    /// Encodes `@context`, `id`, `type`, `protocol`, `profile`, `width`, `height`, the limits that are set,
    /// `sizes`, `tiles`, `extraFormats`, `extraQualities` and `extraFeatures`, in that order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("http://iiif.io/api/image/3/context.json", forKey: .context)
        try container.encode(id, forKey: .id)
        try container.encode("ImageService3", forKey: .type)
        try container.encode("http://iiif.io/api/image", forKey: .protocol)
        try container.encode("level2", forKey: .profile)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encodeIfPresent(maxArea, forKey: .maxArea)
        try container.encodeIfPresent(maxWidth, forKey: .maxWidth)
        try container.encodeIfPresent(maxHeight, forKey: .maxHeight)
        try container.encode(sizes, forKey: .sizes)
        try container.encode(tiles, forKey: .tiles)
        try container.encode(extraFormats, forKey: .extraFormats)
        try container.encode(extraQualities, forKey: .extraQualities)
        try container.encode(extraFeatures, forKey: .extraFeatures)
    }
}
