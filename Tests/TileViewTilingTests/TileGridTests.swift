import Testing
import TileViewCore
import TileViewTestSupport
import TileViewTiling

@Suite("Tile grid")
struct TileGridTests {
    @Test("tiles(intersecting:) returns exactly the tiles whose rects meet the rect, in row-major order")
    func tilesIntersectingMatchBruteForce() {
        forEachSeed(1...300) { seed, rng in
            let grid = TileGrid(
                level: rng.int(0...5), levelSize: PixelSize(width: rng.int(0...700), height: rng.int(0...700)),
                tileSize: rng.chance(0.3) ? rng.int(1...16) : rng.int(17...300))
            guard grid.tileCount <= 5000 else { return }
            let all = grid.allTiles
            for _ in 0..<20 {
                let rect = PixelRect(
                    x: rng.int(-100...750), y: rng.int(-100...750), width: rng.int(-5...400), height: rng.int(-5...400))
                let expected = all.filter { grid.pixelRect(of: $0).intersection(rect) != nil }
                let got = grid.tiles(intersecting: rect)
                #expect(got == expected, "seed \(seed): \(grid), rect \(rect)")
            }
        }
    }

    @Test("tile rects partition the level: every pixel in exactly one tile, only the last column and row short")
    func tileRectsPartitionTheLevel() {
        forEachSeed(1...150) { seed, rng in
            let size = PixelSize(width: rng.int(0...90), height: rng.int(0...90))
            let grid = TileGrid(levelSize: size, tileSize: rng.int(1...40))
            var owners = [Int](repeating: 0, count: size.width * size.height)
            for tile in grid.allTiles {
                let r = grid.pixelRect(of: tile)
                let fullWidth = tile.column < grid.columns - 1
                let fullHeight = tile.row < grid.rows - 1
                #expect(r.width > 0 && r.height > 0, "seed \(seed): empty tile \(tile)")
                #expect(!fullWidth || r.width == grid.tileSize, "seed \(seed): \(tile) is \(r)")
                #expect(!fullHeight || r.height == grid.tileSize, "seed \(seed): \(tile) is \(r)")
                for y in r.y..<r.maxY {
                    for x in r.x..<r.maxX { owners[y * size.width + x] += 1 }
                }
            }
            #expect(owners.allSatisfy { $0 == 1 }, "seed \(seed): \(grid) does not cover each pixel once")
            #expect(
                grid.columns * grid.tileSize >= size.width && (grid.columns - 1) * grid.tileSize < max(size.width, 1))
        }
    }

    @Test("a 6000x4000 level makes 24x16 tiles of 256 with short edge tiles")
    func photoGrid() {
        let grid = TileGrid(levelSize: PixelSize(width: 6000, height: 4000))
        #expect(grid.columns == 24 && grid.rows == 16 && grid.tileCount == 384)
        #expect(
            grid.pixelRect(of: TileID(level: 0, column: 23, row: 15))
                == PixelRect(x: 5888, y: 3840, width: 112, height: 160))
        #expect(
            grid.tiles(intersecting: PixelRect(x: 250, y: 0, width: 10, height: 257)) == [
                TileID(level: 0, column: 0, row: 0), TileID(level: 0, column: 1, row: 0),
                TileID(level: 0, column: 0, row: 1), TileID(level: 0, column: 1, row: 1),
            ])
    }

    @Test("a tile outside the grid has an empty rect and an empty level has no tiles")
    func outsideTilesAreEmpty() {
        let grid = TileGrid(levelSize: PixelSize(width: 300, height: 200), tileSize: 128)
        #expect(grid.pixelRect(of: TileID(level: 0, column: 3, row: 0)).isEmpty)
        #expect(grid.pixelRect(of: TileID(level: 0, column: -1, row: 0)).isEmpty)
        let empty = TileGrid(levelSize: PixelSize(width: 0, height: 50))
        #expect(empty.tileCount == 0 && empty.allTiles.isEmpty)
        #expect(empty.tiles(intersecting: PixelRect(x: 0, y: 0, width: 10, height: 10)).isEmpty)
    }
}
