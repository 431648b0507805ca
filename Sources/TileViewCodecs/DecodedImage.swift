import TileViewCore

/// A whole decoded image: RGBA8 pixels, the header they came from, and what the decoder warned about.
public struct DecodedImage: Sendable {
    /// Oriented pixels unless orientation was disabled (then stored pixels).
    public var image: ImageBuffer
    public var header: ImageHeader
    /// libpng warnings (ancillary chunk problems, always benign) and, in lenient mode, libjpeg
    /// warnings and the error that cut decoding short. Repeated texts appear once, with a tally.
    public var warnings: [String]
}

/// Part of an image decoded in stored space (un-oriented), possibly scaled.
public struct DecodedRegion: Sendable {
    /// Exactly `region.width` x `region.height` pixels.
    public var image: ImageBuffer
    /// Where `image` lies in the decoded space (the scaled stored image for JPEG): the
    /// requested region clipped to the image.
    public var region: PixelRect
    public var header: ImageHeader
    public var warnings: [String]
}
