import Testing
import TileViewCore
import TileViewRender
import TileViewTestSupport
import TileViewTiling

@Suite("Tile mosaic")
struct TileMosaicTests {
    @Test("assembling tiles gives exactly the level's pixels in the rect")
    func mosaicEqualsCrop() {
        forEachSeed(1...80) { seed, rng in
            let level = TestImages.noise(width: rng.int(1...90), height: rng.int(1...90), seed: seed, alpha: true)
            let grid = TileGrid(level: 2, levelSize: level.size, tileSize: rng.int(1...40))
            let rect = PixelRect(
                x: rng.int(-20...80), y: rng.int(-20...80), width: rng.int(0...90), height: rng.int(0...90))
            var asked: [TileID] = []
            let result = TileMosaic.assemble(levelRect: rect, grid: grid) { id in
                asked.append(id)
                return level.cropped(to: grid.pixelRect(of: id))
            }
            guard let clipped = rect.intersection(PixelRect(size: level.size)) else {
                #expect(result == nil, "seed \(seed)")
                return
            }
            #expect(asked == grid.tiles(intersecting: rect), "seed \(seed)")
            #expect(result?.origin.x == clipped.x && result?.origin.y == clipped.y)
            if let buffer = result?.buffer {
                #expect(firstDifference(buffer, level.cropped(to: clipped)) == nil, "seed \(seed): \(rect) in \(grid)")
            }
        }
    }

    @Test("a missing tile leaves transparent pixels")
    func missingTileIsTransparent() {
        let level = ImageBuffer(width: 8, height: 4, fill: .black)
        let grid = TileGrid(levelSize: level.size, tileSize: 4)
        let result = TileMosaic.assemble(levelRect: PixelRect(size: level.size), grid: grid) { id in
            id.column == 0 ? level.cropped(to: grid.pixelRect(of: id)) : nil
        }
        #expect(result?.buffer[3, 3] == .black)
        #expect(result?.buffer[4, 0] == RGBA8(r: 0, g: 0, b: 0, a: 0))
    }

    @Test("a frame rendered from the tiles of sourceRect equals one rendered from the whole level")
    func renderFromTilesEqualsRenderFromLevel() {
        forEachSeed(1...40) { seed, rng in
            let image = PixelSize(width: rng.int(100...400), height: rng.int(100...400))
            let pyramid = LevelPyramid(imageSize: image, tileSize: rng.int(16...64))
            let frameSize = PixelSize(width: rng.int(8...40), height: rng.int(8...40))
            let s = Double.random(in: 0.02...1.5, using: &rng)
            let levelIndex = pyramid.level(forZoomScale: s)
            let grid = pyramid.grid(ofLevel: levelIndex)
            let level = TestImages.photo(width: grid.levelSize.width, height: grid.levelSize.height, seed: seed)
            let geometry = FrameGeometry(
                frameSize: frameSize, zoomScale: s,
                imageFrameOrigin: Point(
                    x: Double.random(in: -Double(image.width) * s...10, using: &rng),
                    y: Double.random(in: -Double(image.height) * s...10, using: &rng)),
                imageSize: image, levelSize: grid.levelSize)
            let renderer = FrameRenderer(geometry: geometry)
            let whole = renderer.render(source: level, sourceOrigin: (0, 0))
            guard let rect = renderer.sourceRect,
                let mosaic = TileMosaic.assemble(
                    levelRect: rect, grid: grid, tile: { level.cropped(to: grid.pixelRect(of: $0)) })
            else {
                #expect(geometry.coveredViewportRect == nil, "seed \(seed)")
                return
            }
            let tiled = renderer.render(source: mosaic.buffer, sourceOrigin: mosaic.origin)
            #expect(firstDifference(tiled, whole) == nil, "seed \(seed): \(geometry)")
        }
    }
}
