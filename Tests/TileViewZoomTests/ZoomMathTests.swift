import Foundation
import Testing
import TileViewTestSupport

@testable import TileViewZoom

/// The module's own logarithm, exponential and power (it links no libm), checked against the C library's.
@Suite("Zoom math")
struct ZoomMathTests {
    /// Equal within `relative` of the larger magnitude.
    static func close(_ a: Double, _ b: Double, relative: Double) -> Bool {
        a == b || abs(a - b) <= relative * max(abs(a), abs(b))
    }

    @Test("exact values: ln 1 = 0, e^0 = 1, x^0 = 1, 1^y = 1, smoothstep 0, 1/2 and 1")
    func exactValues() {
        #expect(ZoomMath.log(1) == 0)
        #expect(ZoomMath.exp(0) == 1)
        #expect(ZoomMath.pow(123.456, 0) == 1)
        #expect(ZoomMath.pow(1, 0.37) == 1)
        #expect(ZoomMath.smoothstep(0) == 0)
        #expect(ZoomMath.smoothstep(0.5) == 0.5)
        #expect(ZoomMath.smoothstep(1) == 1)
        #expect(ZoomMath.smoothstep(-3) == 0 && ZoomMath.smoothstep(7) == 1 && ZoomMath.smoothstep(.nan) == 0)
    }

    @Test(
        "known values to 1e-14",
        arguments: [
            (ZoomMath.exp(1), 2.718_281_828_459_045), (ZoomMath.log(10), 2.302_585_092_994_046),
            (ZoomMath.log(2), 0.693_147_180_559_945_3), (ZoomMath.pow(2, 0.5), 1.414_213_562_373_095_1),
            (ZoomMath.pow(0.998, 2301), 0.009_985_630_741_373_378), (ZoomMath.exp(-1), 0.367_879_441_171_442_33),
        ])
    func knownValues(value: Double, expected: Double) {
        #expect(Self.close(value, expected, relative: 1e-14), "\(value) vs \(expected)")
    }

    @Test("special arguments: log 0 = -inf, log of a negative or NaN is NaN, exp overflows and underflows")
    func specialArguments() {
        #expect(ZoomMath.log(0) == -.infinity)
        #expect(ZoomMath.log(-1).isNaN && ZoomMath.log(.nan).isNaN)
        #expect(ZoomMath.log(.infinity) == .infinity)
        #expect(ZoomMath.exp(710) == .infinity && ZoomMath.exp(-746) == 0 && ZoomMath.exp(.nan).isNaN)
        #expect(
            Self.close(ZoomMath.log(.leastNonzeroMagnitude), Foundation.log(.leastNonzeroMagnitude), relative: 1e-15))
        #expect(
            Self.close(
                ZoomMath.log(.greatestFiniteMagnitude), Foundation.log(.greatestFiniteMagnitude), relative: 1e-15))
    }

    @Test("log, exp and pow agree with the C library to 1e-13 relative over their range")
    func agreesWithLibm() {
        sweep("log, exp and pow match libm", seed: 0x3A7B_0001, cases: 20000) { rng in
            let x = rng.logUniform(1e-300, 1e300)
            let log = ZoomMath.log(x)
            let logExpected = Foundation.log(x)
            guard abs(log - logExpected) <= 1e-15 * max(1, abs(logExpected)) else {
                return "log(\(x)) = \(log), libm \(logExpected)"
            }
            let y = rng.uniform(-745, 709.7)
            guard Self.close(ZoomMath.exp(y), Foundation.exp(y), relative: 1e-14) else {
                return "exp(\(y)) = \(ZoomMath.exp(y)), libm \(Foundation.exp(y))"
            }
            // The animation's use: a ratio of scales to a power in [0, 1]; the deceleration's: 0.998^N.
            let base = rng.logUniform(1e-9, 1e9)
            let e = rng.unit()
            guard Self.close(ZoomMath.pow(base, e), Foundation.pow(base, e), relative: 1e-13) else {
                return "pow(\(base), \(e)) = \(ZoomMath.pow(base, e)), libm \(Foundation.pow(base, e))"
            }
            let n = Double(rng.int(0...20000))
            guard Self.close(ZoomMath.pow(0.998, n), Foundation.pow(0.998, n), relative: 1e-13) else {
                return "pow(0.998, \(n)) = \(ZoomMath.pow(0.998, n)), libm \(Foundation.pow(0.998, n))"
            }
            return nil
        }
    }

    @Test("the exponential is monotone across the reduction boundaries k ln 2 +- ln 2 / 2")
    func exponentialIsMonotone() {
        for k in -20...20 {
            let boundary = (Double(k) + 0.5) * ZoomMath.ln2
            var previous = ZoomMath.exp(boundary.nextDown.nextDown.nextDown)
            var x = boundary.nextDown.nextDown
            for _ in 0..<6 {
                let value = ZoomMath.exp(x)
                #expect(value >= previous, "exp not monotone at \(x)")
                previous = value
                x = x.nextUp
            }
        }
    }
}
