import TileViewCore

/// Level pixels of a rect of an image file, decoded from the file as they are asked for: the one place where a
/// level of detail is read (tiles, single frames streamed from the decoder, feed thumbnails, region decodes).
///
/// `rect` is in the stored (un-oriented) level's pixels (see `LevelScale`) and is clipped to the level. Decoding:
/// - JPEG: libjpeg scales by M/8; only the iMCU columns around the rect are inverse-transformed (crop window one
///   column wider on each side than needed, so that fancy upsampling is exact at the rect's edges, and two iMCUs
///   more for a progressive file's block smoothing: `JPEGDecoder.cropMargin(progressive:scaleNumerator:)`), the rows
///   above it are skipped, and decoding stops after its last row.
/// - PNG: rows are streamed; the rows above the rect are decoded and dropped. An Adam7 PNG is decoded whole
///   first (`PNGRowReader`).
/// - TIFF (`ImageRowReader`): only the strips, or the tiles, that hold the rect's rows (and columns) are decoded.
///   WebP, HEIF, AVIF and GIF are decoded whole: once per reader here, once per image through `WholeImage`.
/// - A box factor f > 1 reduces f decoder rows at a time into one level row (`BoxReducer.reduceBand`), so only
///   one band of f decoder rows is held.
///
/// Two ways to read:
/// - `row(_:)`, for rendering a frame straight from the decoder: rows in non-decreasing order, each pointer valid
///   until the next call. A decoding error is kept in `failure` and the rows from then on are transparent; call
///   `finish()` at the end and check `failure` (lenient callers turn it into a warning).
/// - `readAll()`, the whole rect as one buffer. Strict: any error throws. Lenient: when at least one row of the
///   rect decoded, the rows after an error are transparent and the error comes back as a note.
/// Opening (the header, the crop, the skip above the rect) throws in both modes. Not thread-safe.
public final class LevelReader {
    private enum Reader {
        case jpeg(JPEGScanlineReader)
        case png(PNGRowReader)
        /// WebP, HEIF, AVIF, TIFF, GIF.
        case rows(ImageRowReader)
        /// An image decoded whole once (`WholeImage`).
        case whole(WholeImageRows)

        var streaming: any RowStreamingReader {
            switch self {
            case .jpeg(let reader): reader
            case .png(let reader): reader
            case .rows(let reader): reader
            case .whole(let reader): reader
            }
        }
    }

    public let header: ImageHeader
    public let lenient: Bool
    /// Set by `start`: the level and the rect delivered, in stored level pixels (the requested rect clipped to
    /// the level; may be empty).
    public private(set) var scale = LevelScale()
    public private(set) var rect = PixelRect(x: 0, y: 0, width: 0, height: 0)
    /// The first decoding error after opening, if any.
    public private(set) var failure: CodecError?

    private let reader: Reader
    private var started = false
    /// Decoder rows that exist (the decoder output's height).
    private var decoderRows = 0
    /// Columns of each decoded row and the columns the level row reduces, in decoder pixels.
    private var bandColumns = 0..<0
    private var wantedColumns = 0..<0
    private var bandRowBytes = 0
    private var nextDecoderRow = 0
    private var band: UnsafeMutableRawBufferPointer?
    private var levelRow: UnsafeMutablePointer<UInt8>?
    private var current: UnsafePointer<UInt8>?
    /// The level row `current` holds.
    private var currentRow = 0
    private var finished = false

    /// Opens `source` and reads its header (and nothing else); the pixel limit of `options` applies. Pass the
    /// `format` when the header was read already (saves sniffing the file again).
    public init(_ source: ImageSource, format: ImageFormat? = nil, options: DecodeOptions) throws(CodecError) {
        var stored = options
        stored.applyOrientation = false
        lenient = options.lenient
        let detected: ImageFormat
        if let format { detected = format } else { detected = try ImageFormat.detect(in: source) }
        switch detected {
        case .jpeg:
            let jpeg = try JPEGScanlineReader(source, options: stored)
            header = jpeg.header
            reader = .jpeg(jpeg)
        case .png:
            let png = try PNGRowReader(source, options: stored)
            header = png.header
            reader = .png(png)
        default:
            let rows = try ImageRowReader(source, format: detected, options: stored)
            header = rows.header
            reader = .rows(rows)
        }
    }

