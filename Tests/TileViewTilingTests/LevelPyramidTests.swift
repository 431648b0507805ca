import Foundation
import Testing
import TileViewCore
import TileViewTestSupport
import TileViewTiling

@Suite("Level pyramid")
struct LevelPyramidTests {
    @Test("level L is ceil(W/2^L) x ceil(H/2^L) and the last level is the first that fits one tile")
    func levelSizesHalveUpToOneTile() {
        forEachSeed(1...400) { seed, rng in
            let size = PixelSize(width: rng.int(0...70_000), height: rng.int(0...70_000))
            let tile = rng.int(1...512)
            let pyramid = LevelPyramid(imageSize: size, tileSize: tile)
            for level in pyramid.levels {
                let d = 1 << level
                let expected = PixelSize(width: (size.width + d - 1) / d, height: (size.height + d - 1) / d)
                #expect(pyramid.levelSize(ofLevel: level) == expected, "seed \(seed): \(pyramid) level \(level)")
                #expect(pyramid.grid(ofLevel: level).levelSize == expected)
                #expect(pyramid.grid(ofLevel: level).level == level)
            }
            let last = pyramid.levelSize(ofLevel: pyramid.maxLevel)
            #expect(last.width <= tile && last.height <= tile, "seed \(seed): \(pyramid)")
            if pyramid.maxLevel > 0 {
                let before = pyramid.levelSize(ofLevel: pyramid.maxLevel - 1)
                #expect(before.width > tile || before.height > tile, "seed \(seed): \(pyramid) has a level too many")
            }
        }
    }

    @Test("level(forZoomScale:) is the largest L with 2^L <= 1/s < 2^(L+1), 0 at s >= 1, capped at the last level")
    func levelForZoomScaleLaw() {
        forEachSeed(1...2000) { seed, rng in
            let pyramid = LevelPyramid(
                imageSize: PixelSize(width: rng.int(1...100_000), height: rng.int(1...100_000)),
                tileSize: rng.int(16...512))
            // Log-uniform scales from 2^-20 to 4, with exact powers of two mixed in.
            let s =
                rng.chance(0.2)
                ? Double(sign: .plus, exponent: rng.int(-20...2), significand: 1)
                : pow(2, Double.random(in: -20...2, using: &rng))
            let level = pyramid.level(forZoomScale: s)
            let factor = Double(sign: .plus, exponent: level, significand: 1)
            #expect(pyramid.levels.contains(level))
            if s >= 1 {
                #expect(level == 0, "seed \(seed): s \(s)")
            } else {
                #expect(factor <= 1 / s, "seed \(seed): s \(s) level \(level)")
                #expect(level == pyramid.maxLevel || 2 * factor > 1 / s, "seed \(seed): s \(s) level \(level)")
            }
        }
    }

    @Test(
        "coarsestLevel: the coarsest level from the given one with at least the asked pixels per image pixel on both axes"
    )
    func coarsestLevelLaw() {
        forEachSeed(1...2000) { seed, rng in
            let image = PixelSize(width: rng.int(1...100_000), height: rng.int(1...100_000))
            let pyramid = LevelPyramid(imageSize: image, tileSize: rng.int(16...512))
            // A tile of a random level, as a IIIF client asks for it: a region on that level's grid, its size the
            // level's pixels under it (rounded up at the image's edge), and any region scaled at random.
            let asked = rng.int(0...pyramid.maxLevel)
            let span = pyramid.tileSize << asked
            let levelSize = pyramid.levelSize(ofLevel: asked)
            let column = rng.int(0...((image.width - 1) / span))
            let row = rng.int(0...((image.height - 1) / span))
            let (scaleX, scaleY): (Double, Double)
            if rng.chance(0.5) {
                let width = min(pyramid.tileSize, levelSize.width - column * pyramid.tileSize)
                let height = min(pyramid.tileSize, levelSize.height - row * pyramid.tileSize)
                scaleX = Double(width) / Double(min(span, image.width - column * span))
                scaleY = Double(height) / Double(min(span, image.height - row * span))
            } else {
                scaleX = pow(2, Double.random(in: -18...0, using: &rng))
                scaleY = scaleX * Double.random(in: 0.5...2, using: &rng)
            }
            let finer = pyramid.level(forZoomScale: max(scaleX, scaleY))
            let level = pyramid.coarsestLevel(from: finer, coveringScaleX: scaleX, scaleY: scaleY)
            let scale = pyramid.scale(ofLevel: level)
            #expect(level >= finer, "seed \(seed)")
            #expect(level == finer || (scale.x >= scaleX && scale.y >= scaleY), "seed \(seed): level \(level)")
            if level < pyramid.maxLevel {
                let coarser = pyramid.scale(ofLevel: level + 1)
                #expect(coarser.x < scaleX || coarser.y < scaleY, "seed \(seed): level \(level + 1) would do")
            }
        }
        // The design's photo: its level-5 tile (the whole image at 188x125; 6000 / 32 = 187.5) is level 5, which
        // the power-of-two rule alone would draw from level 4.
        let photo = LevelPyramid(imageSize: PixelSize(width: 6000, height: 4000))
        #expect(photo.level(forZoomScale: 188.0 / 6000) == 4)
        #expect(photo.coarsestLevel(from: 4, coveringScaleX: 188.0 / 6000, scaleY: 125.0 / 4000) == 5)
    }

