import Testing
import TileViewCodecs
import TileViewCore

@Suite("Box reducer")
struct BoxReducerTests {
    /// A straightforward model: every output pixel is the alpha-weighted mean of its block.
    static func model(_ image: ImageBuffer, factor: Int) -> ImageBuffer {
        let size = BoxReducer.reducedSize(of: image.size, factor: factor)
        var out = ImageBuffer(width: size.width, height: size.height)
        for oy in 0..<size.height {
            for ox in 0..<size.width {
                var sum = [0.0, 0.0, 0.0]
                var alpha = 0.0
                var n = 0.0
                for y in (oy * factor)..<min(oy * factor + factor, image.height) {
                    for x in (ox * factor)..<min(ox * factor + factor, image.width) {
                        let p = image[x, y]
                        let a = Double(p.a)
                        sum[0] += Double(p.r) * a
                        sum[1] += Double(p.g) * a
                        sum[2] += Double(p.b) * a
                        alpha += a
                        n += 1
                    }
                }
                let c = alpha > 0 ? sum.map { UInt8(($0 / alpha).rounded()) } : [0, 0, 0]
                out[ox, oy] = RGBA8(r: c[0], g: c[1], b: c[2], a: UInt8((alpha / n).rounded()))
            }
        }
        return out
    }

    @Test("every output pixel is the alpha-weighted mean of its block, edges included (seeded sweep)")
    func matchesModel() {
        var rng = Seeded(state: 0x5eed_b0c5)
        func next(_ n: Int) -> Int { rng.next(n) }
        for trial in 0..<300 {
            let w = 1 + next(40)
            let h = 1 + next(40)
            let factor = [1, 2, 4, 8, 16][next(5)]
            let opaque = next(2) == 0
            var image = ImageBuffer(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    image[x, y] = RGBA8(
                        r: UInt8(next(256)), g: UInt8(next(256)), b: UInt8(next(256)),
                        a: opaque ? 255 : UInt8(next(256)))
                }
            }
            let reduced = BoxReducer.reduce(image, factor: factor)
            let expected = Self.model(image, factor: factor)
            #expect(reduced.size == BoxReducer.reducedSize(of: image.size, factor: factor))
            // Integer rounding of the mean may differ from the Double model only at exact halves.
            // The colour of a fully transparent pixel carries no meaning and is not compared.
            var worst = 0
            for i in 0..<reduced.pixels.count where i % 4 == 3 || expected.pixels[i | 3] > 0 {
                worst = max(worst, abs(Int(reduced.pixels[i]) - Int(expected.pixels[i])))
            }
            #expect(worst <= 1, "trial \(trial): \(w)x\(h) factor \(factor): off by \(worst)")
        }
    }

    @Test("a constant image stays that constant at every factor")
    func constantStaysConstant() {
        let colour = RGBA8(r: 200, g: 100, b: 50, a: 255)
        let image = ImageBuffer(width: 37, height: 23, fill: colour)
        for factor in [2, 4, 8, 64] {
            let reduced = BoxReducer.reduce(image, factor: factor)
            #expect(reduced.size == PixelSize(width: (37 + factor - 1) / factor, height: (23 + factor - 1) / factor))
            #expect(
                (0..<reduced.height).allSatisfy { y in (0..<reduced.width).allSatisfy { reduced[$0, y] == colour } })
        }
    }

    @Test("transparent pixels do not darken the colour of their neighbours")
    func premultipliedAveraging() {
        var image = ImageBuffer(width: 2, height: 1)
        image[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
        image[1, 0] = RGBA8(r: 0, g: 0, b: 0, a: 0)
        let reduced = BoxReducer.reduce(image, factor: 2)
        #expect(reduced[0, 0] == RGBA8(r: 255, g: 0, b: 0, a: 128))
    }

    @Test("levels made in one pass (BoxLevels) are byte for byte each level reduced alone (seeded sweep)")
    func levelsInOnePassMatchEachLevel() {
        var rng = Seeded(state: 0xb0c5_1e7e)
        func next(_ n: Int) -> Int { rng.next(n) }
        for trial in 0..<120 {
            let w = 1 + next(150)
            let h = 1 + next(150)
            let first = [1, 2, 4, 8][next(4)]
            let factors = (0..<(1 + next(4))).map { first << $0 }
            // Edges, transparency and opaque runs. 0: opaque; 1: every alpha; 2: opaque with transparent or half-covered patches; 3: mostly clear.
            let kind = next(4)
            var image = ImageBuffer(width: w, height: h)
            for y in 0..<h {
                for x in 0..<w {
                    let alpha: Int
                    switch kind {
                    case 0: alpha = 255
                    case 1: alpha = next(256)
                    case 2: alpha = next(9) == 0 ? [0, 1, 128, 254][next(4)] : 255
                    default: alpha = next(5) == 0 ? next(256) : 0
                    }
                    image[x, y] = RGBA8(
                        r: UInt8(next(256)), g: UInt8(next(256)), b: UInt8(next(256)), a: UInt8(alpha))
                }
            }
            var levels = BoxLevels(size: image.size, factors: factors)
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<h { levels.add(row: pixels.baseAddress! + y * w * 4) }
            }
            for (n, factor) in factors.enumerated() {
                let alone = BoxReducer.reduce(image, factor: factor).pixels
                let same = levels.outputs[n] == alone
                let first =
                    same ? nil : zip(levels.outputs[n], alone).enumerated().first { $0.element.0 != $0.element.1 }
                #expect(
                    same,
                    "trial \(trial): \(w)x\(h), alpha kind \(kind), factors \(factors): factor \(factor), byte \(first?.offset ?? -1)"
                )
            }
        }
    }

    @Test("a 64 x 64 block of opaque white, the largest totals of the chain, keeps its colour")
    func largestBlocks() {
        let image = ImageBuffer(width: 130, height: 70, fill: RGBA8(r: 255, g: 255, b: 255, a: 255))
        var levels = BoxLevels(size: image.size, factors: [8, 16, 32, 64])
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<70 { levels.add(row: pixels.baseAddress! + y * 130 * 4) }
        }
        #expect(levels.outputs[3] == BoxReducer.reduce(image, factor: 64).pixels)
        #expect(levels.outputs[3].allSatisfy { $0 == 255 })
    }
}

/// A seeded linear congruential sequence of whole numbers below a bound.
private struct Seeded {
    var state: UInt64

    mutating func next(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }
}
