import CImageCodecs
import TileViewCore

/// Which part of a JPEG a started `JPEGScanlineReader` delivers, in scaled stored space.
public struct JPEGScanlineWindow: Sendable, Equatable {
    /// The whole image at the chosen scale: ceil(W * M / 8) x ceil(H * M / 8).
    public var scaledSize: PixelSize
    /// The columns each row holds. With a crop, libjpeg moves the left edge down to the iMCU
    /// grid (8, 16 or 32 scaled pixels) and keeps the right edge.
    public var columns: Range<Int>

    /// Size of the delivered rows and their count.
    public var outputSize: PixelSize { PixelSize(width: columns.count, height: scaledSize.height) }
    /// Bytes in one delivered row.
    public var rowBytes: Int { columns.count * 4 }
}

/// Streams the rows of a JPEG, top to bottom, as RGBA8 in stored orientation, with libjpeg's
/// DCT scaling (M/8), column crop and row skipping.
///
/// Use: open, `start(scaleNumerator:cropColumns:)`, any mix of `skipRows` and `readRows`,
/// then `finish()`. Skipped rows are entropy-decoded (a baseline stream cannot be jumped
/// through) but not inverse-transformed, upsampled or colour-converted; with a crop, blocks
/// outside the window are not inverse-transformed either. A progressive file's coefficients
/// are all read when decompression starts (libjpeg keeps them for the whole image). Rows go
/// straight into the caller's memory. In strict mode (`lenient` false) the first libjpeg
/// warning is an error. Not thread-safe: use one reader from one task.
public final class JPEGScanlineReader {
    public let header: ImageHeader
    /// Set by `start`.
    public private(set) var window: JPEGScanlineWindow?
    /// Bytes in one delivered row: the window's (0 before `start`).
    public var rowBytes: Int { window?.rowBytes ?? 0 }
    /// The next row `readRows` delivers (rows read plus rows skipped).
    public private(set) var nextRow = 0

    private var decoder: OpaquePointer?
    /// How many parts of the 1/8 scale `start` had decoded at once gave MCUs (`DecodeParts`; a part that never
    /// fell into step is decoded by the one before it); 0 when libjpeg decoded the rows.
    public private(set) var partsJoined = 0
    /// Whether `start` had the 1/8 scale decoded in parts.
    public var decodedByParts: Bool { partsJoined > 0 }
    /// The entropy index (`JPEGEntropyIndex.saved()`'s bytes, byte for byte) that the 1/8 scale's parts made on the
    /// way, when `start` was asked for it (`DecodeParts.keepsEntropyIndex`) and decoded in parts: no pass of its own.
    public private(set) var entropyIndex: [UInt8]?
    private let owner: AnyObject?
    /// The conversion to sRGB the decoder applies to rows (nil: stored values); kept alive for the decoder.
    private let colorTransform: ColorTransform?

    /// Opens a JPEG from memory (copied once) or a file (read as rows are decoded) and reads its header.
    public convenience init(_ source: ImageSource, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let retained = source.retainedShimInput()
        try self.init(input: retained.input, owner: retained.owner, options: options)
    }

    /// Opens a JPEG whose bytes the caller keeps alive for the reader's lifetime.
    init(input: ShimInput, owner: AnyObject?, options: DecodeOptions) throws(CodecError) {
        var handle: OpaquePointer?
        var info = tv_jpeg_header()
        var error = tv_error()
        let strict: Int32 = options.lenient ? 0 : 1
        let status = input.open(
            memory: { tv_jpeg_open_memory($0, $1, strict, &handle, &info, &error) },
            file: { tv_jpeg_open_file($0, strict, &handle, &info, &error) },
            descriptor: { tv_jpeg_open_descriptor($0, strict, &handle, &info, &error) })
        guard status == TV_OK, let handle else { throw CodecError(status: status, error: error, format: .jpeg) }
        var exifLength = 0
        let exif = tv_jpeg_exif(handle, &exifLength).map { Array(UnsafeBufferPointer(start: $0, count: exifLength)) }
        try CodecError.requireWithinPixelLimit(width: info.width, height: info.height, options) {
            tv_jpeg_close(handle)
        }
        var iccLength = 0
        var iccProblem: UnsafePointer<CChar>?
        let icc = tv_jpeg_icc(handle, &iccLength, &iccProblem).map {
            Array(UnsafeBufferPointer(start: $0, count: iccLength))
        }
        let layout: ColorLayout
        switch info.color {
        case TV_JPEG_COLOR_GRAY: layout = .gray
        case TV_JPEG_COLOR_CMYK, TV_JPEG_COLOR_YCCK: layout = info.adobe != 0 ? .cmykInverted : .cmyk
        default: layout = .rgb
        }
        let (color, transform) = ColorDescription.read(
            ColorFacts(icc: icc, iccProblem: iccProblem.map { String(cString: $0) }, exif: exif, layout: layout))
        let header = ImageHeader(jpeg: info, exif: exif, color: color)
        colorTransform = options.color == .srgb ? transform : nil
        if let colorTransform { tv_jpeg_set_color(handle, colorTransform.shimHandle) }
        self.decoder = handle
        self.owner = owner
        self.header = header
    }

    deinit { tv_jpeg_close(decoder) }

