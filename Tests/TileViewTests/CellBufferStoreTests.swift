import Testing
import TileView
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// The pool of thumbnail buffers follows the cell pool's plans.
@Suite("Cell buffer store")
struct CellBufferStoreTests {
    /// A thumbnail standing for `cell`: filled with a colour made from its identity.
    static func thumbnail(_ cell: CellRef) -> ImageBuffer {
        ImageBuffer(width: cell.pixelSize.width, height: cell.pixelSize.height, fill: colour(cell))
    }

    static func colour(_ cell: CellRef) -> RGBA8 {
        RGBA8(r: UInt8(cell.section & 0xFF), g: UInt8(cell.item & 0xFF), b: UInt8((cell.item >> 8) & 0xFF))
    }

    static func baseAddress(_ buffer: ImageBuffer) -> UInt {
        buffer.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test(
        "after every move the store holds exactly the resident cells, each with its own pixels, reused buffers in place"
    )
    func followsThePool() throws {
        let seed: UInt64 = 0xB0FF_E125
        print("cell buffer store sweep seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let layout = FeedLayout(
            sections: [
                .header(height: 70, colour: .black), .grid(itemCount: 500, columns: 3),
                .image(pixelSize: PixelSize(width: 300, height: 200)), .grid(itemCount: 77, columns: 5),
            ],
            viewportSize: PixelSize(width: 301, height: 250))
        var pool = CellPool(layout: layout)
        var store = CellBufferStore()
        var reuses = 0
        var offset = 0
        for step in 0..<120 {
            let next = max(0, offset + rng.int(below: 1601) - 700)
            let update = pool.scroll(
                toContainerOffset: next, scrollDirection: FeedScrollDirection(from: offset, to: next))
            offset = next
            let addresses = Dictionary(
                uniqueKeysWithValues: update.reuses.map { ($0.to, Self.baseAddress(store[$0.from]!)) })
            var rendered: [CellID] = []
            store.apply(update) { cells in
                rendered = cells.map(\.id)
                return cells.map(Self.thumbnail)
            }
            reuses += update.reuses.count
            #expect(rendered == update.entering.map(\.id), "step \(step): the entering cells are rendered, in order")
            #expect(Set(store.buffers.keys) == Set(update.resident.map(\.id)), "step \(step)")
            for cell in update.resident {
                let buffer = try #require(store[cell.id])
                let expected = Self.colour(cell)
                #expect(buffer.size == cell.pixelSize, "step \(step): \(cell.id) has its cell's size")
                #expect(
                    buffer[0, 0] == expected && buffer[buffer.width - 1, buffer.height - 1] == expected,
                    "step \(step): \(cell.id) holds its own pixels")
            }
            for (cell, address) in addresses {
                #expect(Self.baseAddress(store[cell]!) == address, "step \(step): \(cell) took its buffer in place")
            }
            #expect(store.residentBytes == pool.residentBytes)
            #expect(store.count <= layout.maxResidentCells)
        }
        #expect(store.buffersReused == reuses)
        #expect(reuses > 0, "the sweep exercised reuse")
        #expect(store.thumbnailsRendered == store.buffersReused + store.buffersAllocated)
    }
}
