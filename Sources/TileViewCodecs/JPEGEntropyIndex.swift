import CImageCodecs
import TileViewCore

/// Random access into a baseline JPEG: the entropy decoder's state every 8 MCUs of every MCU row, found by one
/// pass over the file, so that a rect is decoded without the rows above it (the C shim's `tv_jpeg_index_*`).
///
/// A baseline JPEG can only be read from the top: to decode a band at the bottom, a decoder must entropy-decode
/// every row above it. With the index, `levelRect(_:level:options:)` decodes the MCUs around the rect alone:
/// it copies their coefficients into a small JPEG of their own and decodes that with the file's settings, so
/// the pixels are the ones a decode of the whole file gives (one MCU of margin is kept on each side that is
/// not an edge of the image, for fancy upsampling).
///
/// Only files whose decode the index reproduces exactly are taken (one interleaved Huffman scan of 8-bit
/// samples, 1 or 3 components, clean data ending in EOI, a header libjpeg starts on without a warning); `init`
/// throws for the others, and the caller decodes those as usual. Pyramid levels 0 to 3 (libjpeg's own scales);
/// the levels beyond are box-reduced from 1/8 in blocks that need not line up with an MCU. The index keeps the
/// file open: a file replaced on disk is not seen (key it by the file's version). Thread-safe: crops read with
/// `pread`.
public final class JPEGEntropyIndex: Sendable {
    private nonisolated(unsafe) let handle: OpaquePointer
    /// The stored image size.
    public let size: PixelSize
    /// Pixels of one MCU.
    public let mcuSize: PixelSize
    /// MCU columns and rows.
    public let mcuColumns: Int
    public let mcuRows: Int
    /// Memory the index holds.
    public let bytes: Int

    /// The deepest pyramid level a crop serves (1/8 scale).
    public static let deepestLevel = 3

    /// The largest file indexed (64 MiB, `TV_JPEG_INDEX_MAX_FILE`): a larger one is decoded in bands.
    public static let maxFileBytes = Int(TV_JPEG_INDEX_MAX_FILE)

    /// What every index holds besides its header and entries: its Huffman tables and state.
    public static let fixedBytes = tv_jpeg_index_fixed_bytes()

    /// At most what building the index of a JPEG of `storedSize` in a file of `fileBytes` holds, saving it
    /// included, for a memory plan: the pass's window and its copy of the header (each at most the file and at
    /// most `TV_JPEG_INDEX_MAX_HEADER`), and the entries (16 bytes per 8 MCUs of a row, MCUs of 8x8 pixels at the
    /// least, at most `TV_JPEG_INDEX_MAX_ENTRIES`; a file past either limit is refused before they are allocated);
    /// then the index (its tables too) with its saved bytes in C and in Swift, three times its header and entries;
    /// and 1 MiB for libjpeg's look at the header.
    public static func passBytes(storedSize: PixelSize, fileBytes: Int) -> Int {
        let header = min(max(0, fileBytes), Int(TV_JPEG_INDEX_MAX_HEADER))
        // A JPEG is at most 65,535 pixels a side.
        let columns = (min(max(0, storedSize.width), 65_535) + 7) / 8
        let rows = (min(max(0, storedSize.height), 65_535) + 7) / 8
        let entries = min(rows * ((columns + 7) / 8 + 1) * 16, Int(TV_JPEG_INDEX_MAX_ENTRIES))
        // Saved, 36 bytes more: the layout's name and lengths.
        return 3 * (header + entries + 36) + fixedBytes + (1 << 20)
    }

    /// Reads the whole file once (it is released at the end) and records the decoder's state.
    public convenience init(path: String) throws(CodecError) {
        try self.init(.file(path: path))
    }

    /// The index of a file source (by path or an open descriptor, of which the index keeps a duplicate); a
    /// bytes source is refused (`unsupported`: decode it as usual).
    public convenience init(_ source: ImageSource) throws(CodecError) {
        var handle: OpaquePointer?
        var error = tv_error()
        let status: tv_status
        switch source {
        case .file(let path):
            status = tv_jpeg_index_build(path, &handle, &error)
        case .descriptor(let descriptor):
            status = tv_jpeg_index_build_descriptor(descriptor.rawValue, &handle, &error)
            withExtendedLifetime(descriptor) {}
        case .bytes:
            throw CodecError(.unsupported, "an index is built over a file, not bytes in memory")
        }
        guard status == TV_OK, let handle else { throw CodecError(status: status, error: error, format: .jpeg) }
        self.init(handle: handle)
    }

