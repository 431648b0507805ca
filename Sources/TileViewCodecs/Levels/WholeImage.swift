import TileViewCore

/// The stored pixels of an image whose decoder delivers rows only after decoding all of it (`ImageHeader
/// .decodesWhole`: WebP, HEIF, AVIF, GIF, unusual TIFF layouts), decoded once and kept, so that the regions and
/// levels of a tiled image are read from it instead of decoding the file again for each (`LevelReader(whole:)`).
///
/// RGBA8, stored orientation, converted to sRGB as `options.color` says, kept where the decoder holds it (no copy);
/// immutable, so any number of readers on any threads may share one.
public final class WholeImage: @unchecked Sendable {
    // Sendable: after `init` only `ImageRowReader.wholeRow` is called, which only reads the kept image.
    public let header: ImageHeader
    /// The decoder holding the image, or pixels of this image's own (rows that stream, or a lenient decode that
    /// failed: transparent).
    private let storage: Storage
    /// The decoder's warnings, and in lenient mode the error that stopped it.
    public let warnings: [String]
    /// Whether `options.lenient` was set: an error was then kept as a warning, the image transparent.
    public let lenient: Bool

    private enum Storage {
        case decoder(ImageRowReader)
        case pixels([UInt8])
    }

    /// The stored level decoded (0: the image; k: `header.storedLevels[k - 1]`, a WebP scaled decode) and its size.
    public let level: Int
    public let size: PixelSize

    /// Bytes of pixels held.
    public var byteCount: Int { size.pixelCount * 4 }

    /// Decodes the whole image `source` holds (of `format`, one `ImageRowReader` takes), or its stored level
    /// `level` (a WebP's scaled decode holds only that level's pixels), once, and keeps it where the decoder holds
    /// it. Strict: any error throws. Lenient: an error after the header becomes a warning and the image is
    /// transparent.
    public init(_ source: ImageSource, format: ImageFormat, options: DecodeOptions, level: Int = 0)
        throws(CodecError)
    {
        var stored = options
        stored.applyOrientation = false
        let reader = try ImageRowReader(source, format: format, options: stored)
        header = reader.header
        lenient = options.lenient
        self.level = level
        if level > 0 { try reader.selectLevel(level) }
        size = reader.size
        guard reader.header.decodesWhole else {
            // Rows that stream (a TIFF's strips or tiles) are read into memory of this image's own.
            let size = reader.size
            let band = try readBand(
                from: reader, rows: size.height, rowWidth: size.width, columns: 0..<size.width,
                lenient: options.lenient)
            storage = .pixels(band.image.pixels)
            warnings = reader.warnings + (band.failure.map { [$0] } ?? [])
            return
        }
        do throws(CodecError) {
            try reader.decodeWhole()
            storage = .decoder(reader)
            warnings = reader.warnings
        } catch {
            guard options.lenient else { throw error }
            storage = .pixels([UInt8](repeating: 0, count: reader.size.pixelCount * 4))
            warnings = reader.warnings + [error.message + " (the image is left transparent)"]
        }
    }

    /// Row `row` (RGBA8, `size.width` pixels), valid while this image lives.
    func withRow<R>(_ row: Int, _ body: (UnsafePointer<UInt8>) -> R) -> R {
        switch storage {
        case .decoder(let reader):
            return body(reader.wholeRow(row))
        case .pixels(let pixels):
            let rowBytes = size.width * 4
            return pixels.withUnsafeBufferPointer { body($0.baseAddress! + row * rowBytes) }
        }
    }
}

/// Rows of a `WholeImage`, as a streaming reader delivers them.
final class WholeImageRows: RowStreamingReader {
    let whole: WholeImage
    private(set) var nextRow = 0

    init(_ whole: WholeImage) { self.whole = whole }

    var rowBytes: Int { whole.size.width * 4 }
    var remainingRows: Int { whole.size.height - nextRow }

    func readRows(_ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int)
        throws(CodecError) -> Int
    {
        let rows = min(max(count, 0), remainingRows)
        for row in 0..<rows {
            whole.withRow(nextRow + row) { source in
                (destination.baseAddress! + row * stride).copyMemory(from: source, byteCount: rowBytes)
            }
        }
        nextRow += rows
        return rows
    }

    func skipRows(_ count: Int) {
        nextRow = min(whole.size.height, nextRow + max(count, 0))
    }

    func finish() throws(CodecError) {}
}
