import Testing
import TileViewCore
import TileViewTestSupport

@Suite("Image orientation")
struct ImageOrientationTests {
    /// The stored 3 x 2 test image, one letter per pixel:
    ///     a b c
    ///     d e f
    static let letters = Array("abcdef")

    static func lettered(_ rows: [String]) -> ImageBuffer {
        let width = rows[0].count
        var image = ImageBuffer(width: width, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, letter) in row.enumerated() {
                let v = UInt8(letters.firstIndex(of: letter)! + 1)
                image[x, y] = RGBA8(r: v, g: v &* 16, b: 255 - v, a: 200 + v)
            }
        }
        return image
    }

    /// What each EXIF orientation shows for the stored image, worked out by hand.
    static let upright: [(ImageOrientation, [String])] = [
        (.up, ["abc", "def"]),
        (.upMirrored, ["cba", "fed"]),  // 2: mirror horizontally
        (.down, ["fed", "cba"]),  // 3: rotate 180
        (.downMirrored, ["def", "abc"]),  // 4: mirror vertically
        (.leftMirrored, ["ad", "be", "cf"]),  // 5: transpose
        (.right, ["da", "eb", "fc"]),  // 6: rotate 90 clockwise
        (.rightMirrored, ["fc", "eb", "da"]),  // 7: transverse
        (.left, ["cf", "be", "ad"]),  // 8: rotate 90 counter-clockwise
    ]

    @Test("each of the 8 orientations turns a 3 x 2 image into its hand-worked layout", arguments: 0..<8)
    func handWorked(index: Int) {
        let (orientation, rows) = Self.upright[index]
        let stored = Self.lettered(["abc", "def"])
        #expect(orientation.rawValue == index + 1)
        #expect(stored.applying(orientation) == Self.lettered(rows), "orientation \(orientation)")
        #expect(orientation.orientedSize(forStoredSize: stored.size) == Self.lettered(rows).size)
    }

    /// A seeded buffer of distinct-looking pixels.
    private static func randomImage(width: Int, height: Int, generator: inout SplitMix) -> ImageBuffer {
        let pixels = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return ImageBuffer(width: width, height: height, pixels: pixels)
    }

    @Test("applying agrees with the pixel mapping and the inverse undoes it (sizes across 32-pixel blocks)")
    func pixelMapping() {
        let seed: UInt64 = 0x0213_0AB1
        var generator = SplitMix(seed: seed)
        for (width, height) in [(1, 1), (1, 7), (9, 1), (33, 31), (70, 45), (64, 64)] {
            let stored = Self.randomImage(width: width, height: height, generator: &generator)
            for orientation in ImageOrientation.allCases {
                let oriented = stored.applying(orientation)
                var agrees = true
                for y in 0..<oriented.height {
                    for x in 0..<oriented.width {
                        let s = orientation.storedPixel(atOrientedX: x, y: y, storedSize: stored.size)
                        if oriented[x, y] != stored[s.x, s.y] { agrees = false }
                    }
                }
                #expect(agrees, "\(width)x\(height) orientation \(orientation)")
                #expect(
                    oriented.applying(orientation.inverse) == stored, "\(width)x\(height) orientation \(orientation)")
            }
        }
    }

    @Test("an oriented rect maps to the stored rect holding exactly its pixels (seeded sweep)")
    func rectMapping() {
        let seed: UInt64 = 0x5EC7_0001
        var generator = SplitMix(seed: seed)
        for round in 0..<400 {
            let stored = PixelSize(
                width: Int.random(in: 1...40, using: &generator), height: Int.random(in: 1...40, using: &generator))
            let orientation = ImageOrientation.allCases.randomElement(using: &generator)!
            let oriented = orientation.orientedSize(forStoredSize: stored)
            let x = Int.random(in: 0..<oriented.width, using: &generator)
            let y = Int.random(in: 0..<oriented.height, using: &generator)
            let rect = PixelRect(
                x: x, y: y, width: Int.random(in: 1...(oriented.width - x), using: &generator),
                height: Int.random(in: 1...(oriented.height - y), using: &generator))
            let storedRect = orientation.storedRect(forOrientedRect: rect, storedSize: stored)
            let context = "seed \(seed) round \(round): \(orientation) stored \(stored) rect \(rect)"
            #expect(PixelRect(size: stored).contains(storedRect), "\(context)")
            #expect(storedRect.pixelCount == rect.pixelCount, "\(context)")
            // The mapping is one-to-one, so equal counts and every image inside mean equal sets.
            var inside = true
            for py in rect.y..<rect.maxY {
                for px in rect.x..<rect.maxX {
                    let s = orientation.storedPixel(atOrientedX: px, y: py, storedSize: stored)
                    if !storedRect.contains(x: s.x, y: s.y) { inside = false }
                }
            }
            #expect(inside, "\(context)")
            #expect(orientation.orientedRect(forStoredRect: storedRect, storedSize: stored) == rect, "\(context)")
        }
    }

    @Test("EXIF values outside 1...8 count as upright; 5 to 8 swap the axes")
    func exifValues() {
        for value in [-1, 0, 9, 255, 65535] { #expect(ImageOrientation(exifValue: value) == .up) }
        for value in 1...8 {
            let orientation = ImageOrientation(exifValue: value)
            #expect(orientation.exifValue == value)
            #expect(orientation.swapsAxes == (value >= 5))
            #expect(orientation.inverse.inverse == orientation)
        }
        #expect(ImageOrientation.right.inverse == .left)
        let size = PixelSize(width: 6000, height: 4000)
        #expect(ImageOrientation.left.orientedSize(forStoredSize: size) == PixelSize(width: 4000, height: 6000))
        #expect(ImageOrientation.left.storedSize(forOrientedSize: PixelSize(width: 4000, height: 6000)) == size)
    }
}

/// SplitMix64, seeded, so that every sweep reproduces from its printed seed.
private struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Image orientation: a viewer's quarter turns")
struct ImageOrientationRotationTests {
    @Test("a viewer's quarter turns compose with the EXIF orientation: turning what it shows clockwise")
    func rotationComposes() {
        #expect(ImageOrientation.up.rotated(clockwiseQuarterTurns: 1) == .right)
        #expect(ImageOrientation.up.rotated(clockwiseQuarterTurns: 2) == .down)
        #expect(ImageOrientation.up.rotated(clockwiseQuarterTurns: -1) == .left)
        let stored = PixelSize(width: 5, height: 3)
        for orientation in ImageOrientation.allCases {
            #expect(orientation.rotated(clockwiseQuarterTurns: 4) == orientation)
            #expect(orientation.rotated(clockwiseQuarterTurns: 1).rotated(clockwiseQuarterTurns: -1) == orientation)
            // Turned pixel (rx, ry) shows what oriented pixel (ry, H - 1 - rx) shows.
            let turned = orientation.rotated(clockwiseQuarterTurns: 1)
            let oriented = orientation.orientedSize(forStoredSize: stored)
            let size = turned.orientedSize(forStoredSize: stored)
            #expect(size == PixelSize(width: oriented.height, height: oriented.width))
            for ry in 0..<size.height {
                for rx in 0..<size.width {
                    let a = turned.storedPixel(atOrientedX: rx, y: ry, storedSize: stored)
                    let b = orientation.storedPixel(atOrientedX: ry, y: oriented.height - 1 - rx, storedSize: stored)
                    #expect(a.x == b.x && a.y == b.y, "\(orientation) at (\(rx), \(ry))")
                }
            }
        }
    }
}
