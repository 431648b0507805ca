import TileViewCore
import TileViewTiling

/// Gathers the tiles of one level into one buffer covering a level pixel rect: the source a
/// `FrameRenderer` reads, made from cached or freshly decoded tiles.
public enum TileMosaic {
    /// The pixels of `levelRect` (clipped to the level) copied out of the tiles that meet it, asked
    /// for in row-major order. A tile that `tile` does not supply, or supplies at the wrong size (it
    /// must be `grid.pixelRect(of:)`'s size), leaves its pixels transparent black. Returns the buffer
    /// and the level pixel its top left is, or nil when the rect misses the level.
    public static func assemble(
        levelRect: PixelRect, grid: TileGrid, tile: (TileID) -> ImageBuffer?
    ) -> (buffer: ImageBuffer, origin: (x: Int, y: Int))? {
        var storage: [UInt8]? = nil
        return assemble(levelRect: levelRect, grid: grid, storage: &storage, tile: tile)
    }

    /// `assemble`, with the pixels of an assembled buffer made in `storage`'s memory where its capacity holds them
    /// (`ImageBuffer(width:height:reusing:)`). `storage` is set to nil when the buffer was assembled (the buffer
    /// then owns its pixels alone) and left as it was when no buffer was: the rect misses the level, or it is exactly
    /// one whole tile, whose buffer is handed on as it is (shared with whoever keeps the tile).
    public static func assemble(
        levelRect: PixelRect, grid: TileGrid, storage: inout [UInt8]?, tile: (TileID) -> ImageBuffer?
    ) -> (buffer: ImageBuffer, origin: (x: Int, y: Int))? {
        guard let rect = levelRect.intersection(PixelRect(size: grid.levelSize)) else { return nil }
        let ids = grid.tiles(intersecting: rect)
        if ids.count == 1, grid.pixelRect(of: ids[0]) == rect, let pixels = tile(ids[0]), pixels.size == rect.size {
            return (pixels, (rect.x, rect.y))  // exactly one whole tile: no copy
        }
        let reused = storage ?? []
        storage = nil
        var buffer = ImageBuffer(width: rect.width, height: rect.height, reusing: consume reused)
        for id in ids {
            let tileRect = grid.pixelRect(of: id)
            guard let pixels = tile(id), pixels.size == tileRect.size,
                let common = tileRect.intersection(rect)
            else { continue }
            buffer.copy(
                PixelRect(
                    x: common.x - tileRect.x, y: common.y - tileRect.y, width: common.width, height: common.height),
                of: pixels, to: (common.x - rect.x, common.y - rect.y))
        }
        return (buffer, (rect.x, rect.y))
    }
}
