import Testing
import TileViewCore
import TileViewIIIF
import TileViewTestSupport

@Suite struct DeepZoomTests {
    @Test func levels() {
        let image = DeepZoomImage(size: PixelSize(width: 6000, height: 4000))
        #expect(image.maxLevel == 13)
        #expect(image.levelSize(13) == PixelSize(width: 6000, height: 4000))
        #expect(image.levelSize(12) == PixelSize(width: 3000, height: 2000))
        #expect(image.levelSize(8) == PixelSize(width: 188, height: 125))
        #expect(image.levelSize(0) == PixelSize(width: 1, height: 1))
        #expect(image.levelSize(14) == nil && image.levelSize(-1) == nil)
        #expect(DeepZoomImage(size: PixelSize(width: 1, height: 1)).maxLevel == 0)
        #expect(DeepZoomImage(size: PixelSize(width: 256, height: 3)).maxLevel == 8)
        #expect(DeepZoomImage(size: PixelSize(width: 257, height: 3)).maxLevel == 9)
    }

    @Test func tiles() {
        let image = DeepZoomImage(size: PixelSize(width: 600, height: 300))
        #expect(image.tileGrid(level: 10)! == (3, 2))
        #expect(image.tileRect(level: 10, column: 0, row: 0) == PixelRect(x: 0, y: 0, width: 256, height: 256))
        #expect(image.tileRect(level: 10, column: 2, row: 1) == PixelRect(x: 512, y: 256, width: 88, height: 44))
        #expect(image.tileRect(level: 10, column: 3, row: 0) == nil)
        #expect(image.tileRect(level: 10, column: 0, row: 2) == nil)
        #expect(image.tileRect(level: 11, column: 0, row: 0) == nil)
        #expect(image.tileRect(level: 0, column: 0, row: 0) == PixelRect(x: 0, y: 0, width: 1, height: 1))
        let overlapping = DeepZoomImage(size: PixelSize(width: 600, height: 300), overlap: 1)
        #expect(overlapping.tileRect(level: 10, column: 0, row: 0) == PixelRect(x: 0, y: 0, width: 257, height: 257))
        #expect(overlapping.tileRect(level: 10, column: 1, row: 1) == PixelRect(x: 255, y: 255, width: 258, height: 45))
    }

    @Test func dzi() {
        #expect(
            DeepZoomImage(size: PixelSize(width: 6000, height: 4000)).dziXML
                == #"<?xml version="1.0" encoding="UTF-8"?><Image xmlns="http://schemas.microsoft.com/deepzoom/2008" "#
                + #"TileSize="256" Overlap="0" Format="jpg"><Size Width="6000" Height="4000"/></Image>"#)
        #expect(DeepZoomImage(size: PixelSize(width: 5, height: 7), overlap: 1).dziXML.contains(#"Overlap="1""#))
    }

    @Test func tilePaths() throws {
        #expect(try DeepZoomTilePath(parsing: "12/3_4.jpg") == DeepZoomTilePath(level: 12, column: 3, row: 4))
        #expect(try DeepZoomTilePath(parsing: "0/0_0.png").format == "png")
        for bad in [
            "", "12", "12/3_4", "12/3-4.jpg", "12/3_.jpg", "/3_4.jpg", "a/3_4.jpg", "12/3_4_5.jpg", "12/-3_4.jpg",
            "12/3_4.", "12/3/4.jpg", "12/3_4.j/g", "12/3_4.jp g", "+1/3_4.jpg",
        ] {
            let error = requestError { () throws(ImageRequestError) in _ = try DeepZoomTilePath(parsing: bad) }
            #expect(error?.status == .badRequest, "\(bad)")
        }
        let image = DeepZoomImage(size: PixelSize(width: 600, height: 300))
        #expect(try image.tileRect(for: DeepZoomTilePath(parsing: "10/2_1.jpg")).width == 88)
        for missing in ["11/0_0.jpg", "10/3_0.jpg", "10/0_2.jpg", "9/2_0.jpg", "10/0_0.png", "99999999/0_0.jpg"] {
            let error = requestError { () throws(ImageRequestError) in
                _ = try image.tileRect(for: DeepZoomTilePath(parsing: missing))
            }
            #expect(error?.status == .notFound, "\(missing)")
        }
    }

    /// With overlap 0 the tiles of a level cover it exactly once.
    @Test func tilesPartitionEachLevel() {
        sweep("tiles partition each level", seed: 0xD21, cases: 300) { rng in
            let size = PixelSize(width: rng.int(1...5000), height: rng.int(1...5000))
            let image = DeepZoomImage(size: size, tileSize: rng.pick([256, 254, 100, 1000]))
            let level = rng.int(0...image.maxLevel)
            guard let levelSize = image.levelSize(level), let grid = image.tileGrid(level: level) else {
                return "no level \(level)"
            }
            var area = 0
            var previousRowBottom = 0
            for row in 0..<grid.rows {
                var previousRight = 0
                var rowBottom = -1
                for column in 0..<grid.columns {
                    guard let rect = image.tileRect(level: level, column: column, row: row), !rect.isEmpty else {
                        return "\(size) level \(level): tile \(column),\(row) missing or empty"
                    }
                    if rect.x != previousRight || rect.y != previousRowBottom {
                        return "\(size) level \(level): tile \(column),\(row) at \(rect) leaves a gap or overlaps"
                    }
                    if rowBottom >= 0, rect.maxY != rowBottom { return "\(size): ragged row \(row)" }
                    previousRight = rect.maxX
                    rowBottom = rect.maxY
                    area += rect.pixelCount
                }
                if previousRight != levelSize.width {
                    return "\(size) level \(level): row \(row) ends at \(previousRight)"
                }
                previousRowBottom = rowBottom
            }
            if previousRowBottom != levelSize.height || area != levelSize.pixelCount {
                return "\(size) level \(level): tiles cover \(area) of \(levelSize.pixelCount)"
            }
            if image.tileRect(level: level, column: grid.columns, row: 0) != nil
                || image.tileRect(level: level, column: 0, row: grid.rows) != nil
            {
                return "\(size) level \(level): a tile past the grid"
            }
            return nil
        }
    }
}
