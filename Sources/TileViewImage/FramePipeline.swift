import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewSystem

/// One frame drawn straight from the decoder and encoded as PNG over three threads: the decoder's rows
/// (`PrefetchedRows`), the renderer and the PNG encoder (`PNGRowEncoder`), each stage waiting on the one before
/// it in bands of rows, while the calling thread waits for all three. On two cores decoding then limits the
/// frame, with resampling and compression hidden behind it.
///
/// The renderer has a thread of its own rather than the calling one (a pool thread that had parsed the arguments):
/// it was faster on two processors, for a reason not established (docs/benchmarks.md, "The renderer on a thread of
/// its own", has the figures).
///
/// The bytes are those of `FrameRenderer.render(rows:)` then `PNGEncoder.encode`: every stage does the work the
/// single thread did, in the same order; only when it happens changes. The renderer's frame buffer is written
/// row by row and the encoder reads a row only after the renderer said it is final (`rowsDone`).
package enum FramePipeline {
    /// Rows a stage waits for at once when it has to wait (fewer wake-ups than one row at a time).
    package static let band = 16
    /// Rows of the decoded-row ring (more than `band`, so neither side waits for the other forever).
    package static let ringRows = 64

    /// Whether a frame of `frameSize` is worth the threads: two processors at least, and more pixels than thread
    /// start-up costs.
    package static func pays(frameSize: PixelSize) -> Bool {
        SystemInfo.availableProcessors > 1 && frameSize.pixelCount >= 128 * 128
    }

    /// The frame of `renderer` drawn from the rows of `reader` (started at the renderer's `sourceRect`), and its
    /// PNG file with the default options as if the frame were opaque (RGB; the caller checks `image.isOpaque`).
    /// The reader is back with the caller when this returns.
    package static func render(
        _ renderer: FrameRenderer, reader: LevelReader
    ) -> (image: ImageBuffer, png: Result<[UInt8], CodecError>) {
        let size = renderer.geometry.frameSize
        let width = max(0, size.width)
        let height = max(0, size.height)
        let count = width * height * 4
        var png: Result<[UInt8], CodecError> = .failure(CodecError(.unsupported, "the frame was not encoded"))
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = count
            guard let base = buffer.baseAddress else { return }
            let drawn = GrowingCount()
            let encoder = WorkerThread.start { encode(base, width: width, height: height, drawn: drawn) }
            let rows = PrefetchedRows(reader)
            let drawer = WorkerThread.start {
                var source = rows
                renderer.render(rows: &source, into: base, rowsDone: drawn.raise(to:))
            }
            drawer.join()
            rows.finish()
            drawn.close()
            png = encoder.join()
        }
        return (ImageBuffer(width: width, height: height, pixels: pixels), png)
    }

    /// Encodes the rows from `base` as `drawn` says they are final, then ends the file.
    private static func encode(
        _ base: UnsafePointer<UInt8>, width: Int, height: Int, drawn: GrowingCount
    ) -> Result<[UInt8], CodecError> {
        do throws(CodecError) {
            let encoder = try PNGRowEncoder(width: width, height: height, opaque: true)
            let rowBytes = width * 4
            var written = 0
            while written < height {
                let ready = min(drawn.wait(forAtLeast: written + 1, preferring: min(written + band, height)), height)
                guard ready > written else { throw unfinished }
                try encoder.write(base + written * rowBytes, rowBytes: rowBytes, count: ready - written)
                written = ready
            }
            return .success(try encoder.finish())
        } catch {
            return .failure(error)
        }
    }

    private static var unfinished: CodecError { CodecError(.unsupported, "the frame was not drawn to its end") }
}

/// Level rows decoded on a thread of their own into a ring of `FramePipeline.ringRows` rows, ahead of the
/// renderer that reads them (a `LevelRowSource`): the decoder runs while the renderer filters the rows before.
///
/// The reader is handed over: from `init` until `finish()` only the decoding thread uses it. The ring slot of a
/// row is reused only after the renderer asked for a later row (a row's pointer stays valid until the next call,
/// as `LevelRowSource` promises). When no thread can be started (one processor), `row` reads the reader itself.
package final class PrefetchedRows: LevelRowSource {
    /// Read by `row` only when no decoding thread runs.
    private let reader: LevelReader
    private let rect: PixelRect
    private let rowBytes: Int
    private let ring: UnsafeMutablePointer<UInt8>
    /// Rows of the rect in the ring so far, counted from its top.
    private let decoded = GrowingCount()
    /// Rows the renderer is done with (all those above the one it asked for last).
    private let released = GrowingCount()
    private var worker: WorkerThread<Void>?

    /// Starts decoding the rows of `reader.rect` (the reader is started, at the rect's first row).
    package init(_ reader: LevelReader) {
        self.reader = reader
        rect = reader.rect
        rowBytes = max(rect.width * 4, 4)
        let slots = FramePipeline.ringRows
        ring = .allocate(capacity: rowBytes * slots)
        let (slotsBase, area, slotBytes, decodedRows, releasedRows) = (ring, rect, rowBytes, decoded, released)
        worker = WorkerThread.start {
            BatchScheduling.run {
                for index in 0..<area.height {
                    // The slot is free once the renderer has gone past the row that held it.
                    let free = index - slots + 1
                    guard releasedRows.wait(forAtLeast: free, preferring: free + FramePipeline.band) >= free
                    else { break }
                    (slotsBase + (index % slots) * slotBytes).update(
                        from: reader.row(area.y + index), count: area.width * 4)
                    decodedRows.raise(to: index + 1)
                }
            }
            decodedRows.close()
        }
        if worker?.isRunning != true { worker = nil }
    }

    deinit { ring.deallocate() }

    /// Bytes of decoded rows held: the ring while a thread decodes into it, else none.
    package var heldBytes: Int { isRunning ? rowBytes * FramePipeline.ringRows : 0 }

    /// Whether the rows are decoded on a thread of their own (else `row` reads the reader itself).
    package var isRunning: Bool { worker != nil }

    package func row(_ levelY: Int) -> UnsafePointer<UInt8> {
        guard isRunning else { return reader.row(levelY) }
        let index = levelY - rect.y
        precondition(index >= 0 && index < rect.height, "level row \(levelY) outside \(rect)")
        released.raise(to: index)
        let ready = decoded.wait(forAtLeast: index + 1, preferring: min(index + FramePipeline.band, rect.height))
        precondition(ready > index, "the decoding thread stopped before level row \(levelY)")
        return UnsafePointer(ring + (index % FramePipeline.ringRows) * rowBytes)
    }

    /// Lets the decoding thread end (it stops early when the renderer asked for fewer rows) and waits for it.
    package func finish() {
        released.close()
        worker?.join()
        worker = nil
    }
}
