import TileViewCodecs
import TileViewCore

/// A 1024x768 frame of photograph, as a viewer writes one: the middle of the 6000x4000 bench
/// JPEG decoded at 1/4 (1500x1000), the rect (238, 116) 1024x768.
public enum PhotoFrame {
    public static let size = PixelSize(width: 1024, height: 768)

    /// Where the frame lies in the 1/4-scale image.
    public static let rectAtQuarterScale = PixelRect(
        x: (1500 - 1024) / 2, y: (1000 - 768) / 2, width: 1024, height: 768)

    /// Decodes the frame from the JPEG bytes (a region decode at scale 2/8, which equals the same
    /// rect of a full decode at that scale).
    public static func make(fromJPEG bytes: [UInt8]) throws(CodecError) -> ImageBuffer {
        try JPEGDecoder.decodeRegion(.bytes(bytes), scaleNumerator: 2, region: rectAtQuarterScale).image
    }

    /// The middle 1024x768 of any JPEG decoded at `scaleNumerator`/8 (clipped when smaller).
    public static func middle(ofJPEG bytes: [UInt8], scaleNumerator: Int) throws(CodecError) -> ImageBuffer {
        let header = try ImageHeader.read(from: .bytes(bytes))
        let scaled = JPEGDecoder.scaledSize(of: header.storedSize, scaleNumerator: scaleNumerator)
        let rect = PixelRect(
            x: max((scaled.width - size.width) / 2, 0), y: max((scaled.height - size.height) / 2, 0),
            width: size.width, height: size.height)
        return try JPEGDecoder.decodeRegion(.bytes(bytes), scaleNumerator: scaleNumerator, region: rect).image
    }

    /// The options the project writes frames with (see docs/benchmarks.md): run-length deflate with the
    /// Sub filter.
    public static let recommendedOptions = PNGEncodeOptions(compression: .runs, filter: .sub)
}
