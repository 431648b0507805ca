/// sin(pi * x) without libm: the pure modules have no `sin`, and a fixed polynomial keeps the
/// filter weights identical on every platform.
///
/// x is reduced to t in [-1/2, 1/2] about the nearest integer n (sin(pi (n + t)) = (-1)^n sin(pi t)),
/// then the Taylor series of sin to u^21 with u = pi t (|u| <= pi/2, truncation error below 3e-16).
/// Exactly 0 at every integer. Meant for the small arguments of filter kernels.
func sinPi(_ x: Double) -> Double {
    let n = x.rounded()
    let t = x - n
    let u = Double.pi * t
    let u2 = u * u
    // Horner form of u - u^3/3! + u^5/5! - ... - u^19/19! + u^21/21!
    var p = 1.0 / 51_090_942_171_709_440_000.0
    p = p * u2 - 1.0 / 121_645_100_408_832_000.0
    p = p * u2 + 1.0 / 355_687_428_096_000.0
    p = p * u2 - 1.0 / 1_307_674_368_000.0
    p = p * u2 + 1.0 / 6_227_020_800.0
    p = p * u2 - 1.0 / 39_916_800.0
    p = p * u2 + 1.0 / 362_880.0
    p = p * u2 - 1.0 / 5040.0
    p = p * u2 + 1.0 / 120.0
    p = p * u2 - 1.0 / 6.0
    p = p * u2 + 1.0
    let s = u * p
    let odd = n.truncatingRemainder(dividingBy: 2) != 0
    return odd ? -s : s
}
