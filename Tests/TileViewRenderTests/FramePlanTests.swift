import Testing
import TileViewCore
import TileViewTestSupport

@testable import TileViewRender

/// The open sums (`FrameRenderer.scatter`) against the ring of filtered rows they stand in for, and the plan a
/// server admits a render by (`FrameRenderer.plan`) against what the renderer allocates.
@Suite("Render: open sums and the frame plan")
struct FramePlanTests {
    /// A frame that squeezes or stretches its level on each axis by up to `extreme` times.
    static func randomGeometry(_ rng: inout SplitMix64, extreme: Double, maxLevel: Int = 300) -> FrameGeometry {
        let level = PixelSize(width: rng.int(1...maxLevel), height: rng.int(1...maxLevel))
        let frame = PixelSize(width: rng.int(1...80), height: rng.int(1...80))
        func scale() -> Double {
            let e = Double.random(in: -1...1, using: &rng)
            return e < 0 ? 1 / (1 + -e * (extreme - 1)) : 1 + e * (extreme - 1)
        }
        let sx = rng.chance(0.3) ? Double(frame.width) / Double(level.width) : scale()
        let sy = rng.chance(0.3) ? Double(frame.height) / Double(level.height) : scale()
        let origin = Point(
            x: Double.random(in: (-Double(level.width) * sx)...Double(frame.width), using: &rng),
            y: Double.random(in: (-Double(level.height) * sy)...Double(frame.height), using: &rng))
        return FrameGeometry(
            frameSize: frame, zoomScale: sx, zoomScaleY: sy, imageFrameOrigin: origin, imageSize: level,
            levelSize: level)
    }

    private func render(_ renderer: FrameRenderer, _ source: ImageBuffer, scatters: Bool) -> ImageBuffer {
        let (x, y) = renderer.axes(reading: source, at: (0, 0))
        return source.pixels.withUnsafeBufferPointer { bytes in
            renderer.renderFrame(xAxis: x, yAxis: y) { x, y, paint, out, width in
                var rows = BufferRowSource(
                    base: bytes.baseAddress!, width: source.width, origin: (0, 0), firstColumn: x.sourceRange.lowerBound
                )
                FrameRenderer.resample(
                    rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width,
                    copiesWhenIdentity: false, scatters: scatters)
            }
        }
    }

    @Test("adding each level row into the open sums gives the ring's bytes, every filter, any background")
    func scatterEqualsRing() {
        let filters: [ResampleFilter] = [.automatic, .lanczos3, .catmullRom, .bilinear, .nearest]
        var scattered = 0
        forEachSeed(1...300) { seed, rng in
            let geometry = Self.randomGeometry(&rng, extreme: 40)
            let source = TestImages.noise(
                width: geometry.levelSize.width, height: geometry.levelSize.height, seed: seed, alpha: rng.chance(0.5))
            let background = [RGBA8(r: 9, g: 99, b: 199), RGBA8(r: 0, g: 0, b: 0, a: 0)][rng.int(0...1)]
            let renderer = FrameRenderer(geometry: geometry, filter: filters[rng.int(0...4)], background: background)
            if FrameRenderer.scatterRows(renderer.yAxis) != nil { scattered += 1 }
            let ring = render(renderer, source, scatters: false)
            let sums = render(renderer, source, scatters: true)
            #expect(firstDifference(ring, sums) == nil, "seed \(seed): \(geometry)")
        }
        // The sweep must exercise the open sums, not only fall back to the ring.
        #expect(scattered > 50, "only \(scattered) of 300 frames took the open sums")
    }

    @Test("a tall region squeezed into one row holds a few rows of the frame's width, not the region's height")
    func squeezedRowHoldsFewRows() {
        let geometry = FrameGeometry(
            frameSize: PixelSize(width: 3000, height: 1), zoomScale: 1, zoomScaleY: 1.0 / 4000,
            imageFrameOrigin: .zero, imageSize: PixelSize(width: 3000, height: 4000))
        let renderer = FrameRenderer(geometry: geometry)
        #expect(renderer.yAxis.maxTapCount == 4000)
        let open = FrameRenderer.scatterRows(renderer.yAxis)
        #expect(open == 1)
        let plan = FrameRenderer.plan(geometry)
        // The ring would be 4000 rows of 3000 pixels, 16 bytes each: 192 MB.
        #expect(plan.passBytes < 3000 * 16 * 20, "\(plan)")
        #expect(plan.bytes < 2 << 20, "\(plan)")
    }

    @Test("the plan bounds the taps, the rows and the source rect the renderer makes, up to extreme scales")
    func planBoundsTheRenderer() {
        let filters: [ResampleFilter] = [.automatic, .lanczos3, .catmullRom, .bilinear, .nearest]
        forEachSeed(1...400) { seed, rng in
            let geometry = Self.randomGeometry(&rng, extreme: rng.chance(0.5) ? 1000 : 8, maxLevel: 2000)
            let filter = filters[rng.int(0...4)]
            let plan = FrameRenderer.plan(geometry, filter: filter)
            let renderer = FrameRenderer(geometry: geometry, filter: filter)
            let x = renderer.xAxis
            let y = renderer.yAxis
            #expect(plan.frameBytes == geometry.frameSize.width * geometry.frameSize.height * 4)
            guard let source = renderer.sourceRect else { return }
            guard let planned = plan.sourceRect else {
                Issue.record("seed \(seed): the plan shows nothing, the renderer reads \(source)")
                return
            }
            #expect(planned.contains(source), "seed \(seed): reads \(source), planned \(planned)")
            func axisBytes(_ a: ResampleAxis) -> Int {
                a.coverage.count * 4 + (a.tapStart.count + a.tapCount.count) * 8 + a.weights.count * 4 + a.stride * 8
            }
            #expect(axisBytes(x) + axisBytes(y) <= plan.tapBytes, "seed \(seed): \(geometry)")
            let columns = x.outputRange.count
            let held =
                FrameRenderer.scatterRows(y).map { ($0 + 2) * columns } ?? ((y.maxTapCount + 1) * columns)
            let passes = (x.sourceRange.count + x.weights.count + held) * 16 + columns * 8
            #expect(passes <= plan.passBytes, "seed \(seed): \(geometry): \(passes) > \(plan.passBytes)")
        }
    }
}
