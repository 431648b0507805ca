import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A colour in CIELAB (D65 white), with its chroma C*.
public struct CIELAB: Hashable, Sendable, CustomStringConvertible {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// C*ab = sqrt(a*^2 + b*^2).
    public var chroma: Double { (a * a + b * b).squareRoot() }

    public var description: String {
        "L* \(ColorDifference.format(l)) a* \(ColorDifference.format(a)) b* \(ColorDifference.format(b))"
    }
}

/// How far apart two colours look: 8-bit sRGB -> linear (IEC 61966-2-1's curve) -> XYZ (D65) -> CIELAB (D65
/// white) -> CIEDE2000 (kL = kC = kH = 1), as in Sharma, Wu and Dalal, "The CIEDE2000 color-difference
/// formula: implementation notes, supplementary test data, and mathematical observations" (2005). About 1 is a
/// just-noticeable difference; docs/design.md section 14's oracle bounds the mean and the 99th percentile over a frame.
public enum ColorDifference {
    /// sRGB's linear RGB -> XYZ (D65) matrix, computed from its primaries and D65 (rows X, Y, Z).
    public static let rgbToXYZ: [[Double]] = [
        [0.412_456_4, 0.357_576_1, 0.180_437_5],
        [0.212_672_9, 0.715_152_2, 0.072_175_0],
        [0.019_333_9, 0.119_192_0, 0.950_304_1],
    ]

    /// The white: XYZ of sRGB (255, 255, 255), so that it has L* = 100 and a* = b* = 0 exactly.
    public static let white: (x: Double, y: Double, z: Double) = (
        rgbToXYZ[0][0] + rgbToXYZ[0][1] + rgbToXYZ[0][2],
        rgbToXYZ[1][0] + rgbToXYZ[1][1] + rgbToXYZ[1][2],
        rgbToXYZ[2][0] + rgbToXYZ[2][1] + rgbToXYZ[2][2]
    )

