import TileViewCore

/// The stored pixels of an image whose decoder delivers rows only after decoding all of it (`ImageHeader
/// .decodesWhole`: WebP, HEIF, AVIF, GIF, unusual TIFF layouts), decoded once and kept, so that the regions and
/// levels of a tiled image are read from it instead of decoding the file again for each (`LevelReader(whole:)`).
///
/// RGBA8, stored orientation, converted to sRGB as `options.color` says; immutable, so any number of readers on
/// any threads may share one.
public final class WholeImage: Sendable {
    public let header: ImageHeader
    /// `header.storedSize`, rows end to end.
    let pixels: [UInt8]
    /// The decoder's warnings, and in lenient mode the error that cut decoding short.
    public let warnings: [String]
    /// Whether `options.lenient` was set: an error was then kept as a warning, the rows after it transparent.
    public let lenient: Bool

    /// Bytes of pixels held.
    public var byteCount: Int { pixels.count }

    /// Decodes the whole image `source` holds (of `format`, one `ImageRowReader` takes), straight into the kept
    /// buffer. Strict: any error throws. Lenient: an error becomes a warning and the image is transparent from
    /// the row it stopped at.
    public init(_ source: ImageSource, format: ImageFormat, options: DecodeOptions) throws(CodecError) {
        var stored = options
        stored.applyOrientation = false
        let decoded = try ImageRowReader.decode(source, format: format, options: stored, accepting: { _ in })
        header = decoded.header
        pixels = decoded.image.pixels
        warnings = decoded.warnings
        lenient = options.lenient
    }
}

/// Rows of a `WholeImage`, as a streaming reader delivers them.
final class WholeImageRows: RowStreamingReader {
    let whole: WholeImage
    private(set) var nextRow = 0

    init(_ whole: WholeImage) { self.whole = whole }

    func readRows(_ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int)
        throws(CodecError) -> Int
    {
        let size = whole.header.storedSize
        let rows = min(max(count, 0), size.height - nextRow)
        let rowBytes = size.width * 4
        whole.pixels.withUnsafeBytes { source in
            for row in 0..<rows {
                (destination.baseAddress! + row * stride).copyMemory(
                    from: source.baseAddress! + (nextRow + row) * rowBytes, byteCount: rowBytes)
            }
        }
        nextRow += rows
        return rows
    }

    func skipRows(_ count: Int) {
        nextRow = min(whole.header.storedSize.height, nextRow + max(count, 0))
    }

    func finish() throws(CodecError) {}
}
