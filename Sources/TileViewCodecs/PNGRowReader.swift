import CImageCodecs
import TileViewCore

/// Streams the rows of a PNG, top to bottom, as RGBA8 in stored orientation.
///
/// A non-interlaced PNG is decoded row by row straight into the caller's memory; rows that
/// are not wanted are decoded into a scratch row and dropped (`skipRows`), so a band of rows
/// costs one row of working memory. An Adam7 PNG cannot be delivered row by row (every
/// pass covers the whole image): its first read decodes the whole image into memory the
/// reader holds (width * height * 4 bytes) and rows are served from there.
///
/// Opening reads the header and checks the pixel limit; nothing else is decoded until rows
/// are asked for. Not thread-safe: use one reader from one task.
public final class PNGRowReader {
    public let header: ImageHeader
    /// The next row `readRows` delivers; `header.storedSize.height` at the end.
    public private(set) var nextRow = 0

    private var decoder: OpaquePointer?
    private let owner: AnyObject?
    /// The conversion to sRGB the decoder applies to rows (nil: stored values); kept alive for the decoder.
    private let colorTransform: ColorTransform?
    /// Adam7 only: the whole image, decoded on the first read.
    private var wholeImage: [UInt8]?
    /// Waits for the thread inflating rows ahead (`startPipeline`), once it is told to stop.
    private var joinInflater: (@Sendable () -> Void)?

    /// Opens a PNG from memory (copied once) or a file (read as rows are decoded).
    public convenience init(_ source: ImageSource, options: DecodeOptions = DecodeOptions()) throws(CodecError) {
        let retained = source.retainedShimInput()
        try self.init(input: retained.input, owner: retained.owner, options: options)
    }

    /// Opens a PNG whose bytes the caller keeps alive for the reader's lifetime.
    init(input: ShimInput, owner: AnyObject?, options: DecodeOptions) throws(CodecError) {
        var handle: OpaquePointer?
        var info = tv_png_header()
        var error = tv_error()
        let status = input.open(
            memory: { tv_png_open_memory($0, $1, &handle, &info, &error) },
            file: { tv_png_open_file($0, &handle, &info, &error) },
            descriptor: { tv_png_open_descriptor($0, &handle, &info, &error) })
        guard status == TV_OK, let handle else { throw CodecError(status: status, error: error, format: .png) }
        var exifLength = 0
        let exif = tv_png_exif(handle, &exifLength).map { Array(UnsafeBufferPointer(start: $0, count: exifLength)) }
        try CodecError.requireWithinPixelLimit(width: info.width, height: info.height, options) { tv_png_close(handle) }
        var chunks = tv_png_color()
        tv_png_color_info(handle, &chunks)
        var facts = ColorFacts(
            icc: chunks.icc.map { Array(UnsafeBufferPointer(start: $0, count: chunks.icc_length)) },
            srgbChunk: chunks.has_srgb != 0, exif: exif,
            layout: info.color_type == 0 || info.color_type == 4 ? .gray : .rgb)
        if chunks.has_chrm != 0 && chunks.has_gama != 0 {
            let c = chunks.chromaticities
            facts.chromaticities = (
                (c.white_x, c.white_y), (c.red_x, c.red_y), (c.green_x, c.green_y), (c.blue_x, c.blue_y), c.gamma
            )
        }
        let (color, transform) = ColorDescription.read(facts)
        let header = ImageHeader(png: info, exif: exif, color: color)
        colorTransform = options.color == .srgb ? transform : nil
        if let colorTransform { tv_png_set_color(handle, colorTransform.shimHandle) }
        self.decoder = handle
        self.owner = owner
        self.header = header
    }

    deinit {
        stopInflater()
        tv_png_close(decoder)
    }

    /// Before the first row: has the rows inflated ahead, beside this thread (`parts.background`), while this one
    /// unfilters and unpacks them; the same rows, errors and warnings (`tv_png_pipeline_start`: libpng takes over
    /// at anything unusual). For PNGs of 8- or 16-bit gray, gray and alpha, RGB or RGBA samples with no tRNS, not
    /// interlaced; false for any other (then libpng decodes as usual).
    @discardableResult
    public func startPipeline(_ parts: DecodeParts) -> Bool {
        guard nextRow == 0, joinInflater == nil, tv_png_pipeline_start(decoder) == 1 else { return false }
        let inflater = Inflater(decoder: decoder)
        joinInflater = parts.background { tv_png_pipeline_produce(inflater.decoder) }
        return true
    }

