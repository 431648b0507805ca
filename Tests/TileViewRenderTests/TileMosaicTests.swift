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
            let (grid, geometry) = Self.tiledFrame(
                &rng, image: 100...400, tileSize: 16...64, frame: 8...40, scale: 0.02...1.5)
            let level = TestImages.photo(width: grid.levelSize.width, height: grid.levelSize.height, seed: seed)
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

    @Test("a mosaic and a frame made in kept memory holding old bytes equal fresh ones, and use that memory")
    func keptMemoryGivesTheSameBytes() {
        forEachSeed(1...60) { seed, rng in
            let (grid, geometry) = Self.tiledFrame(
                &rng, image: 60...300, tileSize: 8...64, frame: 4...48, scale: 0.05...2)
            let level = TestImages.noise(
                width: grid.levelSize.width, height: grid.levelSize.height, seed: seed, alpha: rng.int(0...1) == 1)
            let renderer = FrameRenderer(
                geometry: geometry, background: RGBA8(r: 9, g: 80, b: 200, a: UInt8(rng.int(0...1) * 255)))
            guard let rect = renderer.sourceRect else { return }
            let tile = { (id: TileID) in level.cropped(to: grid.pixelRect(of: id)) }
            let fresh = TileMosaic.assemble(levelRect: rect, grid: grid, tile: tile)
            // Kept memory of a size around the mosaic's, full of bytes of an earlier use.
            let needed = rect.pixelCount * 4
            let old = [UInt8](repeating: 0xA5, count: max(1, needed + rng.int(-needed / 2...needed / 2)))
            let (oldBase, oldCount, oldCapacity) = (
                old.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }, old.count, old.capacity
            )
            var storage: [UInt8]? = consume old
            let kept = TileMosaic.assemble(levelRect: rect, grid: grid, storage: &storage, tile: tile)
            #expect(kept?.buffer == fresh?.buffer, "seed \(seed)")
            guard let kept else { return }
            let keptBase = kept.buffer.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            let assembled = storage == nil
            // A whole single tile is handed on (storage left as it was); else the mosaic is made in the old memory
            // when that holds it.
            #expect(assembled || storage?.count == oldCount, "seed \(seed)")
            if assembled { #expect((keptBase == oldBase) == (oldCapacity >= needed), "seed \(seed)") }

            let frame = renderer.render(source: kept.buffer, sourceOrigin: kept.origin)
            let dirty = [UInt8](repeating: 0x3C, count: geometry.frameSize.pixelCount * 4 + rng.int(0...64))
            let dirtyBase = dirty.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
            let reused = renderer.render(source: kept.buffer, sourceOrigin: kept.origin, reusing: consume dirty)
            #expect(firstDifference(reused, frame) == nil, "seed \(seed): \(geometry)")
            #expect(reused.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == dirtyBase)
        }
    }

    /// A random image, its pyramid's grid at the level a random zoom scale draws from, and a frame of that zoom at a
    /// random place over the image.
    static func tiledFrame(
        _ rng: inout SplitMix64, image: ClosedRange<Int>, tileSize: ClosedRange<Int>, frame: ClosedRange<Int>,
        scale: ClosedRange<Double>
    ) -> (grid: TileGrid, geometry: FrameGeometry) {
        let size = PixelSize(width: rng.int(image), height: rng.int(image))
        let pyramid = LevelPyramid(imageSize: size, tileSize: rng.int(tileSize))
        let frameSize = PixelSize(width: rng.int(frame), height: rng.int(frame))
        let s = Double.random(in: scale, using: &rng)
        let grid = pyramid.grid(ofLevel: pyramid.level(forZoomScale: s))
        let geometry = FrameGeometry(
            frameSize: frameSize, zoomScale: s,
            imageFrameOrigin: Point(
                x: Double.random(in: -Double(size.width) * s...10, using: &rng),
                y: Double.random(in: -Double(size.height) * s...10, using: &rng)),
            imageSize: size, levelSize: grid.levelSize)
        return (grid, geometry)
    }
}
