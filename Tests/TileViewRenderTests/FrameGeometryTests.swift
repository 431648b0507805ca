import Testing
import TileViewCore
import TileViewRender
import TileViewTestSupport

@Suite("Frame geometry and source rect")
struct FrameGeometryTests {
    @Test("a render reads only sourceRect: poison outside it changes no byte")
    func sourceRectCoversEveryRead() {
        forEachSeed(1...250) { seed, rng in
            let frame = RandomFrame(rng: &rng, alpha: rng.chance(0.5))
            let filter = ResampleFilter.allCases[rng.int(0...3)]
            let renderer = FrameRenderer(geometry: frame.geometry, filter: filter, background: RGBA8(r: 1, g: 2, b: 3))
            let reference = renderer.render(source: frame.level, sourceOrigin: (0, 0))
            guard let rect = renderer.sourceRect else {
                #expect(frame.geometry.coveredViewportRect == nil, "seed \(seed)")
                return
            }
            #expect(rect == frame.geometry.sourceRect(filter: filter))
            #expect(PixelRect(size: frame.level.size).contains(rect), "seed \(seed): \(rect)")
            let exact = frame.level.cropped(to: rect)
            let poisoned = TestImages.poisoned(frame.level, outside: rect, seed: seed)
            let fromExact = renderer.render(source: exact, sourceOrigin: (rect.x, rect.y))
            let fromPoisoned = renderer.render(source: poisoned, sourceOrigin: (0, 0))
            #expect(
                firstDifference(fromExact, reference) == nil, "seed \(seed) \(filter): \(frame.geometry) source \(rect)"
            )
            #expect(
                firstDifference(fromPoisoned, reference) == nil,
                "seed \(seed) \(filter): \(frame.geometry) source \(rect)")
        }
    }

    @Test("sourceRect holds the level pixel under the centre of every covered frame pixel")
    func sourceRectHoldsTheVisiblePart() {
        forEachSeed(1...250) { seed, rng in
            let g = RandomFrame(rng: &rng).geometry
            guard let rect = g.sourceRect(), let covered = g.coveredViewportRect else {
                #expect(g.sourceRect() == nil && g.coveredViewportRect == nil, "seed \(seed)")
                return
            }
            for y in covered.y..<covered.maxY {
                for x in covered.x..<covered.maxX {
                    let c = g.levelSampleCentre(ofViewportPixelX: x, y: y)
                    let lx = min(max(Int((c.x + 0.5).rounded(.down)), 0), g.levelSize.width - 1)
                    let ly = min(max(Int((c.y + 0.5).rounded(.down)), 0), g.levelSize.height - 1)
                    #expect(rect.contains(x: lx, y: ly), "seed \(seed) (\(x), \(y)) -> (\(lx), \(ly)) not in \(rect)")
                }
            }
        }
    }

    @Test("covered frame pixels are exactly those with coverage above 0")
    func coveredRectMatchesCoverage() {
        forEachSeed(1...200) { seed, rng in
            let g = RandomFrame(rng: &rng).geometry
            let covered = g.coveredViewportRect
            for y in 0..<g.frameSize.height {
                for x in 0..<g.frameSize.width {
                    let c = g.coverage(ofViewportPixelX: x, y: y)
                    #expect((c > 0) == (covered?.contains(x: x, y: y) ?? false), "seed \(seed) (\(x), \(y)) \(c)")
                    #expect(c >= 0 && c <= 1)
                }
            }
        }
    }

    @Test("pixel centres map as docs/design.md section 7 says, through image space into the level")
    func pixelCentresMapThroughImageSpace() {
        // The design's photo at fit: 6000x4000 in 1024x768, frame at (0, 42.67), drawn from level 2.
        let s = 1024.0 / 6000
        let g = FrameGeometry(
            frameSize: PixelSize(width: 1024, height: 768), zoomScale: s,
            imageFrameOrigin: Point(x: 0, y: (768 - 4000 * s) / 2), imageSize: PixelSize(width: 6000, height: 4000),
            levelSize: PixelSize(width: 1500, height: 1000))
        let centre = g.levelSampleCentre(ofViewportPixelX: 120, y: 80)
        let imageX = (120 + 0.5) / s - 0.5
        let imageY = (80 + 0.5 - g.imageFrameOrigin.y) / s - 0.5
        #expect(abs(centre.x - ((imageX + 0.5) * 0.25 - 0.5)) < 1e-9)
        #expect(abs(centre.y - ((imageY + 0.5) * 0.25 - 0.5)) < 1e-9)
        let q = g.imagePoint(atViewportPoint: Point(x: 120, y: 80))
        #expect(abs(q.x - 703.125) < 1e-9 && abs(q.y - 218.75) < 1e-6)
        #expect(g.isShrinking && abs(g.levelPixelsPerViewportPixel.x - 1.46484375) < 1e-12)
        #expect(g.coveredViewportRect == PixelRect(x: 0, y: 42, width: 1024, height: 684))
        let rect = g.sourceRect()!
        #expect(rect.x == 0 && rect.y == 0 && rect.width == 1500 && rect.height == 1000)
    }

    @Test("a zoomed-in frame needs only the visible level pixels plus the filter margin")
    func zoomedInSourceRectIsSmall() {
        // 6000x4000 at scale 0.5 from level 1 (1:1 there), frame 1024x768 at content offset (1000, 600).
        let g = FrameGeometry(
            frameSize: PixelSize(width: 1024, height: 768), zoomScale: 0.5, imageFrameOrigin: Point(x: -1000, y: -600),
            imageSize: PixelSize(width: 6000, height: 4000), levelSize: PixelSize(width: 3000, height: 2000))
        #expect(!g.isShrinking)
        #expect(g.sourceRect(filter: .catmullRom) == PixelRect(x: 1000, y: 600, width: 1024, height: 768))
        #expect(g.sourceRect(filter: .lanczos3) == PixelRect(x: 1000, y: 600, width: 1024, height: 768))
        let half = FrameGeometry(
            frameSize: g.frameSize, zoomScale: 0.5, imageFrameOrigin: Point(x: -1000.5, y: -600),
            imageSize: g.imageSize, levelSize: g.levelSize)
        #expect(half.sourceRect(filter: .catmullRom) == PixelRect(x: 999, y: 600, width: 1027, height: 768))
        #expect(half.sourceRect(filter: .lanczos3) == PixelRect(x: 998, y: 600, width: 1029, height: 768))
    }

    @Test("nothing visible means no source rect and a background frame")
    func nothingVisible() {
        let g = FrameGeometry(
            frameSize: PixelSize(width: 10, height: 10), zoomScale: 1, imageFrameOrigin: Point(x: 10, y: 0),
            imageSize: PixelSize(width: 5, height: 5))
        #expect(g.sourceRect() == nil && g.coveredViewportRect == nil)
        let out = FrameRenderer(geometry: g).render(source: ImageBuffer(width: 5, height: 5), sourceOrigin: (0, 0))
        #expect(out == ImageBuffer(width: 10, height: 10, fill: .black))
    }

    @Test("a source that misses part of sourceRect renders as if its edge pixels extended outward")
    func shortSourceIsClampedAtItsEdges() {
        forEachSeed(1...60) { seed, rng in
            let frame = RandomFrame(rng: &rng)
            let renderer = FrameRenderer(geometry: frame.geometry, filter: ResampleFilter.allCases[rng.int(0...3)])
            guard let needed = renderer.sourceRect else { return }
            let level = frame.level
            let x0 = rng.int(needed.x...(needed.maxX - 1))
            let y0 = rng.int(needed.y...(needed.maxY - 1))
            let part = PixelRect(
                x: x0, y: y0, width: rng.int(1...(needed.maxX - x0)), height: rng.int(1...(needed.maxY - y0)))
            var extended = level
            for y in 0..<level.height {
                for x in 0..<level.width {
                    extended[x, y] = level[min(max(x, part.x), part.maxX - 1), min(max(y, part.y), part.maxY - 1)]
                }
            }
            let short = renderer.render(source: level.cropped(to: part), sourceOrigin: (part.x, part.y))
            let reference = renderer.render(source: extended, sourceOrigin: (0, 0))
            #expect(short.size == frame.geometry.frameSize)
            let differences = zip(short.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }
            #expect(differences.allSatisfy { $0 <= 1 }, "seed \(seed): part \(part) of \(needed)")
        }
        let level = TestImages.noise(width: 40, height: 30, seed: 7)
        let g = FrameGeometry(
            frameSize: PixelSize(width: 20, height: 20), zoomScale: 0.7, imageFrameOrigin: Point(x: -3.2, y: 1.1),
            imageSize: level.size)
        let nowhere = FrameRenderer(geometry: g).render(source: level, sourceOrigin: (100, 100))
        #expect(nowhere == ImageBuffer(width: 20, height: 20, fill: .black))
    }
}
