import Testing
import TileViewCore
import TileViewTestSupport

@testable import TileViewRender

/// The compositing of filtered rows over an opaque background (`FrameRenderer.compositeOverOpaque`, written channel
/// by channel) against the form it replaced, a pixel's four lanes side by side: the same bytes for every value a
/// filter can leave, out of range and not finite included.
@Suite("Render: compositing over an opaque background")
struct CompositeTests {
    @Test("channel by channel gives the bytes of a pixel's lanes side by side, for any row, coverage and background")
    func channelsEqualLanes() {
        let odd: [Float] = [
            0, -0, 255, 254.99998, 255.00002, 0.5, 1.5, 127.5, -1, 300, .infinity, -.infinity, .nan, 1e-30,
        ]
        forEachSeed(1...300) { seed, rng in
            let columns = rng.int(1...41)
            func value() -> Float {
                rng.int(0...4) == 0 ? odd[rng.int(0...(odd.count - 1))] : Float.random(in: -40...300, using: &rng)
            }
            let row = (0..<columns).map { _ in SIMD4<Float>(value(), value(), value(), value()) }
            let coverage = (0..<columns).map { _ in rng.int(0...3) == 0 ? 1 : Float.random(in: 0...1, using: &rng) }
            let rowCoverage: Float = rng.int(0...2) == 0 ? 1 : Float.random(in: 0...1, using: &rng)
            let paint = BackgroundPaint(
                RGBA8(r: UInt8(rng.int(0...255)), g: UInt8(rng.int(0...255)), b: UInt8(rng.int(0...255)), a: 255))
            var channels = [UInt8](repeating: 7, count: columns * 4)
            var lanes = [UInt8](repeating: 9, count: columns * 4)
            row.withUnsafeBufferPointer { row in
                coverage.withUnsafeBufferPointer { coverage in
                    guard let row = row.baseAddress, let coverage = coverage.baseAddress else { return }
                    channels.withUnsafeMutableBufferPointer {
                        FrameRenderer.compositeOverOpaque(
                            row, columns: columns, coverage: coverage, rowCoverage: rowCoverage, background: paint,
                            into: $0.baseAddress!)
                    }
                    lanes.withUnsafeMutableBufferPointer {
                        Self.lanesSideBySide(
                            row, columns: columns, coverage: coverage, rowCoverage: rowCoverage, background: paint,
                            into: $0.baseAddress!)
                    }
                }
            }
            #expect(channels == lanes, "seed \(seed): \(columns) columns")
        }
    }

    /// The compositing over an opaque background as it was, a pixel's four lanes side by side: lane by lane the
    /// scalar code's operations in its order, with `lesser` and `greater` picking as `min` and `max` do, and the
    /// alpha lane 255 (with its helpers, which only it used).
    static func lanesSideBySide(
        _ row: UnsafePointer<SIMD4<Float>>, columns: Int, coverage: UnsafePointer<Float>, rowCoverage: Float,
        background: BackgroundPaint, into out: UnsafeMutablePointer<UInt8>
    ) {
        let inverse255: Float = 1.0 / 255
        let zero = SIMD4<Float>()
        let colour = SIMD4<Float>(background.red, background.green, background.blue, 0)
        let raw = UnsafeMutableRawPointer(out)
        for x in 0..<columns {
            let p = row[x]
            let a = min(max(p.w, 0), 255)
            let cov = coverage[x] * rowCoverage
            let through = 1 - a * cov * inverse255
            var composited =
                lesser(greater(p, zero), SIMD4(repeating: a)) * cov + colour * through
            composited.w = 255
            raw.storeBytes(of: bytes(composited), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
        }
    }

    /// `FrameRenderer.byte` of each lane.
    static func bytes(_ value: SIMD4<Float>) -> SIMD4<UInt8> {
        let clamped = lesser(greater(value, SIMD4<Float>()), SIMD4(repeating: 255)) + 8_388_608
        return SIMD4<UInt8>(truncatingIfNeeded: unsafeBitCast(clamped, to: SIMD4<UInt32>.self))
    }

    /// `min(x, y)` of each lane (`y < x ? y : x`, as the scalar function picks).
    static func lesser(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> { select(y, where: y .< x, else: x) }

    /// `max(x, y)` of each lane (`y >= x ? y : x`, as the scalar function picks).
    static func greater(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> { select(y, where: y .>= x, else: x) }

    /// The lanes of `chosen` where `mask` is set, else those of `other`, through the lanes' bits (a set lane of a
    /// `SIMDMask` is all ones).
    static func select(_ chosen: SIMD4<Float>, where mask: SIMDMask<SIMD4<Int32>>, else other: SIMD4<Float>)
        -> SIMD4<Float>
    {
        let bits = unsafeBitCast(mask, to: SIMD4<Int32>.self)
        let picked =
            (bits & unsafeBitCast(chosen, to: SIMD4<Int32>.self))
            | (~bits & unsafeBitCast(other, to: SIMD4<Int32>.self))
        return unsafeBitCast(picked, to: SIMD4<Float>.self)
    }
}