    /// libjpeg's warnings so far (in strict mode at most the one that stopped decoding).
    public var warnings: [String] {
        (header.color.warning.map { [$0] } ?? []) + warningTexts(tv_jpeg_warnings(decoder))
    }

    /// Rows not yet delivered or skipped.
    public var remainingRows: Int { (window?.scaledSize.height ?? 0) - nextRow }

    /// Starts decompression at scale `scaleNumerator`/8 (1...16), optionally cropped to
    /// `cropColumns` of the scaled image (clamped to it). Returns the actual window.
    ///
    /// At 1/8, with `parts` of more than one, the entropy-coded data is decoded in parts at once
    /// (`tv_jpeg_parts_plan`): the same rows, byte for byte. Files the parts cannot reproduce exactly (progressive,
    /// damaged, unusual layouts) are decoded by libjpeg as without `parts`.
    @discardableResult
    public func start(scaleNumerator: Int = 8, cropColumns: Range<Int>? = nil, parts: DecodeParts? = nil)
        throws(CodecError) -> JPEGScanlineWindow
    {
        precondition(window == nil, "start may be called once")
        precondition((1...16).contains(scaleNumerator), "the scale numerator must be 1...16 (eighths)")
        if scaleNumerator == 1, let parts, parts.count > 1, let decoder,
            let plan = tv_jpeg_parts_plan(
                decoder, Int32(min(parts.count, 64)), max(1, parts.minimumBytes), max(0, parts.maximumBytes),
                parts.keepsEntropyIndex ? 1 : 0)
        {
            let handle = PartsPlan(plan)
            let count = Int(tv_jpeg_parts_count(plan))
            parts.run(count) { part in tv_jpeg_parts_run(handle.plan, Int32(part)) }
            var index: [UInt8]? = nil
            if tv_jpeg_parts_join(plan) > 0 {
                parts.run(count) { band in tv_jpeg_parts_rows(handle.plan, Int32(band)) }
                var bytes: UnsafeMutablePointer<UInt8>?
                var length = 0
                if parts.keepsEntropyIndex, tv_jpeg_parts_index(plan, &bytes, &length) != 0, let bytes {
                    index = Array(UnsafeBufferPointer(start: bytes, count: length))
                }
                tv_free(bytes)
            }
            partsJoined = Int(tv_jpeg_parts_finish(decoder, plan))
            // Only from a decode the parts made: where a band was left to libjpeg (a chroma block its transforms
            // might not agree on), the index has its pass of its own as any file the parts leave.
            if partsJoined > 0 { entropyIndex = index }
        }
        let scaled = JPEGDecoder.scaledSize(of: header.storedSize, scaleNumerator: scaleNumerator)
        var cropX: UInt32 = 0
        var cropWidth: UInt32 = 0
        if let cropColumns {
            let lower = min(max(cropColumns.lowerBound, 0), scaled.width)
            let upper = min(max(cropColumns.upperBound, lower), scaled.width)
            if upper > lower && upper - lower < scaled.width {
                cropX = UInt32(lower)
                cropWidth = UInt32(upper - lower)
            }
        }
        var info = tv_jpeg_window()
        var error = tv_error()
        let status = tv_jpeg_start(decoder, UInt32(scaleNumerator), cropX, cropWidth, &info, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .jpeg) }
        let started = JPEGScanlineWindow(
            scaledSize: PixelSize(width: Int(info.scaled_width), height: Int(info.scaled_height)),
            columns: Int(info.crop_x)..<Int(info.crop_x + info.crop_width))
        window = started
        return started
    }

    /// Skips the next `count` rows without colour conversion; returns how many were skipped.
    @discardableResult
    public func skipRows(_ count: Int) throws(CodecError) -> Int {
        precondition(window != nil, "call start first")
        let rows = min(max(count, 0), remainingRows)
        guard rows > 0 else { return 0 }
        var skipped: UInt32 = 0
        var error = tv_error()
        let status = tv_jpeg_skip_rows(decoder, UInt32(rows), &skipped, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .jpeg) }
        nextRow += Int(skipped)
        return Int(skipped)
    }

    /// Decodes the next `count` rows (fewer at the bottom) into `destination`, one row every
    /// `rowBytes` bytes, and returns how many it wrote.
    public func readRows(
        _ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int
    ) throws(CodecError) -> Int {
        precondition(window != nil, "call start first")
        let rows = rowsToRead(count, into: destination, rowBytes: stride)
        guard rows > 0 else { return 0 }
        var done: UInt32 = 0
        var error = tv_error()
        let status = tv_jpeg_read_rows(
            decoder, destination.baseAddress?.assumingMemoryBound(to: UInt8.self), stride, UInt32(rows), &done,
            &error)
        nextRow += Int(done)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .jpeg) }
        return Int(done)
    }

    /// Ends decoding. After the last row it reads on to the end of the stream, so warnings
    /// there (extraneous bytes, premature end) are seen; with rows left it aborts.
    public func finish() throws(CodecError) {
        var error = tv_error()
        let status = tv_jpeg_finish(decoder, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .jpeg) }
    }
}

/// A plan of parts, handed to the threads that run them: each part touches only its own state in it
/// (`tv_jpeg_parts_run`), and `DecodeParts.run` returns after every part has.
private struct PartsPlan: @unchecked Sendable {
    let plan: OpaquePointer
    init(_ plan: OpaquePointer) { self.plan = plan }
}