    /// Whether the rows still come from the pipeline (false before it starts and once libpng has taken over).
    public var rowsInflatedAhead: Bool { tv_png_pipeline_used(decoder) != 0 }

    private func stopInflater() {
        guard let join = joinInflater else { return }
        tv_png_pipeline_stop(decoder)
        join()
        joinInflater = nil
    }

    /// Bytes in one output row: width * 4.
    public var rowBytes: Int { header.storedSize.width * 4 }

    /// Rows not yet delivered or skipped.
    public var remainingRows: Int { header.storedSize.height - nextRow }

    /// libpng's warnings so far (problems in ancillary chunks, which are skipped).
    public var warnings: [String] { (header.color.warning.map { [$0] } ?? []) + warningTexts(tv_png_warnings(decoder)) }

    /// Decodes the next `count` rows (fewer at the bottom) into `destination`, one row every
    /// `rowBytes` bytes, and returns how many it wrote.
    public func readRows(
        _ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int
    ) throws(CodecError) -> Int {
        let rows = rowsToRead(count, into: destination, rowBytes: stride)
        guard rows > 0 else { return 0 }
        if header.isInterlaced {
            let image = try decodedWholeImage()
            image.withUnsafeBytes { source in
                for row in 0..<rows {
                    let from = source.baseAddress! + (nextRow + row) * rowBytes
                    (destination.baseAddress! + row * stride).copyMemory(from: from, byteCount: rowBytes)
                }
            }
            nextRow += rows
            return rows
        }
        var done: UInt32 = 0
        var error = tv_error()
        let status = tv_png_read_rows(
            decoder, destination.baseAddress?.assumingMemoryBound(to: UInt8.self), stride, UInt32(rows), &done,
            &error)
        nextRow += Int(done)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .png) }
        return Int(done)
    }

    /// Decodes and drops the next `count` rows (PNG rows depend on the row above, so they
    /// cannot be jumped over); returns how many it skipped.
    @discardableResult
    public func skipRows(_ count: Int) throws(CodecError) -> Int {
        let rows = min(max(count, 0), remainingRows)
        guard rows > 0 else { return 0 }
        if header.isInterlaced {
            _ = try decodedWholeImage()
            nextRow += rows
            return rows
        }
        var done: UInt32 = 0
        var error = tv_error()
        let status = tv_png_read_rows(decoder, nil, 0, UInt32(rows), &done, &error)
        nextRow += Int(done)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .png) }
        return Int(done)
    }

    /// Decodes every row (every Adam7 pass) into `destination`, rows `rowBytes` apart. Only
    /// before any row was read or skipped.
    public func readImage(into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int) throws(CodecError) {
        precondition(nextRow == 0 && wholeImage == nil, "readImage must come before any other read")
        let height = header.storedSize.height
        guard height > 0 else { return }
        precondition(stride >= rowBytes, "rows must be at least width * 4 bytes apart")
        precondition(destination.count >= (height - 1) * stride + rowBytes, "the destination is too small")
        var error = tv_error()
        let status = tv_png_read_image(
            decoder, destination.baseAddress?.assumingMemoryBound(to: UInt8.self), stride, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .png) }
        nextRow = height
    }

    /// After the last row, reads the chunks that follow the image data (zlib checksum, CRCs,
    /// trailing chunks); earlier, it only stops the reader.
    public func finish() throws(CodecError) {
        stopInflater()
        var error = tv_error()
        let status = tv_png_finish(decoder, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: .png) }
    }

    private func decodedWholeImage() throws(CodecError) -> [UInt8] {
        if let wholeImage { return wholeImage }
        precondition(nextRow == 0, "an interlaced image is decoded whole before its first row")
        let byteCount = rowBytes * header.storedSize.height
        var pixels = [UInt8](repeating: 0, count: byteCount)
        let stride = rowBytes
        try pixels.withMutableBytes { (raw) throws(CodecError) in try readImage(into: raw, rowBytes: stride) }
        nextRow = 0
        wholeImage = pixels
        return pixels
    }
}

/// The decoder, for the thread that inflates its rows ahead: that thread and the reader's share it through the
/// pipeline's lock, and the reader waits for it before closing the decoder.
private struct Inflater: @unchecked Sendable {
    let decoder: OpaquePointer?
}