    /// An index read back from `saved()`'s bytes, over the file `descriptor` opens (of which it keeps a
    /// duplicate): the header is parsed again and every entry checked against the file, so bytes of another file
    /// or build are refused (`corrupt`) rather than trusted.
    public convenience init(loading bytes: [UInt8], descriptor: OpenDescriptor) throws(CodecError) {
        var handle: OpaquePointer?
        var error = tv_error()
        let status = bytes.withUnsafeBufferPointer { buffer in
            tv_jpeg_index_load(descriptor.rawValue, buffer.baseAddress, buffer.count, &handle, &error)
        }
        withExtendedLifetime(descriptor) {}
        guard status == TV_OK, let handle else { throw CodecError(status: status, error: error, format: .jpeg) }
        self.init(handle: handle)
    }

    private init(handle: OpaquePointer) {
        self.handle = handle
        var geometry = tv_jpeg_index_geometry()
        tv_jpeg_index_describe(handle, &geometry)
        size = PixelSize(width: Int(geometry.width), height: Int(geometry.height))
        mcuSize = PixelSize(width: Int(geometry.mcu_width), height: Int(geometry.mcu_height))
        mcuColumns = Int(geometry.mcus_x)
        mcuRows = Int(geometry.mcus_y)
        bytes = geometry.bytes
    }

    deinit { tv_jpeg_index_free(handle) }

    /// The index as bytes to keep (a disk cache), read back by `init(loading:descriptor:)`.
    public func saved() throws(CodecError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = tv_jpeg_index_save(handle, &output, &length, &error)
        guard status == TV_OK, let output else { throw CodecError(status: status, error: error, format: .jpeg) }
        defer { tv_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// The MCUs `columns` x `rows` as a JPEG of their own (see `tv_jpeg_index_crop`), with `profile` in its APP2
    /// markers when given (a crop of a file that is not sRGB carries the file's profile, docs/design.md section 14).
    public func crop(columns: Range<Int>, rows: Range<Int>, profile: [UInt8]? = nil) throws(CodecError) -> [UInt8] {
        precondition(
            !columns.isEmpty && !rows.isEmpty && columns.lowerBound >= 0 && rows.lowerBound >= 0
                && columns.upperBound <= mcuColumns && rows.upperBound <= mcuRows, "the MCU rect lies outside the image"
        )
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = tv_error()
        let status = (profile ?? []).withUnsafeBufferPointer { icc in
            tv_jpeg_index_crop(
                handle, UInt32(columns.lowerBound), UInt32(rows.lowerBound), UInt32(columns.upperBound),
                UInt32(rows.upperBound), icc.count > 0 ? icc.baseAddress : nil, icc.count, &output, &length, &error)
        }
        return try encodedBytes(status: status, output: output, length: length, error: error, what: "JPEG")
    }

    /// The pixels of `rect` (clipped) of pyramid level `level` (0...3) of the stored image, as a decode of the
    /// whole file at that level gives them, decoded from the MCUs around the rect only. With `options.color` sRGB,
    /// `color` (the file's, which the crop does not carry) converts them, as the file's decoder does row by row.
    public func levelRect(
        _ rect: PixelRect, level: Int, options: DecodeOptions, color: ColorDescription = .assumedSRGB
    ) throws(CodecError) -> ImageBuffer {
        precondition((0...Self.deepestLevel).contains(level), "the index serves levels 0 to 3")
        let scale = LevelScale.pyramidLevel(level, format: .jpeg)
        let levelSize = scale.levelSize(ofStored: size)
        guard let clipped = rect.intersection(PixelRect(size: levelSize)) else {
            return ImageBuffer(width: 0, height: 0, pixels: [])
        }
        // Stored pixels under the rect, then the MCUs around them with one of margin.
        let left = (clipped.x << level) / mcuSize.width - 1
        let top = (clipped.y << level) / mcuSize.height - 1
        let right = (min(clipped.maxX << level, size.width) + mcuSize.width - 1) / mcuSize.width + 1
        let bottom = (min(clipped.maxY << level, size.height) + mcuSize.height - 1) / mcuSize.height + 1
        let columns = max(0, left)..<min(mcuColumns, right)
        let rows = max(0, top)..<min(mcuRows, bottom)
        let jpeg = try crop(columns: columns, rows: rows)
        // An MCU is 8, 16 or 32 stored pixels: whole level pixels at 1/2, 1/4 and 1/8.
        let origin = (x: (columns.lowerBound * mcuSize.width) >> level, y: (rows.lowerBound * mcuSize.height) >> level)
        let local = PixelRect(
            x: clipped.x - origin.x, y: clipped.y - origin.y, width: clipped.width, height: clipped.height)
        var stored = options
        stored.color = .keep
        let reader = try LevelReader(.bytes(jpeg), format: .jpeg, scale: scale, rect: local, options: stored)
        var (image, failure) = try reader.readAll()
        if let failure { throw CodecError(.corrupt, "a crop through the JPEG index failed: \(failure)") }
        if options.color == .srgb, let transform = color.transform { transform.apply(to: &image) }
        return image
    }
}
