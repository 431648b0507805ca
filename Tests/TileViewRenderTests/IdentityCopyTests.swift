import Testing
import TileViewCore
import TileViewTestSupport

@testable import TileViewRender

/// The 1:1 copy (`FrameRenderer.copy`) against the filter passes it stands in for: same bytes for every pixel,
/// opaque or not, over opaque and translucent backgrounds, with every filter.
@Suite("Render: the 1:1 copy")
struct IdentityCopyTests {
    @Test("a 1:1 integer-aligned frame: the copy gives the filter passes' bytes; other frames are not copies")
    func copyEqualsFilterPasses() {
        let filters: [ResampleFilter] = [.automatic, .lanczos3, .catmullRom, .nearest]
        var copies = 0
        forEachSeed(1...200) { seed, rng in
            let size = PixelSize(width: rng.int(1...50), height: rng.int(1...50))
            let image = TestImages.noise(width: size.width, height: size.height, seed: seed, alpha: rng.chance(0.7))
            let scale = rng.chance(0.7) ? 1 : [0.5, 1.5, 2, 0.999][rng.int(0...3)]
            let origin = Point(
                x: Double(rng.int(-20...20)) + (rng.chance(0.2) ? 0.5 : 0),
                y: Double(rng.int(-20...20)))
            let geometry = FrameGeometry(
                frameSize: PixelSize(width: rng.int(1...40), height: rng.int(1...40)), zoomScale: scale,
                imageFrameOrigin: origin, imageSize: size)
            let background = [
                RGBA8(r: 9, g: 99, b: 199), RGBA8(r: 0, g: 0, b: 0, a: 0), RGBA8(r: 200, g: 10, b: 60, a: 128),
            ][rng.int(0...2)]
            let renderer = FrameRenderer(geometry: geometry, filter: filters[rng.int(0...3)], background: background)
            let (x, y) = renderer.axes(reading: image, at: (0, 0))
            let identity = x.isIdentity && y.isIdentity
            if identity { copies += 1 }
            #expect(
                identity
                    == (scale == 1 && origin.x.rounded() == origin.x && !x.outputRange.isEmpty
                        && !y.outputRange.isEmpty),
                "seed \(seed): \(geometry)")
            let frames = [true, false].map { copying in
                image.pixels.withUnsafeBufferPointer { bytes in
                    renderer.renderFrame(xAxis: x, yAxis: y) { x, y, paint, out, width in
                        var rows = BufferRowSource(
                            base: bytes.baseAddress!, width: image.width, origin: (0, 0),
                            firstColumn: x.sourceRange.lowerBound)
                        FrameRenderer.resample(
                            rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width,
                            copiesWhenIdentity: copying)
                    }
                }
            }
            #expect(frames[0] == frames[1], "seed \(seed): \(geometry) over \(background)")
        }
        #expect(copies > 40, "the sweep takes the copy often enough to mean something: \(copies)")
    }
}
