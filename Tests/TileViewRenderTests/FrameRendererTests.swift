import Testing
import TileViewCore
import TileViewRender
import TileViewTestSupport

@Suite("Frame renderer")
struct FrameRendererTests {
    private static let filters = ResampleFilter.allCases

    private func render(_ frame: RandomFrame, filter: ResampleFilter, background: RGBA8 = .black) -> ImageBuffer {
        FrameRenderer(geometry: frame.geometry, filter: filter, background: background)
            .render(source: frame.level, sourceOrigin: (0, 0))
    }

    @Test("the frame is exactly w x h, whatever the numbers")
    func frameSizeIsExact() {
        forEachSeed(1...200) { seed, rng in
            var frame = RandomFrame(rng: &rng)
            if rng.chance(0.2) { frame.geometry.zoomScale = [0.0, -1, .nan, .infinity][rng.int(0...3)] }
            if rng.chance(0.1) { frame.geometry.imageFrameOrigin.x = .nan }
            let out = render(frame, filter: Self.filters[rng.int(0...3)])
            #expect(out.size == frame.geometry.frameSize, "seed \(seed): \(frame.geometry)")
            #expect(out.pixels.count == out.width * out.height * 4)
        }
    }

    @Test("a constant colour renders to that colour inside the image frame and blends by coverage at its edges")
    func constantColourStaysConstant() {
        forEachSeed(1...150) { seed, rng in
            let frame = RandomFrame(rng: &rng)
            let colour = RGBA8(r: UInt8(rng.int(0...255)), g: UInt8(rng.int(0...255)), b: UInt8(rng.int(0...255)))
            let background = RGBA8(r: UInt8(rng.int(0...255)), g: UInt8(rng.int(0...255)), b: UInt8(rng.int(0...255)))
            let level = ImageBuffer(width: frame.level.width, height: frame.level.height, fill: colour)
            let g = frame.geometry
            let filter = Self.filters[rng.int(0...3)]
            let out = FrameRenderer(geometry: g, filter: filter, background: background)
                .render(source: level, sourceOrigin: (0, 0))
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let c = g.coverage(ofViewportPixelX: x, y: y)
                    let got = out[x, y]
                    let context = "seed \(seed) \(filter) pixel (\(x), \(y)) coverage \(c): \(g)"
                    if c == 1 {
                        #expect(got == colour, "\(context)")
                    } else if c == 0 {
                        #expect(got == background, "\(context)")
                    } else {
                        for (o, i, b) in [
                            (got.r, colour.r, background.r), (got.g, colour.g, background.g),
                            (got.b, colour.b, background.b),
                        ] {
                            let expected = c * Double(i) + (1 - c) * Double(b)
                            #expect(abs(Double(o) - expected) <= 0.51, "\(context): \(got)")
                        }
                        #expect(got.a == 255)
                    }
                }
            }
        }
    }

    @Test("a translucent constant colour over a transparent background keeps its colour and alpha")
    func translucentConstantColourKeepsAlpha() {
        let colour = RGBA8(r: 200, g: 100, b: 50, a: 128)
        forEachSeed(1...60) { seed, rng in
            let frame = RandomFrame(rng: &rng)
            let level = ImageBuffer(width: frame.level.width, height: frame.level.height, fill: colour)
            let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
            let out = FrameRenderer(geometry: frame.geometry, filter: Self.filters[rng.int(0...3)], background: clear)
                .render(source: level, sourceOrigin: (0, 0))
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let c = frame.geometry.coverage(ofViewportPixelX: x, y: y)
                    if c == 1 { #expect(out[x, y] == colour, "seed \(seed) (\(x), \(y))") }
                    if c == 0 { #expect(out[x, y] == clear, "seed \(seed) (\(x), \(y))") }
                }
            }
        }
    }

    @Test("frame pixels the image frame does not touch show exactly the background")
    func backgroundOutsideTheImage() {
        forEachSeed(1...150) { seed, rng in
            let frame = RandomFrame(rng: &rng, alpha: rng.chance(0.5))
            let background = RGBA8(
                r: UInt8(rng.int(0...255)), g: UInt8(rng.int(0...255)), b: UInt8(rng.int(0...255)),
                a: UInt8(rng.int(0...255)))
            let out = render(frame, filter: Self.filters[rng.int(0...3)], background: background)
            let covered = frame.geometry.coveredViewportRect
            for y in 0..<out.height {
                for x in 0..<out.width where !(covered?.contains(x: x, y: y) ?? false) {
                    #expect(out[x, y] == background, "seed \(seed) (\(x), \(y)): \(frame.geometry)")
                }
            }
        }
    }

    @Test("1:1 with integer alignment copies pixels exactly, with every filter")
    func integerAlignedOneToOneCopies() {
        forEachSeed(1...120) { seed, rng in
            let size = PixelSize(width: rng.int(1...60), height: rng.int(1...60))
            let translucent = rng.chance(0.5)
            let image = TestImages.noise(width: size.width, height: size.height, seed: seed, alpha: translucent)
            let origin = (x: rng.int(-70...40), y: rng.int(-70...40))
            let geometry = FrameGeometry(
                frameSize: PixelSize(width: rng.int(1...40), height: rng.int(1...40)), zoomScale: 1,
                imageFrameOrigin: Point(x: Double(origin.x), y: Double(origin.y)), imageSize: size)
            let background = translucent ? RGBA8(r: 0, g: 0, b: 0, a: 0) : RGBA8(r: 9, g: 99, b: 199)
            let filter = Self.filters[rng.int(0...3)]
            let out = FrameRenderer(geometry: geometry, filter: filter, background: background)
                .render(source: image, sourceOrigin: (0, 0))
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let ix = x - origin.x
                    let iy = y - origin.y
                    let inside = ix >= 0 && iy >= 0 && ix < size.width && iy < size.height
                    var expected = inside ? image[ix, iy] : background
                    if expected.a == 0 { expected = RGBA8(r: 0, g: 0, b: 0, a: 0) }
                    #expect(out[x, y] == expected, "seed \(seed) \(filter) (\(x), \(y)): \(geometry)")
                }
            }
        }
    }

    @Test("shrinking a one-pixel checkerboard 1.5x to 8x gives mid-grey within 2: no aliasing")
    func checkerboardShrinksToGrey() {
        let board = TestImages.checkerboard(width: 400, height: 300)
        forEachSeed(1...40) { seed, rng in
            let factor = Double.random(in: 1.5...8, using: &rng)  // level pixels per viewport pixel
            let frameSize = PixelSize(width: 24, height: 20)
            // The frame lies well inside the image, away from its clamped edges.
            let origin = Point(
                x: -Double.random(in: 10...(400 / factor - 34), using: &rng),
                y: -Double.random(in: 10...(300 / factor - 30), using: &rng))
            let geometry = FrameGeometry(
                frameSize: frameSize, zoomScale: 1 / factor, imageFrameOrigin: origin, imageSize: board.size)
            let out = FrameRenderer(geometry: geometry).render(source: board, sourceOrigin: (0, 0))
            var worst = 0.0
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let p = out[x, y]
                    worst = max(worst, abs(Double(p.r) - 127.5), abs(Double(p.g) - 127.5), abs(Double(p.b) - 127.5))
                }
            }
            #expect(worst <= 2, "seed \(seed): factor \(factor) strays \(worst) from mid-grey")
        }
    }

    @Test("alpha is premultiplied while filtering: transparent red next to opaque blue leaves no red fringe")
    func premultipliedAlphaLeavesNoFringe() {
        let red = RGBA8(r: 255, g: 0, b: 0, a: 0)
        let blue = RGBA8(r: 0, g: 0, b: 255, a: 255)
        forEachSeed(1...120) { seed, rng in
            var frame = RandomFrame(rng: &rng)
            let stripes = rng.int(1...5)
            for y in 0..<frame.level.height {
                for x in 0..<frame.level.width {
                    frame.level[x, y] = ((x / stripes + y / (stripes + 1)) % 2 == 0) ? red : blue
                }
            }
            let backgrounds = [RGBA8(r: 0, g: 0, b: 0, a: 0), .black, RGBA8(r: 0, g: 255, b: 0, a: 90)]
            let background = backgrounds[rng.int(0...2)]
            let filter = Self.filters[rng.int(0...3)]
            let out = render(frame, filter: filter, background: background)
            for y in 0..<out.height {
                for x in 0..<out.width {
                    let p = out[x, y]
                    #expect(p.r == 0, "seed \(seed) \(filter) (\(x), \(y)) = \(p): \(frame.geometry)")
                    if background.a == 0 && p.a > 0 {
                        #expect(p.b == 255 && p.g == 0, "seed \(seed) \(filter) (\(x), \(y)) = \(p): dark fringe")
                    }
                }
            }
        }
    }

    @Test("the same inputs give the same bytes, from a fresh renderer or a reused one")
    func renderingIsDeterministic() {
        forEachSeed(1...60) { seed, rng in
            let frame = RandomFrame(rng: &rng, alpha: true)
            let filter = Self.filters[rng.int(0...3)]
            let renderer = FrameRenderer(geometry: frame.geometry, filter: filter)
            let a = renderer.render(source: frame.level, sourceOrigin: (0, 0))
            let b = renderer.render(source: frame.level, sourceOrigin: (0, 0))
            let g = frame.geometry
            let c = FrameRenderer.render(
                source: frame.level, sourceOrigin: (0, 0), zoomScale: g.zoomScale, imageFrameOrigin: g.imageFrameOrigin,
                imageSize: g.imageSize, levelSize: g.levelSize, frameSize: g.frameSize, filter: filter)
            #expect(firstDifference(a, b) == nil && firstDifference(a, c) == nil, "seed \(seed)")
        }
    }

    @Test("frames shown at the design's fit scale are opaque and blend the cut top and bottom rows")
    func fitFrameEdgesBlend() {
        // 6000x4000 at fit in 1024x768 puts the frame at y 42.67; here a 600x400 image in 96x72: y 4.
        // With a 3-pixel shift the image frame starts at y = 4.5: row 4 is half covered.
        let image = ImageBuffer(width: 600, height: 400, fill: RGBA8(r: 200, g: 200, b: 200))
        let s = 96.0 / 600
        let geometry = FrameGeometry(
            frameSize: PixelSize(width: 96, height: 72), zoomScale: s, imageFrameOrigin: Point(x: 0, y: 4.5),
            imageSize: image.size)
        let out = FrameRenderer(geometry: geometry).render(source: image, sourceOrigin: (0, 0))
        #expect(out.isOpaque)
        #expect(out[10, 3] == .black)
        #expect(out[10, 4] == RGBA8(r: 100, g: 100, b: 100))
        #expect(out[10, 5] == RGBA8(r: 200, g: 200, b: 200))
        #expect(out[10, 68] == RGBA8(r: 100, g: 100, b: 100))  // the frame ends at 4.5 + 64 = 68.5
        #expect(out[10, 69] == .black)
    }
}
