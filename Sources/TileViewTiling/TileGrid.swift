import TileViewCore

/// The tiles of one level: square tiles of `tileSize` pixels from the top left, the last column and
/// row cut short where the level's size is not a multiple of the tile size.
///
/// Every pixel of the level belongs to exactly one tile. All coordinates here are level pixels.
public struct TileGrid: Hashable, Sendable, CustomStringConvertible {
    /// The default tile edge, in pixels.
    public static let defaultTileSize = 256

    /// The level this grid tiles (copied into every `TileID` it hands out).
    public let level: Int
    /// The level's size in pixels.
    public let levelSize: PixelSize
    /// The edge of a full tile in pixels (at least 1).
    public let tileSize: Int

    /// A grid over `levelSize`; a tile size below 1 is taken as 1 and negative sizes as empty.
    public init(level: Int = 0, levelSize: PixelSize, tileSize: Int = TileGrid.defaultTileSize) {
        self.level = level
        self.levelSize = PixelSize(width: max(0, levelSize.width), height: max(0, levelSize.height))
        self.tileSize = max(1, tileSize)
    }

    /// Tiles across: ceil(width / tileSize).
    public var columns: Int { (levelSize.width + tileSize - 1) / tileSize }
    /// Tiles down: ceil(height / tileSize).
    public var rows: Int { (levelSize.height + tileSize - 1) / tileSize }
    /// columns * rows.
    public var tileCount: Int { columns * rows }

    /// The level pixels of a tile: full tiles are `tileSize` square, the last column and row are
    /// narrower. A tile outside the grid (or of another level) gets its rect clipped to the
    /// level, which is empty (zero width or height) when it lies outside.
    public func pixelRect(of tile: TileID) -> PixelRect {
        let x0 = min(max(tile.column * tileSize, 0), levelSize.width)
        let y0 = min(max(tile.row * tileSize, 0), levelSize.height)
        let x1 = min(max((tile.column + 1) * tileSize, 0), levelSize.width)
        let y1 = min(max((tile.row + 1) * tileSize, 0), levelSize.height)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The tiles whose pixels meet `levelRect`, in row-major order (top row first, left to right).
    /// Parts of the rect outside the level are ignored; an empty rect meets no tile.
    public func tiles(intersecting levelRect: PixelRect) -> [TileID] {
        guard let range = tileRange(intersecting: levelRect) else { return [] }
        var result: [TileID] = []
        result.reserveCapacity(range.columns.count * range.rows.count)
        for row in range.rows {
            for column in range.columns {
                result.append(TileID(level: level, column: column, row: row))
            }
        }
        return result
    }

    /// The column and row ranges of the tiles meeting `levelRect`, or nil when it meets none.
    public func tileRange(intersecting levelRect: PixelRect) -> (columns: Range<Int>, rows: Range<Int>)? {
        guard let clipped = levelRect.intersection(PixelRect(size: levelSize)) else { return nil }
        let columns = (clipped.x / tileSize)..<((clipped.maxX - 1) / tileSize + 1)
        let rows = (clipped.y / tileSize)..<((clipped.maxY - 1) / tileSize + 1)
        return (columns, rows)
    }

    /// Every tile of the level, row-major.
    public var allTiles: [TileID] { tiles(intersecting: PixelRect(size: levelSize)) }

    public var description: String { "level \(level) \(levelSize) in \(columns)x\(rows) tiles of \(tileSize)" }
}