    private static let linearTable: [Double] = (0..<256).map { v in
        let c = Double(v) / 255
        return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// An 8-bit sRGB value on the linear scale 0...1.
    public static func linear(_ value: UInt8) -> Double { linearTable[Int(value)] }

    /// XYZ (D65, Y of white = 1) of an 8-bit sRGB colour.
    public static func xyz(r: UInt8, g: UInt8, b: UInt8) -> (x: Double, y: Double, z: Double) {
        let lr = linear(r)
        let lg = linear(g)
        let lb = linear(b)
        let m = rgbToXYZ
        return (
            m[0][0] * lr + m[0][1] * lg + m[0][2] * lb,
            m[1][0] * lr + m[1][1] * lg + m[1][2] * lb,
            m[2][0] * lr + m[2][1] * lg + m[2][2] * lb
        )
    }

    /// CIELAB of an XYZ colour, relative to `white` (D65).
    public static func lab(x: Double, y: Double, z: Double) -> CIELAB {
        func f(_ t: Double) -> Double {
            let delta = 6.0 / 29
            return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29
        }
        let fx = f(x / white.x)
        let fy = f(y / white.y)
        let fz = f(z / white.z)
        return CIELAB(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// CIELAB (D65) of an 8-bit sRGB colour.
    public static func lab(r: UInt8, g: UInt8, b: UInt8) -> CIELAB {
        let c = xyz(r: r, g: g, b: b)
        return lab(x: c.x, y: c.y, z: c.z)
    }

    /// CIELAB (D65) of a pixel's colour (alpha ignored).
    public static func lab(_ pixel: RGBA8) -> CIELAB { lab(r: pixel.r, g: pixel.g, b: pixel.b) }

    /// CIEDE2000 between two CIELAB colours, with kL = kC = kH = 1. Symmetric.
    public static func ciede2000(_ first: CIELAB, _ second: CIELAB) -> Double {
        let degrees = 180 / Double.pi
        let pow25to7 = 6_103_515_625.0  // 25^7
        let c1 = first.chroma
        let c2 = second.chroma
        let cMean = (c1 + c2) / 2
        let cMean7 = pow(cMean, 7)
        let g = 0.5 * (1 - (cMean7 / (cMean7 + pow25to7)).squareRoot())
        let a1 = (1 + g) * first.a
        let a2 = (1 + g) * second.a
        let c1p = (a1 * a1 + first.b * first.b).squareRoot()
        let c2p = (a2 * a2 + second.b * second.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) * degrees
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(first.b, a1)
        let h2 = hue(second.b, a2)

        let dL = second.l - first.l
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 {
                dh -= 360
            } else if dh < -180 {
                dh += 360
            }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh / 2 / degrees)

        let lMean = (first.l + second.l) / 2
        let cpMean = (c1p + c2p) / 2
        var hMean = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 {
                hMean = (h1 + h2) / 2
            } else if h1 + h2 < 360 {
                hMean = (h1 + h2 + 360) / 2
            } else {
                hMean = (h1 + h2 - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos((hMean - 30) / degrees) + 0.24 * cos(2 * hMean / degrees)
            + 0.32 * cos((3 * hMean + 6) / degrees) - 0.20 * cos((4 * hMean - 63) / degrees)
        let dTheta = 30 * exp(-((hMean - 275) / 25) * ((hMean - 275) / 25))
        let cpMean7 = pow(cpMean, 7)
        let rC = 2 * (cpMean7 / (cpMean7 + pow25to7)).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sL = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sC = 1 + 0.045 * cpMean
        let sH = 1 + 0.015 * cpMean * t
        let rT = -sin(2 * dTheta / degrees) * rC
        let tl = dL / sL
        let tc = dC / sC
        let th = dH / sH
        return max(0, tl * tl + tc * tc + th * th + rT * tc * th).squareRoot()
    }

    /// CIEDE2000 between two 8-bit sRGB pixels (alpha ignored).
    public static func ciede2000(_ first: RGBA8, _ second: RGBA8) -> Double {
        ciede2000(lab(first), lab(second))
    }

    /// `value` with `decimals` digits after the point (no Foundation): 1.2346 for (1.23456, 4).
    public static func format(_ value: Double, decimals: Int = 3) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let digits = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }
}

/// CIEDE2000 over two RGBA8 images of the same size, pixel by pixel: the mean, the 99th percentile
/// (nearest rank: the smallest difference that at least 99% of the pixels do not exceed) and the maximum, and
/// the ratio of their mean chromas. Pixels whose alpha is 0 in either image are skipped; alpha is otherwise
/// ignored (frames are opaque).
public struct ColorDifferenceStatistics: Sendable, CustomStringConvertible {
    /// Pixels compared.
    public let count: Int
    public let mean: Double
    public let p99: Double
    public let max: Double
    /// Mean C* of the first image over mean C* of the second (1 when both are gray): below 1, the first is
    /// duller, which is what ignoring a wide-gamut profile looks like.
    public let chromaRatio: Double

    /// Compares two RGBA8 pixel buffers (`width * height * 4` bytes each, the same count).
    public init(_ first: [UInt8], _ second: [UInt8]) {
        precondition(first.count == second.count, "the two images differ in size")
        precondition(first.count % 4 == 0, "not RGBA8")
        var differences: [Double] = []
        differences.reserveCapacity(first.count / 4)
        var sum = 0.0
        var chroma1 = 0.0
        var chroma2 = 0.0
        var cache: [UInt32: CIELAB] = [:]
        func lab(_ p: [UInt8], _ i: Int) -> CIELAB {
            let key = UInt32(p[i]) << 16 | UInt32(p[i + 1]) << 8 | UInt32(p[i + 2])
            if let known = cache[key] { return known }
            let value = ColorDifference.lab(r: p[i], g: p[i + 1], b: p[i + 2])
            cache[key] = value
            return value
        }
        var i = 0
        while i < first.count {
            if first[i + 3] != 0 && second[i + 3] != 0 {
                let l1 = lab(first, i)
                let l2 = lab(second, i)
                let d =
                    first[i] == second[i] && first[i + 1] == second[i + 1] && first[i + 2] == second[i + 2]
                    ? 0 : ColorDifference.ciede2000(l1, l2)
                differences.append(d)
                sum += d
                // C* below 1e-9 is rounding noise of a neutral colour: two gray images have ratio 1.
                let c1 = l1.chroma
                let c2 = l2.chroma
                chroma1 += c1 < 1e-9 ? 0 : c1
                chroma2 += c2 < 1e-9 ? 0 : c2
            }
            i += 4
        }
        count = differences.count
        guard count > 0 else {
            mean = 0
            p99 = 0
            max = 0
            chromaRatio = 1
            return
        }
        differences.sort()
        mean = sum / Double(count)
        // Nearest rank: the ceil(0.99 n)-th smallest.
        let rank = (99 * count + 99) / 100
        p99 = differences[rank - 1]
        max = differences[count - 1]
        chromaRatio = chroma2 > 0 ? chroma1 / chroma2 : (chroma1 > 0 ? .infinity : 1)
    }

    /// Compares two images of the same size.
    public init(_ first: ImageBuffer, _ second: ImageBuffer) {
        precondition(first.size == second.size, "the two images differ in size: \(first.size) and \(second.size)")
        self.init(first.pixels, second.pixels)
    }

    public var description: String {
        "CIEDE2000 mean \(ColorDifference.format(mean)), p99 \(ColorDifference.format(p99)), "
            + "max \(ColorDifference.format(max)) over \(count) pixels; chroma ratio "
            + ColorDifference.format(chromaRatio)
    }
}
