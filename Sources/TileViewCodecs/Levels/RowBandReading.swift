import TileViewCore

/// A reader that delivers rows top to bottom into caller memory (the PNG, JPEG and other formats' streaming readers).
public protocol RowStreamingReader: AnyObject {
    /// The next row it delivers.
    var nextRow: Int { get }
    /// The bytes of one delivered row (4 a pixel).
    var rowBytes: Int { get }
    /// Rows not delivered or skipped yet.
    var remainingRows: Int { get }
    func readRows(_ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes: Int) throws(CodecError)
        -> Int
    func finish() throws(CodecError)
}

extension RowStreamingReader {
    /// How many of `count` rows a read delivers (fewer at the bottom), after checking that `destination` holds them
    /// `stride` bytes apart.
    func rowsToRead(_ count: Int, into destination: UnsafeMutableRawBufferPointer, rowBytes stride: Int) -> Int {
        let rows = min(max(count, 0), remainingRows)
        guard rows > 0 else { return 0 }
        precondition(stride >= rowBytes, "rows must be at least \(rowBytes) bytes apart")
        precondition(destination.count >= (rows - 1) * stride + rowBytes, "the destination is too small")
        return rows
    }

    /// Decodes the next `count` rows into `image` starting at its row `row` (the image must be exactly as wide as
    /// the rows) and returns how many it wrote.
    public func readRows(_ count: Int, into image: inout ImageBuffer, atRow row: Int = 0) throws(CodecError) -> Int {
        let stride = rowBytes
        precondition(image.width * 4 == stride, "the image must be as wide as the rows")
        let rows = min(max(count, 0), image.height - row)
        guard rows > 0 else { return 0 }
        return try image.pixels.withMutableBytes { (raw) throws(CodecError) -> Int in
            try readRows(rows, into: UnsafeMutableRawBufferPointer(rebasing: raw[(row * stride)...]), rowBytes: stride)
        }
    }
}

extension PNGRowReader: RowStreamingReader {}
extension JPEGScanlineReader: RowStreamingReader {}

/// The pixels of a band of rows, and the error that cut it short in lenient mode.
struct DecodedBand {
    var image: ImageBuffer
    var failure: String?
}

/// Reads the next `rows` rows of a reader whose rows are `rowWidth` pixels wide, keeps the
/// `columns` of each, then finishes the reader (which reads on to the end of the stream when
/// the band ends at the last row, and aborts otherwise).
///
/// When the band keeps whole rows they are decoded straight into the result; otherwise they
/// pass through a scratch band of up to 16 rows. Strict: any error is thrown. Lenient: when
/// at least one row was decoded, the rows after an error are left transparent and the error
/// is returned as text.
func readBand(
    from reader: some RowStreamingReader, rows: Int, rowWidth: Int, columns: Range<Int>, lenient: Bool
) throws(CodecError) -> DecodedBand {
    precondition(columns.lowerBound >= 0 && columns.upperBound <= rowWidth, "columns outside the row")
    let width = columns.count
    let outRowBytes = width * 4
    let byteCount = outRowBytes * rows
    let firstRow = reader.nextRow
    var failure: CodecError?
    var rowsWritten = 0
    let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
        let out = UnsafeMutableRawBufferPointer(buffer)
        do throws(CodecError) {
            if width == rowWidth {
                defer { rowsWritten = min(max(reader.nextRow - firstRow, 0), rows) }
                _ = try reader.readRows(rows, into: out, rowBytes: outRowBytes)
            } else if rows > 0 && width > 0 {
                let inRowBytes = rowWidth * 4
                let bandRows = min(rows, 16)
                let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: inRowBytes * bandRows, alignment: 16)
                defer { scratch.deallocate() }
                func keep(_ count: Int) {
                    for k in 0..<count {
                        let from = scratch.baseAddress! + k * inRowBytes + columns.lowerBound * 4
                        let to = out.baseAddress! + (rowsWritten + k) * outRowBytes
                        to.copyMemory(from: from, byteCount: outRowBytes)
                    }
                    rowsWritten += count
                }
                while rowsWritten < rows {
                    let before = reader.nextRow
                    do throws(CodecError) {
                        let want = min(bandRows, rows - rowsWritten)
                        let got = try reader.readRows(want, into: scratch, rowBytes: inRowBytes)
                        keep(got)
                        if got == 0 { break }
                    } catch {
                        keep(min(max(reader.nextRow - before, 0), rows - rowsWritten))
                        throw error
                    }
                }
            }
            if rowsWritten < rows {
                throw CodecError(.truncated, "the decoder delivered \(rowsWritten) of \(rows) rows")
            }
            try reader.finish()
        } catch {
            failure = error
        }
        // Rows never written (after an error) are transparent black.
        let written = rowsWritten * outRowBytes
        if written < byteCount, let base = out.baseAddress {
            (base + written).initializeMemory(as: UInt8.self, repeating: 0, count: byteCount - written)
        }
        initialized = byteCount
    }
    let image = ImageBuffer(width: width, height: rows, pixels: pixels)
    guard let failure else { return DecodedBand(image: image, failure: nil) }
    // Lenient: what decoded, the rest transparent, even when no row did (as a frame drawn from the rows streamed
    // shows it), so that decode and zoom agree on every file.
    guard lenient else { throw failure }
    let note = rowsWritten < rows ? " (the last \(rows - rowsWritten) of \(rows) rows are left transparent)" : ""
    return DecodedBand(image: image, failure: failure.message + note)
}
