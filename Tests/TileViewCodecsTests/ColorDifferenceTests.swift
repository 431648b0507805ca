import Testing
import TileViewCore
import TileViewTestSupport

/// The colour-difference measure of docs/design.md section 14's oracle (TileViewTestSupport's `ColorDifference`).
@Suite("CIEDE2000 and sRGB -> CIELAB")
struct ColorDifferenceTests {
    struct Pair: Sendable, CustomStringConvertible {
        let number: Int
        let first: CIELAB
        let second: CIELAB
        let expected: Double
        var description: String { "pair \(number)" }
    }

    /// Sharma, Wu and Dalal (2005), Table 1: the 34 pairs of their supplementary CIEDE2000 test data (L*, a*,
    /// b* of each colour, and the difference to 4 decimals). Pairs 7-16 exercise the hue rules (a zero chroma,
    /// hue differences and hue means either side of 180 degrees, the wrap at 0/360); 1-6 and 17-24 the
    /// blue and near-neutral corrections; 25-34 are colours from other published data sets.
    static let sharma: [Pair] = [
        (1, 50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
        (2, 50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
        (3, 50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
        (4, 50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
        (5, 50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
        (6, 50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
        (7, 50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
        (8, 50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
        (9, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
        (10, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
        (11, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
        (12, 50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
        (13, 50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
        (14, 50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
        (15, 50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
        (16, 50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
        (17, 50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
        (18, 50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
        (19, 50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
        (20, 50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
        (21, 50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
        (22, 50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
        (23, 50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
        (24, 50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
        (25, 60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
        (26, 63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
        (27, 61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
        (28, 35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
        (29, 22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
        (30, 36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
        (31, 90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
        (32, 90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
        (33, 6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
        (34, 2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
    ].map { n, l1, a1, b1, l2, a2, b2, de in
        Pair(number: n, first: CIELAB(l: l1, a: a1, b: b1), second: CIELAB(l: l2, a: a2, b: b2), expected: de)
    }

    @Test(
        "Sharma, Wu and Dalal's test pairs give their published CIEDE2000 to 4 decimals, both ways round",
        arguments: sharma)
    func sharmaPair(pair: Pair) {
        let forward = ColorDifference.ciede2000(pair.first, pair.second)
        let backward = ColorDifference.ciede2000(pair.second, pair.first)
        #expect((forward * 10_000).rounded() / 10_000 == pair.expected, "\(pair): \(forward)")
        #expect(abs(forward - backward) < 1e-12, "\(pair): not symmetric (\(forward), \(backward))")
    }

    @Test("a colour is 0 from itself, and the hue-wrap pairs are not mistaken for near neighbours")
    func identityAndWrap() {
        for lab in [CIELAB(l: 50, a: 0, b: 0), CIELAB(l: 20, a: 60, b: -40), CIELAB(l: 90, a: -1, b: 0.0001)] {
            #expect(ColorDifference.ciede2000(lab, lab) == 0)
        }
        // Pairs 9-12: hues about 0 and 180 degrees apart; a wrong wrap rule makes these near 0 or far above 10.
        let d = ColorDifference.ciede2000(
            CIELAB(l: 50, a: 2.49, b: -0.001), CIELAB(l: 50, a: -2.49, b: 0.0011))
        #expect(d > 7 && d < 7.5)
    }

    @Test("sRGB 8-bit -> CIELAB (D65): white, black, primaries and a mid gray")
    func srgbToLab() {
        func close(_ lab: CIELAB, _ l: Double, _ a: Double, _ b: Double, _ tolerance: Double = 0.01) -> Bool {
            abs(lab.l - l) < tolerance && abs(lab.a - a) < tolerance && abs(lab.b - b) < tolerance
        }
        let white = ColorDifference.lab(r: 255, g: 255, b: 255)
        #expect(close(white, 100, 0, 0, 1e-9), "\(white)")
        #expect(close(ColorDifference.lab(r: 0, g: 0, b: 0), 0, 0, 0, 1e-9))
        // Bruce Lindbloom's calculator (sRGB, D65 reference white).
        let red = ColorDifference.lab(r: 255, g: 0, b: 0)
        #expect(close(red, 53.2408, 80.0925, 67.2032), "\(red)")
        let green = ColorDifference.lab(r: 0, g: 255, b: 0)
        #expect(close(green, 87.7347, -86.1827, 83.1793), "\(green)")
        let blue = ColorDifference.lab(r: 0, g: 0, b: 255)
        #expect(close(blue, 32.2970, 79.1875, -107.8602), "\(blue)")
        let gray = ColorDifference.lab(r: 119, g: 119, b: 119)
        #expect(abs(gray.l - 50.0) < 0.1 && abs(gray.a) < 1e-9 && abs(gray.b) < 1e-9, "\(gray)")
        #expect(ColorDifference.linear(255) == 1 && ColorDifference.linear(0) == 0)
        #expect(abs(ColorDifference.linear(10) - 10.0 / 255 / 12.92) < 1e-15, "the linear segment")
    }

    @Test("statistics: identical images, one changed pixel, the 99th percentile by nearest rank, alpha 0 skipped")
    func statistics() {
        var a = ImageBuffer(width: 10, height: 10, fill: RGBA8(r: 200, g: 40, b: 30))
        let same = ColorDifferenceStatistics(a, a)
        #expect(same.count == 100 && same.mean == 0 && same.p99 == 0 && same.max == 0 && same.chromaRatio == 1)

        var b = a
        b[3, 4] = RGBA8(r: 190, g: 40, b: 30)
        let one = ColorDifferenceStatistics(a, b)
        let d = ColorDifference.ciede2000(RGBA8(r: 200, g: 40, b: 30), RGBA8(r: 190, g: 40, b: 30))
        #expect(d > 1)
        #expect(one.max == d && abs(one.mean - d / 100) < 1e-12)
        #expect(one.p99 == 0, "1 pixel in 100 differs: the 99th smallest difference is 0")
        b[5, 5] = RGBA8(r: 190, g: 40, b: 30)
        #expect(ColorDifferenceStatistics(a, b).p99 == d, "2 pixels in 100 differ: the 99th smallest is one of them")

        // Transparent pixels (in either image) are not compared.
        a[0, 0] = RGBA8(r: 0, g: 0, b: 255, a: 0)
        var c = a
        c[0, 0] = RGBA8(r: 255, g: 255, b: 0, a: 255)
        let skipped = ColorDifferenceStatistics(a, c)
        #expect(skipped.count == 99 && skipped.max == 0)
    }

    @Test("the chroma ratio: a duller copy is below 1, a gray pair is 1")
    func chromaRatio() {
        let vivid = ImageBuffer(width: 4, height: 4, fill: RGBA8(r: 220, g: 30, b: 20))
        let dull = ImageBuffer(width: 4, height: 4, fill: RGBA8(r: 190, g: 60, b: 50))
        let ratio = ColorDifferenceStatistics(dull, vivid).chromaRatio
        #expect(ratio < 0.9 && ratio > 0.3, "\(ratio)")
        #expect(abs(ColorDifferenceStatistics(vivid, dull).chromaRatio * ratio - 1) < 1e-12)
        let gray = ImageBuffer(width: 4, height: 4, fill: RGBA8(r: 90, g: 90, b: 90))
        #expect(ColorDifferenceStatistics(gray, gray).chromaRatio == 1)
    }

    @Test("format writes fixed decimals without Foundation")
    func formatting() {
        #expect(ColorDifference.format(1.23456, decimals: 4) == "1.2346")
        #expect(ColorDifference.format(0.0004) == "0.000")
        #expect(ColorDifference.format(-2.5, decimals: 1) == "-2.5")
        #expect(ColorDifference.format(12.0) == "12.000")
        #expect(ColorDifference.format(0.0996, decimals: 2) == "0.10")
    }
}
