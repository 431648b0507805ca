import CImageCodecs
import TileViewCore

/// Streams the rows of a WebP, HEIF/HEIC, AVIF, TIFF or GIF file, top to bottom, as RGBA8 in stored orientation
/// (docs/design.md section 15): one reader over the shim's row decoder, which each format fills in with its
/// library (libwebp, libheif, libtiff, giflib).
///
/// A TIFF's rows come from one strip, or one row of tiles, at a time; the other formats (and TIFF layouts outside
/// the common ones) are decoded whole at the first read, into memory the decoder holds
/// (`header.decoderWorkingBytes` says how much, and the memory plan counts it). Opening reads the header and
/// checks the pixel limit; nothing else is decoded until rows are asked for. Not thread-safe.
public final class ImageRowReader {
    public let header: ImageHeader
    /// The next row `readRows` delivers; `header.storedSize.height` at the end.
    public private(set) var nextRow = 0

    private let decoder: OpaquePointer
    private let owner: AnyObject?
    /// The conversion to sRGB the decoder applies to rows (nil: stored values); kept alive for the decoder.
    private let colorTransform: ColorTransform?

    /// Opens a file or bytes (copied once) of `format` (one of the formats this reader handles).
    public convenience init(_ source: ImageSource, format: ImageFormat, options: DecodeOptions = DecodeOptions())
        throws(CodecError)
    {
        let retained = source.retainedShimInput()
        try self.init(input: retained.input, format: format, owner: retained.owner, options: options)
    }

    /// Opens input whose bytes the caller keeps alive for the reader's lifetime.
    init(input: ShimInput, format: ImageFormat, owner: AnyObject?, options: DecodeOptions) throws(CodecError) {
        guard let shimFormat = format.rowDecoderFormat else {
            preconditionFailure("\(format) has a reader of its own")
        }
        var handle: OpaquePointer?
        var info = tv_image_header()
        var error = tv_error()
        let strict: Int32 = options.lenient ? 0 : 1
        let status = input.open(
            memory: { tv_image_open_memory(shimFormat, $0, $1, strict, &handle, &info, &error) },
            file: { tv_image_open_file(shimFormat, $0, strict, &handle, &info, &error) },
            descriptor: { tv_image_open_descriptor(shimFormat, $0, strict, &handle, &info, &error) })
        guard status == TV_OK, let handle else { throw CodecError(status: status, error: error, format: format) }
        try CodecError.requireWithinPixelLimit(width: info.width, height: info.height, options) {
            tv_image_close(handle)
        }
        let storedSize = PixelSize(width: Int(info.width), height: Int(info.height))
        var length = 0
        let icc = tv_image_icc(handle, &length).map { Array(UnsafeBufferPointer(start: $0, count: length)) }
        let exif = tv_image_exif(handle, &length).map { Array(UnsafeBufferPointer(start: $0, count: length)) }
        let layout: ColorLayout =
            switch info.color {
            case TV_IMAGE_COLOR_GRAY: .gray
            case TV_IMAGE_COLOR_CMYK: .cmyk
            default: .rgb
            }
        var facts = ColorFacts(icc: icc, exif: exif, layout: layout)
        if icc == nil, info.nclx_primaries != 0 { Self.addNCLX(info, to: &facts) }
        let (color, transform) = ColorDescription.read(facts)
        colorTransform = options.color == .srgb ? transform : nil
        if let colorTransform { tv_image_set_color(handle, colorTransform.shimHandle) }
        let orientation: ImageOrientation
        switch format {
        case .tiff: orientation = ImageOrientation(exifValue: Int(info.orientation))
        case .webp: orientation = exif.flatMap { ExifOrientationParser.orientation(inTIFF: $0) } ?? .up
        // libheif applies irot and imir (the HEIF rule: an Exif orientation there is not applied again), except to a
        // grid read a row of tiles at a time, whose irot and imir the shim gives as an orientation.
        default: orientation = info.orientation != 0 ? ImageOrientation(exifValue: Int(info.orientation)) : .up
        }
        self.decoder = handle
        self.owner = owner
        self.columns = 0..<storedSize.width
        var header = ImageHeader(
            format: format, storedSize: storedSize, orientation: orientation, bitDepth: Int(info.bit_depth),
            colorType: Self.colorType(info), components: Int(info.samples), color: color,
            // The brands say AVIF or HEIC (`ImageFormat.sniff` reads the compatible brands, the shim the major one).
            frames: Int(info.frames),
            compression: format == .avif ? "AV1" : format == .heif ? "HEVC" : Self.text(of: info.compression),
            decoderWorkingBytes: info.working_bytes > UInt(Int.max) ? .max : Int(info.working_bytes),
            decodesWhole: info.streams_rows == 0,
            storedLevels: (0..<Int(info.levels)).map { level in
                var width: UInt32 = 0
                var height: UInt32 = 0
                tv_image_level_size(handle, UInt32(level + 1), &width, &height)
                return PixelSize(width: Int(width), height: Int(height))
            }, isTiled: info.tiled != 0 && info.streams_rows != 0)
        if format == .tiff {
            header.storedDirectories = (0...Int(info.levels)).map { tv_image_level_directory(handle, UInt32($0)) }
        }
        header.exif = exif.flatMap(ExifFields.read(inTIFF:))
        header.decoderPartBytes = info.part_bytes > UInt(Int.max) ? .max : Int(info.part_bytes)
        self.header = header
        size = storedSize
    }

