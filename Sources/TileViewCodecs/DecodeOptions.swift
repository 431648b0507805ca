/// How a decoder treats orientation, damaged data and very large images.
public struct DecodeOptions: Sendable, Equatable {
    /// Turn the pixels upright by the EXIF orientation (JPEG APP1, PNG eXIf). The streaming
    /// readers always deliver stored pixels and ignore this.
    public var applyOrientation: Bool
    /// Keep what could be decoded and report libjpeg warnings and decoding errors in
    /// `warnings` instead of failing; rows after an error are transparent. Strict (false): any
    /// libjpeg warning is an error. libpng reads image data in blocks of up to 8 KB that must
    /// arrive whole, so a truncated PNG also loses the rows of its last partial block.
    public var lenient: Bool
    /// Largest stored width * height accepted; checked from the header before any pixel
    /// memory is allocated.
    public var maxPixels: Int

    public init(applyOrientation: Bool = true, lenient: Bool = false, maxPixels: Int = 1_000_000_000) {
        self.applyOrientation = applyOrientation
        self.lenient = lenient
        self.maxPixels = maxPixels
    }
}
