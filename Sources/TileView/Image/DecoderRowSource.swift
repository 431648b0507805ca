import TileViewCodecs
import TileViewCore
import TileViewRender

/// Level rows straight from a decoder's scanlines, for rendering one frame without holding the
/// level region in memory (see `LevelRowSource`).
///
/// Level L of a JPEG comes from libjpeg's scaling (1/2^min(L, 3)) cropped to the needed columns;
/// any remaining factor, and every PNG level, is box-reduced `factor` decoder rows at a time.
/// Memory: one band of `factor` decoded rows and one level row. Rows must be asked for in
/// non-decreasing order (the renderer does). A decoding error is kept in `failure` and the rows
/// from then on are transparent: the caller checks `failure` after the render.
final class DecoderRowSource: LevelRowSource {
    private enum Reader {
        case jpeg(JPEGScanlineReader)
        case png(PNGRowReader)
    }

    private let reader: Reader
    private let factor: Int
    /// Decoder rows that exist (the scaled image's height).
    private let decoderRows: Int
    /// Columns of each decoded row, in decoder space, and the columns to reduce.
    private let bandColumns: Range<Int>
    private let wantedColumns: Range<Int>
    private let bandRowBytes: Int
    private let band: UnsafeMutableRawBufferPointer
    private let levelRow: UnsafeMutablePointer<UInt8>
    private let levelRowBytes: Int
    private var currentLevelRow = Int.min
    private var current: UnsafePointer<UInt8>
    private let lenient: Bool
    private(set) var failure: CodecError?
    private(set) var warnings: [String] = []

    /// A source for the level pixels `rect` of `level` of the stored image at `path`.
    init(path: String, header: ImageHeader, level: Int, rect: PixelRect, options: DecodeOptions) throws(CodecError) {
        var stored = options
        stored.applyOrientation = false
        lenient = options.lenient
        let direct = header.format == .jpeg ? min(level, 3) : 0
        factor = 1 << (level - direct)
        let decoderSize =
            header.format == .jpeg
            ? JPEGDecoder.scaledSize(of: header.storedSize, scaleNumerator: 8 >> direct) : header.storedSize
        decoderRows = decoderSize.height
        wantedColumns = (rect.x * factor)..<min(rect.maxX * factor, decoderSize.width)
        switch header.format {
        case .jpeg:
            let jpeg = try JPEGScanlineReader(.file(path: path), options: stored)
            // One column beyond each side keeps fancy upsampling exact at the crop edges.
            let window = try jpeg.start(
                scaleNumerator: 8 >> direct,
                cropColumns: (wantedColumns.lowerBound - 1)..<(wantedColumns.upperBound + 1))
            bandColumns = window.columns
            try jpeg.skipRows(rect.y * factor)
            reader = .jpeg(jpeg)
        case .png:
            let png = try PNGRowReader(.file(path: path), options: stored)
            bandColumns = 0..<decoderSize.width
            _ = try png.skipRows(rect.y * factor)
            reader = .png(png)
        }
        bandRowBytes = bandColumns.count * 4
        band = .allocate(byteCount: bandRowBytes * factor, alignment: 16)
        band.initializeMemory(as: UInt8.self, repeating: 0)
        levelRowBytes = rect.width * 4
        levelRow = .allocate(capacity: max(levelRowBytes, 4))
        levelRow.initialize(repeating: 0, count: max(levelRowBytes, 4))
        current = UnsafePointer(levelRow)
        nextDecoderRow = rect.y * factor
    }

    private var nextDecoderRow: Int

    deinit {
        band.deallocate()
        levelRow.deallocate()
    }

    func row(_ levelY: Int) -> UnsafePointer<UInt8> {
        while currentLevelRow < levelY {
            advance()
            currentLevelRow = currentLevelRow == Int.min ? levelY : currentLevelRow + 1
        }
        return current
    }

    /// Decodes the next level row (`factor` decoder rows, fewer at the bottom).
    private func advance() {
        let wanted = max(0, min(factor, decoderRows - nextDecoderRow))
        var got = 0
        if failure == nil && wanted > 0 {
            do {
                switch reader {
                case .jpeg(let jpeg): got = try jpeg.readRows(wanted, into: band, rowBytes: bandRowBytes)
                case .png(let png): got = try png.readRows(wanted, into: band, rowBytes: bandRowBytes)
                }
            } catch {
                if lenient { warnings.append(error.message) }
                failure = error
            }
            nextDecoderRow += got
        }
        if got < wanted {
            // Lenient: the rest of the image is transparent, as the whole-image decoders leave it.
            let bytes = band.baseAddress!.assumingMemoryBound(to: UInt8.self)
            (bytes + got * bandRowBytes).initialize(repeating: 0, count: (wanted - got) * bandRowBytes)
            got = wanted
        }
        let base = UnsafePointer(band.baseAddress!.assumingMemoryBound(to: UInt8.self))
        if factor == 1 {
            current = base + (wantedColumns.lowerBound - bandColumns.lowerBound) * 4
        } else if got > 0 {
            let first = wantedColumns.lowerBound - bandColumns.lowerBound
            let columns = first..<(first + wantedColumns.count)
            BoxReducer.reduceBand(
                base, rowBytes: bandRowBytes, rows: got, columns: columns, factor: factor, into: levelRow)
            current = UnsafePointer(levelRow)
        }
    }

    /// Ends decoding (aborting a JPEG with rows left); keeps the first error.
    func finish() {
        guard failure == nil else { return }
        do {
            switch reader {
            case .jpeg(let jpeg): try jpeg.finish()
            case .png(let png): try png.finish()
            }
        } catch {
            if lenient { warnings.append(error.message) } else { failure = error }
        }
        switch reader {
        case .jpeg(let jpeg): warnings += jpeg.warnings
        case .png(let png): warnings += png.warnings
        }
    }

    /// The error to report: none in lenient mode (the warnings carry it).
    var error: CodecError? { lenient ? nil : failure }
}