    deinit { tv_image_close(decoder) }

    /// How a row of units decoded independently (a HEIF grid's row of tiles) may be decoded at once, on threads the
    /// caller runs (`tv_image_parts_prepare`); nil: one after another. The same rows either way.
    public var parts: DecodeParts?

    /// The size of what the rows come from: the image, or the stored level `selectLevel` chose.
    public private(set) var size: PixelSize
    /// The columns each row holds: all of them, unless `cropColumns` narrowed them.
    public private(set) var columns: Range<Int>

    /// Bytes in one output row: the columns' count * 4.
    public var rowBytes: Int { columns.count * 4 }

    /// A TIFF's stored JPEG tile at (`column`, `row`) of the level whose IFD lies at `directory`
    /// (`ImageHeader.storedDirectories`) as a JPEG file of its own, its tables merged in, without decoding (as iipsrv
    /// answers; a tile the level's edge cuts is cut by its coefficients); nil when the file does not store that tile
    /// so (not tiled in `tileSize` squares, not JPEG-compressed YCbCr, RGB or gray, or with alpha). Reads the file's
    /// header, that one directory and the tile: a server that has the header already opens nothing else.
    public static func storedJPEGTile(
        in source: ImageSource, directory: UInt64, column: Int, row: Int, tileSize: Int
    ) throws(CodecError) -> [UInt8]? {
        guard directory != 0, column >= 0, row >= 0, tileSize > 0, tileSize <= Int(UInt32.max) else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let (x, y, side) = (UInt32(clamping: column), UInt32(clamping: row), UInt32(tileSize))
        let status = try source.withShimInput { input in
            switch input {
            case .memory(let raw):
                // No bytes, no tile (the shim takes a null pointer for "not in memory").
                guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return TV_ERR_UNSUPPORTED }
                return tv_image_stored_jpeg_tile_at(
                    base, raw.count, nil, -1, directory, x, y, side, &output, &length, &error)
            case .file(let path):
                return tv_image_stored_jpeg_tile_at(nil, 0, path, -1, directory, x, y, side, &output, &length, &error)
            case .descriptor(let fd):
                return tv_image_stored_jpeg_tile_at(nil, 0, nil, fd, directory, x, y, side, &output, &length, &error)
            }
        }
        if status == TV_ERR_UNSUPPORTED { return nil }
        guard status == TV_OK, let output else { throw CodecError(status: status, error: error, format: .tiff) }
        defer { tv_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// Narrows the rows to hold `wanted` (clipped to the image), widened to the tiles that hold them where the file
    /// is tiled (a tiled TIFF then decodes only those tiles); any other file keeps every column. Returns the columns
    /// each row now holds. Before the first read.
    @discardableResult
    public func cropColumns(_ wanted: Range<Int>) -> Range<Int> {
        precondition(nextRow == 0, "columns are chosen before the first read")
        let lower = min(max(wanted.lowerBound, 0), size.width)
        let upper = min(max(wanted.upperBound, lower), size.width)
        var x: UInt32 = 0
        var width: UInt32 = 0
        tv_image_crop_columns(decoder, UInt32(lower), UInt32(upper - lower), &x, &width)
        columns = Int(x)..<Int(x + width)
        return columns
    }

    /// Rows not yet delivered or skipped.
    public var remainingRows: Int { size.height - nextRow }

    /// Reads the rows of stored level `level` from now on (0: the image; k: `header.storedLevels[k - 1]`), from
    /// its first row and every column. Before the first read.
    public func selectLevel(_ level: Int) throws(CodecError) {
        precondition(nextRow == 0, "a level is chosen before the first read")
        precondition((0...header.storedLevels.count).contains(level), "no stored level \(level)")
        var info = tv_image_header()
        var error = tv_error()
        let status = tv_image_select_level(decoder, UInt32(level), &info, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: header.format) }
        size = PixelSize(width: Int(info.width), height: Int(info.height))
        columns = 0..<size.width
    }

