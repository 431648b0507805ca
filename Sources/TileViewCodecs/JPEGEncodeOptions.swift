import TileViewCore

/// How `JPEGEncoder` writes a JPEG: quality, colour or gray, and the colour behind translucent pixels.
public struct JPEGEncodeOptions: Sendable, Hashable {
    /// libjpeg's quality scale, 1 (smallest) ... 100 (best); values outside are clamped.
    public var quality: Int
    /// One gray component (libjpeg's Rec. 601 luma) instead of YCbCr 4:2:0.
    public var grayscale: Bool
    /// The colour translucent pixels are composited over, since JPEG has no alpha; its own alpha
    /// is ignored (it is treated as opaque). Default black, tileview's default background.
    public var background: RGBA8

    /// The default quality: 90.
    public static let defaultQuality = 90

    public init(quality: Int = JPEGEncodeOptions.defaultQuality, grayscale: Bool = false, background: RGBA8 = .black) {
        self.quality = quality
        self.grayscale = grayscale
        self.background = background
    }
}
