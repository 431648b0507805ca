import Foundation
import Testing
import TileViewCore
import TileViewTestSupport

@testable import TileViewRender

@Suite("Resampling filters")
struct ResampleFilterTests {
    @Test("sinPi agrees with libm's sin(pi x) within 1e-14 and is exactly 0 at integers")
    func sinPiMatchesLibm() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<5000 {
            let x = Double.random(in: -8...8, using: &rng)
            #expect(abs(sinPi(x) - sin(Double.pi * x)) < 1e-14, "x = \(x)")
        }
        for n in -8...8 { #expect(sinPi(Double(n)) == 0, "n = \(n)") }
        #expect(sinPi(0.5) == 1 && sinPi(-0.5) == -1 && sinPi(1.5) == -1)
    }

    @Test("every kernel is 1 at 0, 0 at the other integers and 0 beyond its support")
    func kernelsInterpolate() {
        for filter in ResampleFilter.allCases {
            #expect(filter.weight(at: 0) == 1, "\(filter)")
            for n in 1...4 {
                #expect(filter.weight(at: Double(n)) == 0 && filter.weight(at: -Double(n)) == 0, "\(filter) at \(n)")
            }
            #expect(filter.weight(at: filter.support + 0.01) == 0)
            var rng = SplitMix64(seed: 7)
            for _ in 0..<200 {
                let x = Double.random(in: 0..<filter.support, using: &rng)
                #expect(filter.weight(at: x) == filter.weight(at: -x), "\(filter) is not even at \(x)")
            }
        }
    }

    @Test("the kernels take their textbook values")
    func kernelValues() {
        // Lanczos-3 at x is sinc(x) * sinc(x / 3), sinc(t) = sin(pi t) / (pi t).
        let lanczosHalf = (sin(Double.pi / 2) / (Double.pi / 2)) * (sin(Double.pi / 6) / (Double.pi / 6))
        #expect(abs(ResampleFilter.lanczos3.weight(at: 0.5) - lanczosHalf) < 1e-14)
        let lanczosOneAndAHalf = (sin(1.5 * Double.pi) / (1.5 * Double.pi)) * (sin(0.5 * Double.pi) / (0.5 * Double.pi))
        #expect(abs(ResampleFilter.lanczos3.weight(at: 1.5) - lanczosOneAndAHalf) < 1e-14)
        #expect(ResampleFilter.catmullRom.weight(at: 0.5) == 0.5625)
        #expect(ResampleFilter.catmullRom.weight(at: 1.5) == -0.0625)
        #expect(ResampleFilter.bilinear.weight(at: 0.25) == 0.75)
    }

    @Test("automatic means Lanczos-3 when shrinking and Catmull-Rom otherwise")
    func automaticResolves() {
        #expect(ResampleFilter.automatic.resolved(shrinking: true) == .lanczos3)
        #expect(ResampleFilter.automatic.resolved(shrinking: false) == .catmullRom)
        #expect(ResampleFilter.bilinear.resolved(shrinking: true) == .bilinear)
        let g = FrameGeometry(
            frameSize: PixelSize(width: 10, height: 10), zoomScale: 0.5, imageFrameOrigin: .zero,
            imageSize: PixelSize(width: 20, height: 20))
        #expect(FrameRenderer(geometry: g).resolvedFilter == .lanczos3)
    }

    @Test("each frame pixel's weights sum to 1 and its taps lie inside the level")
    func weightsAreNormalised() {
        forEachSeed(1...200) { seed, rng in
            let g = RandomFrame(rng: &rng).geometry
            let filter = ResampleFilter.allCases[rng.int(0...3)]
            let axis = ResampleAxis(
                frameLength: g.frameSize.width, origin: g.imageFrameOrigin.x, zoomScale: g.zoomScale,
                imageLength: g.imageSize.width, levelLength: g.levelSize.width,
                filter: filter.resolved(shrinking: g.isShrinking),
                clampRange: 0..<g.levelSize.width)
            for j in 0..<axis.outputRange.count {
                let weights = (0..<axis.tapCount[j]).map { Double(axis.weights[j * axis.stride + $0]) }
                #expect(abs(weights.reduce(0, +) - 1) < 1e-5, "seed \(seed) column \(j): \(weights)")
                #expect(axis.tapStart[j] >= 0 && axis.tapStart[j] + axis.tapCount[j] <= g.levelSize.width)
                #expect(axis.sourceRange.contains(axis.tapStart[j]))
            }
        }
    }

    @Test("nearest past 1:1: every frame pixel is the level pixel whose square holds its centre")
    func nearestShowsSharpPixels() {
        #expect(ResampleFilter.nearest.resolved(shrinking: false) == .nearest)
        #expect(ResampleFilter.nearest.resolved(shrinking: true) == .lanczos3)
        forEachSeed(1...60) { seed, rng in
            let size = PixelSize(width: 3 + rng.int(below: 40), height: 3 + rng.int(below: 40))
            var source = ImageBuffer(width: size.width, height: size.height)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    source[x, y] = RGBA8(
                        r: UInt8(rng.int(below: 256)), g: UInt8(rng.int(below: 256)), b: UInt8(rng.int(below: 256)))
                }
            }
            let scale = seed % 3 == 0 ? 4 : 1 + Double(rng.int(below: 700)) / 100
            let origin = Point(x: -Double(rng.int(below: 4000)) / 100, y: -Double(rng.int(below: 4000)) / 100)
            let frameSize = PixelSize(width: 20 + rng.int(below: 100), height: 20 + rng.int(below: 100))
            let geometry = FrameGeometry(
                frameSize: frameSize, zoomScale: scale, imageFrameOrigin: origin, imageSize: size)
            let frame = FrameRenderer(geometry: geometry, filter: .nearest).render(source: source, sourceOrigin: (0, 0))
            for y in 0..<frameSize.height {
                for x in 0..<frameSize.width where geometry.coverage(ofViewportPixelX: x, y: y) == 1 {
                    let centre = geometry.imagePoint(atViewportPoint: Point(x: Double(x) + 0.5, y: Double(y) + 0.5))
                    let sx = min(max(Int(centre.x.rounded(.down)), 0), size.width - 1)
                    let sy = min(max(Int(centre.y.rounded(.down)), 0), size.height - 1)
                    // A centre on a pixel boundary may show either neighbour; elsewhere exactly the pixel under it.
                    let onBoundary = centre.x == centre.x.rounded() || centre.y == centre.y.rounded()
                    if !onBoundary && frame[x, y] != source[sx, sy] {
                        Issue.record("seed \(seed): (\(x), \(y)) shows \(frame[x, y]), not \(source[sx, sy])")
                        return
                    }
                }
            }
        }
    }
}
