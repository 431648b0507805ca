/// The few transcendental functions the motion maths needs, written out so that the module stays free of C and
/// libm: natural logarithm, exponential and power with a positive base, to within a few units in the last place.
///
/// Both functions reduce the argument with a power of two (exact) and sum a short fixed series in a fixed order,
/// so that they give the same bits on every machine. They serve the animation's geometric scale (a ratio of
/// scales raised to an eased progress) and the closed-form deceleration distance (0.998 raised to a step count).
enum ZoomMath {
    /// ln 2 in two parts (fdlibm's split): `ln2Hi` has its low bits zero, so `k * ln2Hi` is exact for any
    /// exponent k a double has.
    static let ln2Hi = 6.931_471_803_691_238_164_90e-01
    static let ln2Lo = 1.908_214_929_270_587_700_02e-10
    static let ln2 = 0.693_147_180_559_945_309_417_232_121_458_176_568

    /// ln x. x = m * 2^k with m in [sqrt(1/2), sqrt(2)), and ln m = 2 atanh(z) = 2 (z + z^3/3 + z^5/5 + ...) with
    /// z = (m - 1)/(m + 1), |z| <= 0.1716, so twelve terms reach below 1e-19. 0 gives -infinity, a negative or NaN
    /// argument NaN, +infinity +infinity.
    static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var k = Double(x.exponent)
        var m = x.significand  // in [1, 2), also for subnormal x
        if m > 1.414_213_562_373_095_1 {
            m /= 2
            k += 1
        }
        let z = (m - 1) / (m + 1)
        let z2 = z * z
        var sum = 0.0
        for n in stride(from: 11, through: 0, by: -1) {
            sum = sum * z2 + 1 / Double(2 * n + 1)
        }
        return k * ln2Hi + (2 * z * sum + k * ln2Lo)
    }

    /// e^x. x = k ln 2 + r with k whole and |r| <= ln 2 / 2, e^r by its Taylor series to r^17/17! (below 1e-19),
    /// then scaled by 2^k exactly. Overflows to +infinity above about 709.78 and underflows to 0 below about
    /// -745.13; NaN gives NaN.
    static func exp(_ x: Double) -> Double {
        guard !x.isNaN else { return x }
        if x > 709.79 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        var sum = 1.0
        for n in stride(from: 17, through: 1, by: -1) {
            sum = 1 + sum * r / Double(n)
        }
        return Double(sign: .plus, exponent: Int(k), significand: sum)
    }

    /// base^exponent for a positive base: e^(exponent * ln base). Exactly 1 when the exponent is 0 or the base 1.
    static func pow(_ base: Double, _ exponent: Double) -> Double {
        guard exponent != 0, base != 1 else { return 1 }
        return exp(exponent * log(base))
    }

    /// t*t*(3 - 2t) for t clamped to [0, 1]: 0 at 0, 1 at 1 (both exactly), flat at both ends; NaN gives 0.
    static func smoothstep(_ t: Double) -> Double {
        guard t > 0 else { return 0 }
        guard t < 1 else { return 1 }
        return t * t * (3 - 2 * t)
    }
}