    /// Reads the levels of an image decoded whole once, as from its file (the same rows, the same reduction).
    public init(whole: WholeImage, scale: LevelScale, rect: PixelRect) throws(CodecError) {
        precondition(scale.storedLevel == whole.level, "the level decoded is the scale's stored level")
        header = whole.header
        lenient = whole.lenient
        reader = .whole(WholeImageRows(whole))
        try start(scale: scale, rect: rect)
    }

    /// Opens `source` and positions the decoder at the first row of `rect` of the level `scale` makes.
    public convenience init(
        _ source: ImageSource, format: ImageFormat? = nil, scale: LevelScale, rect: PixelRect, options: DecodeOptions,
        parts: DecodeParts? = nil
    ) throws(CodecError) {
        try self.init(source, format: format, options: options)
        try start(scale: scale, rect: rect, parts: parts)
    }

    /// Positions the decoder at the first row of `rect` (stored level pixels) of the level `scale` makes. Once.
    /// `parts`: how a JPEG's 1/8 scale may be decoded in parts at once (`JPEGScanlineReader.start`), or a PNG's rows
    /// inflated ahead (`PNGRowReader.startPipeline`), when every row is read; a HEIF grid's row of tiles at once
    /// (`ImageRowReader.parts`), for any rect.
    public func start(scale: LevelScale, rect requested: PixelRect, parts: DecodeParts? = nil) throws(CodecError) {
        precondition(!started, "start may be called once")
        started = true
        self.scale = scale
        let factor = scale.boxFactor
        let levelSize = scale.levelSize(ofStored: header.storedSize)
        rect = requested.intersection(PixelRect(size: levelSize)) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        let decoderSize = scale.decoderSize(ofStored: header.storedSize)
        decoderRows = decoderSize.height
        wantedColumns = (rect.x * factor)..<min(rect.maxX * factor, decoderSize.width)
        switch reader {
        case .jpeg(let jpeg):
            let margin = JPEGDecoder.cropMargin(progressive: header.isProgressive, scaleNumerator: scale.numerator)
            let window = try jpeg.start(
                scaleNumerator: scale.numerator,
                cropColumns: (wantedColumns.lowerBound - margin)..<(wantedColumns.upperBound + margin),
                // In parts only for every row: libjpeg stops after the rect's last row, the parts decode them all.
                parts: rect.y == 0 && rect.maxY == levelSize.height ? parts : nil)
            bandColumns = window.columns
            try jpeg.skipRows(rect.y * factor)
        case .png(let png):
            precondition(scale.numerator == 8, "PNG levels are box-reduced only")
            bandColumns = 0..<header.storedSize.width
            // Inflated ahead only for every row: the pipeline inflates them all.
            if let parts, rect.y == 0 && rect.maxY == levelSize.height { png.startPipeline(parts) }
            try png.skipRows(rect.y * factor)
        case .rows(let rows):
            precondition(scale.numerator == 8, "\(header.format) levels are box-reduced only")
            // A pyramid TIFF's level comes from its stored copy; a tiled TIFF decodes only the tiles that hold the
            // columns wanted.
            if scale.storedLevel > 0 { try rows.selectLevel(scale.storedLevel) }
            bandColumns = rows.cropColumns(wantedColumns)
            // A HEIF grid decodes the tiles of a row at once, for any rect (it reads only the tiles under it).
            rows.parts = parts
            try rows.skipRows(rect.y * factor)
        case .whole(let rows):
            precondition(scale.numerator == 8, "\(header.format) levels are box-reduced only")
            bandColumns = 0..<header.storedSize.width
            rows.skipRows(rect.y * factor)
        }
        bandRowBytes = bandColumns.count * 4
        nextDecoderRow = rect.y * factor
        currentRow = rect.y - 1
    }

    deinit {
        band?.deallocate()
        levelRow?.deallocate()
    }

    /// Whether a JPEG's rows were decoded in parts at once, or a PNG's rows still come inflated ahead (`DecodeParts`).
    public var decodedByParts: Bool {
        switch reader {
        case .jpeg(let jpeg): jpeg.decodedByParts
        case .png(let png): png.rowsInflatedAhead
        default: false
        }
    }

    /// The entropy index a JPEG's 1/8 scale decoded in parts made on the way (`DecodeParts.keepsEntropyIndex`).
    public var entropyIndex: [UInt8]? {
        if case .jpeg(let jpeg) = reader { jpeg.entropyIndex } else { nil }
    }

    /// libjpeg's or libpng's warnings so far.
    public var warnings: [String] {
        switch reader {
        case .jpeg(let jpeg): jpeg.warnings
        case .png(let png): png.warnings
        case .rows(let rows): rows.warnings
        case .whole(let rows): rows.whole.warnings
        }
    }