    @Test("the design's photo: 6000x4000 has levels down to 188x125 and fit scale 0.170667 draws level 2")
    func photoPyramid() {
        let pyramid = LevelPyramid(imageSize: PixelSize(width: 6000, height: 4000))
        #expect(pyramid.maxLevel == 5)
        #expect(
            (0...5).map { pyramid.levelSize(ofLevel: $0) } == [
                PixelSize(width: 6000, height: 4000), PixelSize(width: 3000, height: 2000),
                PixelSize(width: 1500, height: 1000), PixelSize(width: 750, height: 500),
                PixelSize(width: 375, height: 250), PixelSize(width: 188, height: 125),
            ])
        #expect(pyramid.level(forZoomScale: 1024.0 / 6000) == 2)
        #expect(pyramid.level(forZoomScale: 0.256) == 1)
        #expect(pyramid.level(forZoomScale: 0.25) == 2)
        #expect(pyramid.level(forZoomScale: 0.25.nextUp) == 1)
        #expect(pyramid.level(forZoomScale: 1e-9) == 5)
        #expect(pyramid.level(forZoomScale: 3) == 0)
        #expect(pyramid.level(forZoomScale: 0) == 5)
        #expect(pyramid.scale(ofLevel: 5) == (x: 188.0 / 6000, y: 125.0 / 4000))
        #expect(pyramid.tileCount == 384 + 96 + 24 + 6 + 2 + 1)
    }

    @Test("scale(ofLevel:) is levelW/W and levelH/H exactly, not 2^-L")
    func levelScaleIsExact() {
        let pyramid = LevelPyramid(imageSize: PixelSize(width: 67, height: 45), tileSize: 8)
        #expect(pyramid.levelSize(ofLevel: 3) == PixelSize(width: 9, height: 6))  // libjpeg's 1/8 of 67x45
        let s = pyramid.scale(ofLevel: 3)
        #expect(s.x == 9.0 / 67 && s.y == 6.0 / 45)
        #expect(pyramid.scale(ofLevel: 0) == (x: 1, y: 1))
    }

    @Test("levelPixelRect(coveringImageRect:) holds exactly the level pixels whose footprint meets the rect")
    func levelRectCoversExactly() {
        forEachSeed(1...500) { seed, rng in
            let pyramid = LevelPyramid(
                imageSize: PixelSize(width: rng.int(1...3000), height: rng.int(1...3000)), tileSize: rng.int(16...256))
            let level = rng.int(0...pyramid.maxLevel)
            let size = pyramid.levelSize(ofLevel: level)
            let scale = pyramid.scale(ofLevel: level)
            let image = pyramid.imageSize
            let rect = Rect(
                x: Double.random(in: -200...Double(image.width), using: &rng),
                y: Double.random(in: -200...Double(image.height), using: &rng),
                width: Double.random(in: 0.01...Double(image.width), using: &rng),
                height: Double.random(in: 0.01...Double(image.height), using: &rng))
            let got = pyramid.levelPixelRect(coveringImageRect: rect, level: level)
            // Level pixel i shows image x in [i / scale, (i + 1) / scale): it is needed when that meets the rect.
            func needed(_ i: Int, _ lo: Double, _ hi: Double, _ s: Double) -> Bool {
                Double(i) < hi * s && Double(i + 1) > lo * s
            }
            let xs = (0..<size.width).filter { needed($0, rect.minX, rect.maxX, scale.x) }
            let ys = (0..<size.height).filter { needed($0, rect.minY, rect.maxY, scale.y) }
            if xs.isEmpty || ys.isEmpty {
                #expect(got.isEmpty, "seed \(seed): \(rect) at level \(level) gave \(got)")
            } else {
                let expected = PixelRect(x: xs[0], y: ys[0], width: xs.count, height: ys.count)
                #expect(got == expected, "seed \(seed): \(rect) at level \(level) of \(pyramid)")
            }
        }
    }

    @Test("an empty image has one empty level")
    func emptyImage() {
        let pyramid = LevelPyramid(imageSize: PixelSize(width: 0, height: 0))
        #expect(pyramid.maxLevel == 0 && pyramid.levelSize(ofLevel: 0) == PixelSize(width: 0, height: 0))
        #expect(pyramid.grid(ofLevel: 0).tileCount == 0)
    }
}
