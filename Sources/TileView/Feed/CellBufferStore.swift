import TileViewCore
import TileViewFeed

/// The decoded thumbnails of the resident grid cells: a pool of cell-sized RGBA8 buffers that follows the
/// plans of `CellPool` (`CellPoolUpdate`).
///
/// For each move: the buffers of leaving cells that no entering cell takes are freed first; each reuse moves a
/// leaving cell's buffer to the entering cell it is planned for (same pixel size) and the new thumbnail is
/// written into that storage in place; each allocation keeps the newly rendered buffer. So the store holds
/// exactly the cells of `update.resident`, never more buffers than `CellPool`'s bound, and during a move at most
/// the entering cells' thumbnails besides them.
public struct CellBufferStore: Sendable {
    /// One thumbnail per resident cell.
    public private(set) var buffers: [CellID: ImageBuffer] = [:]
    /// Thumbnails rendered so far (each entering cell once).
    public private(set) var thumbnailsRendered = 0
    /// Entering cells that took over a leaving cell's buffer.
    public private(set) var buffersReused = 0
    /// Entering cells that needed a new buffer.
    public private(set) var buffersAllocated = 0
    /// Leaving cells whose buffer was freed.
    public private(set) var buffersReleased = 0

    public init() {}

    /// Cells holding a thumbnail.
    public var count: Int { buffers.count }

    /// Bytes the thumbnails hold.
    public var residentBytes: Int { buffers.values.reduce(0) { $0 + $1.byteCount } }

    /// The thumbnail of `cell`, if resident.
    public subscript(cell: CellID) -> ImageBuffer? { buffers[cell] }

    /// Applies one move: frees, hands over and fills buffers as `update` plans. `render` receives the entering
    /// cells in feed order (after the freed buffers are gone) and returns their thumbnails in the same order,
    /// each of the cell's pixel size.
    public mutating func apply<Failure: Error>(
        _ update: CellPoolUpdate, render: ([CellRef]) throws(Failure) -> [ImageBuffer]
    ) throws(Failure) {
        for cell in update.releases {
            buffers[cell.id] = nil
            buffersReleased += 1
        }
        var handedOver: [CellID: ImageBuffer] = [:]
        for reuse in update.reuses {
            handedOver[reuse.to] = buffers.removeValue(forKey: reuse.from)
        }
        for cell in update.leaving { buffers[cell.id] = nil }
        guard !update.entering.isEmpty else { return }
        let thumbnails = try render(update.entering)
        precondition(thumbnails.count == update.entering.count, "one thumbnail per entering cell")
        for (cell, thumbnail) in zip(update.entering, thumbnails) {
            precondition(
                thumbnail.size == cell.pixelSize, "thumbnail \(thumbnail.size) for a cell of \(cell.pixelSize)")
            thumbnailsRendered += 1
            if var buffer = handedOver.removeValue(forKey: cell.id), buffer.size == thumbnail.size {
                buffer.pixels.withUnsafeMutableBufferPointer { target in
                    thumbnail.pixels.withUnsafeBufferPointer { source in
                        target.baseAddress!.update(from: source.baseAddress!, count: source.count)
                    }
                }
                buffers[cell.id] = buffer
                buffersReused += 1
            } else {
                buffers[cell.id] = thumbnail
                buffersAllocated += 1
            }
        }
    }
}