    /// Level row `levelY` of the rect (`rect.width` pixels from level column `rect.x`); rows must be asked for in
    /// non-decreasing order, from `rect.y` to `rect.maxY - 1`.
    public func row(_ levelY: Int) -> UnsafePointer<UInt8> {
        precondition(started && levelY >= currentRow, "level rows are read top to bottom")
        while currentRow < levelY { advance() }
        return current!
    }

    /// Decodes the next level row (`boxFactor` decoder rows, fewer at the bottom of the image).
    private func advance() {
        let factor = scale.boxFactor
        if band == nil {
            band = .allocate(byteCount: max(bandRowBytes * factor, 4), alignment: 16)
            band!.initializeMemory(as: UInt8.self, repeating: 0)
            if factor > 1 {
                levelRow = .allocate(capacity: max(rect.width * 4, 4))
                levelRow!.initialize(repeating: 0, count: max(rect.width * 4, 4))
            }
        }
        let band = band!
        let wanted = max(0, min(factor, decoderRows - nextDecoderRow))
        var got = 0
        if failure == nil && wanted > 0 {
            do throws(CodecError) {
                got = try reader.streaming.readRows(wanted, into: band, rowBytes: bandRowBytes)
                if got < wanted { throw CodecError(.truncated, "the decoder delivered \(got) of \(wanted) rows") }
            } catch {
                failure = error
            }
            nextDecoderRow += got
        }
        let base = band.baseAddress!.assumingMemoryBound(to: UInt8.self)
        if got < wanted {
            // After an error the rest of the rect is transparent, as the whole-image decoders leave it.
            (base + got * bandRowBytes).initialize(repeating: 0, count: (wanted - got) * bandRowBytes)
            got = wanted
        }
        currentRow += 1
        let first = wantedColumns.lowerBound - bandColumns.lowerBound
        if factor == 1 {
            current = UnsafePointer(base + first * 4)
        } else {
            if got > 0 {
                BoxReducer.reduceBand(
                    UnsafePointer(base), rowBytes: bandRowBytes, rows: got,
                    columns: first..<(first + wantedColumns.count),
                    factor: factor, into: levelRow!)
            }
            current = UnsafePointer(levelRow!)
        }
    }

    /// Ends decoding: after the last row of the image it reads on to the end of the stream (so warnings there are
    /// seen), otherwise it stops the decoder. Keeps the first error; in lenient mode an error here is a warning.
    public func finish() {
        guard !finished else { return }
        finished = true
        guard failure == nil else { return }
        do throws(CodecError) {
            try reader.streaming.finish()
        } catch {
            if lenient { finishWarning = error.message } else { failure = error }
        }
    }

    /// A lenient `finish()`'s error text.
    private var finishWarning: String?

    /// Everything that went wrong, as warnings: the decoder's own, then the error (lenient mode only).
    public var lenientWarnings: [String] {
        guard lenient else { return warnings }
        return warnings + [failure?.message, finishWarning].compactMap { $0 }
    }

    /// The whole rect, decoded, and what cut it short in lenient mode (with how many rows are left transparent).
    public func readAll() throws(CodecError) -> (image: ImageBuffer, failure: String?) {
        precondition(started && currentRow == rect.y - 1 && !finished, "readAll reads the whole rect")
        if scale.boxFactor == 1 {
            // Rows straight into the result (no band) when the decoder's rows are the rect's.
            let first = wantedColumns.lowerBound - bandColumns.lowerBound
            finished = true
            let band = try readBand(
                from: reader.streaming, rows: rect.height, rowWidth: bandColumns.count,
                columns: first..<(first + rect.width), lenient: lenient)
            return (band.image, band.failure)
        }
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        var rowsDone = 0
        let rowBytes = rect.width * 4
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<rect.height {
                let source = row(rect.y + y)
                if failure == nil { rowsDone = y + 1 }
                guard rowBytes > 0 else { continue }
                (out.baseAddress! + y * rowBytes).update(from: source, count: rowBytes)
            }
        }
        finish()
        let image = ImageBuffer(width: rect.width, height: rect.height, pixels: pixels)
        guard let failure else { return (image, finishWarning) }
        guard lenient, rowsDone > 0 else { throw failure }
        let note =
            rowsDone < rect.height
            ? " (the last \(rect.height - rowsDone) of \(rect.height) rows are left transparent)" : ""
        return (image, failure.message + note)
    }
}