    /// The library's warnings so far, after the colour description's.
    public var warnings: [String] {
        (header.color.warning.map { [$0] } ?? []) + warningTexts(tv_image_warnings(decoder))
    }

    /// Decodes the next `count` rows (fewer at the bottom) into `destination`, one row every `rowBytes` bytes, and
    /// returns how many it wrote.
    public func readRows(
        _ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int
    ) throws(CodecError) -> Int {
        let rows = rowsToRead(count, into: destination, rowBytes: stride)
        guard rows > 0 else { return 0 }
        return try read(rows, into: destination.baseAddress?.assumingMemoryBound(to: UInt8.self), stride: stride)
    }

    /// Decodes and drops the next `count` rows (a TIFF reads no strip or tile for them); returns how many.
    @discardableResult
    public func skipRows(_ count: Int) throws(CodecError) -> Int {
        let rows = min(max(count, 0), remainingRows)
        guard rows > 0 else { return 0 }
        return try read(rows, into: nil, stride: 0)
    }

    /// Decodes a file whose format decodes only whole (`header.decodesWhole`) once, and keeps it for `wholeRow`
    /// (HEIF: libheif's own image, no copy).
    public func decodeWhole() throws(CodecError) {
        precondition(header.decodesWhole, "this file's rows are streamed")
        var error = tv_error()
        let status = tv_image_decode_whole(decoder, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: header.format) }
    }

    /// Row `row` of the image `decodeWhole` kept (RGBA8, the stored width), valid while this reader lives. Any
    /// number of threads may read rows at once.
    public func wholeRow(_ row: Int) -> UnsafePointer<UInt8> {
        guard (0..<size.height).contains(row), let pointer = tv_image_whole_row(decoder, UInt32(row))
        else { preconditionFailure("row \(row) of an image not decoded whole, or past its end") }
        return pointer
    }

    /// Releases what the decoder holds; nothing is left to check after the rows in these formats.
    public func finish() throws(CodecError) {
        var error = tv_error()
        let status = tv_image_finish(decoder, &error)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: header.format) }
    }

    private func read(_ rows: Int, into destination: UnsafeMutablePointer<UInt8>?, stride: Int) throws(CodecError)
        -> Int
    {
        guard let destination, let parts, parts.count > 1, header.decoderPartBytes > 0 else {
            return try readUnits(rows, into: destination, stride)
        }
        // A row of units at a time: its units decoded at once (by at most `parts.count` threads), then its rows read
        // (decoding nothing).
        let unitRows = max(1, Int(tv_image_unit_rows(decoder)))
        var done = 0
        while done < rows {
            let units = Int(tv_image_parts_prepare(decoder, UInt32(nextRow)))
            if units > 1 {
                let handle = DecoderHandle(decoder)
                let threads = min(units, parts.count)
                parts.run(threads) { thread in
                    for unit in Swift.stride(from: thread, to: units, by: threads) {
                        tv_image_parts_decode(handle.decoder, UInt32(unit))
                    }
                }
                var error = tv_error()
                let status = tv_image_parts_join(decoder, &error)
                guard status == TV_OK else { throw CodecError(status: status, error: error, format: header.format) }
            }
            let inUnit = min(rows - done, unitRows - nextRow % unitRows)
            let got = try readUnits(inUnit, into: destination + done * stride, stride)
            done += got
            if got < inUnit { break }
        }
        return done
    }

    private func readUnits(_ rows: Int, into destination: UnsafeMutablePointer<UInt8>?, _ stride: Int)
        throws(CodecError) -> Int
    {
        var done: UInt32 = 0
        var error = tv_error()
        let status = tv_image_read_rows(decoder, destination, stride, UInt32(rows), &done, &error)
        nextRow += Int(done)
        guard status == TV_OK else { throw CodecError(status: status, error: error, format: header.format) }
        return Int(done)
    }

    /// The whole image (`ImageDecoder.decode` for these formats): rows decoded straight into the result, turned
    /// upright unless `options.applyOrientation` is false.
    static func decode(
        _ source: ImageSource, format: ImageFormat, options: DecodeOptions, parts: DecodeParts? = nil,
        accepting: (ImageHeader) throws(CodecError) -> Void
    ) throws(CodecError) -> DecodedImage {
        try source.withShimInput { (input) throws(CodecError) -> DecodedImage in
            let reader = try ImageRowReader(input: input, format: format, owner: nil, options: options)
            try accepting(reader.header)
            reader.parts = parts
            let size = reader.header.storedSize
            let decoded = try readBand(
                from: reader, rows: size.height, rowWidth: size.width, columns: 0..<size.width,
                lenient: options.lenient)
            let image = options.applyOrientation ? decoded.image.applying(reader.header.orientation) : decoded.image
            return DecodedImage(
                image: image, header: reader.header, warnings: reader.warnings + (decoded.failure.map { [$0] } ?? []))
        }
    }

    private static func text<T>(of tuple: T) -> String? {
        let text = withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        return text.isEmpty ? nil : text
    }

    private static func colorType(_ info: tv_image_header) -> String {
        let alpha = info.has_alpha != 0
        switch info.color {
        case TV_IMAGE_COLOR_GRAY: return alpha ? "gray+alpha" : "gray"
        case TV_IMAGE_COLOR_PALETTE: return alpha ? "palette+alpha" : "palette"
        case TV_IMAGE_COLOR_CMYK: return alpha ? "cmyk+alpha" : "cmyk"
        case TV_IMAGE_COLOR_YCBCR: return alpha ? "ycbcr+alpha" : "ycbcr"
        case TV_IMAGE_COLOR_RGB: return alpha ? "rgba" : "rgb"
        default: return alpha ? "other+alpha" : "other"
        }
    }

    /// A HEIF nclx colour box without an ICC profile: primaries other than BT.709's (or unspecified) become a
    /// made profile, with the sRGB transfer approximated by gamma 2.2; the PQ and HLG transfers (HDR) are not
    /// converted, and say so.
    private static func addNCLX(_ info: tv_image_header, to facts: inout ColorFacts) {
        let primaries = Int(info.nclx_primaries)
        let transfer = Int(info.nclx_transfer)
        if transfer == 16 || transfer == 18 {
            facts.iccProblem = "an HDR transfer (nclx \(transfer)) is shown as if it were sRGB's"
            return
        }
        guard primaries != 1 && primaries != 2 else { return }
        let xy = info.nclx_xy
        facts.chromaticities = (
            (xy.6, xy.7), (xy.0, xy.1), (xy.2, xy.3), (xy.4, xy.5), 2.2
        )
        facts.chromaticitiesName = "nclx primaries \(primaries)"
    }
}

extension ImageRowReader: RowStreamingReader {}

/// The decoder, handed to the threads that decode its parts (each touches only its own part's memory).
private struct DecoderHandle: @unchecked Sendable {
    let decoder: OpaquePointer
    init(_ decoder: OpaquePointer) { self.decoder = decoder }
}
