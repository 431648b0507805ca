import Testing
import TileViewCore
import TileViewTestSupport

@Suite("Geometry")
struct GeometryTests {
    @Test("a rect built about a centre has that centre")
    func centreRoundTrip() {
        let r = Rect(center: Point(x: 703.125, y: 218.75), size: Size(width: 4000, height: 3000))
        #expect(r.center == Point(x: 703.125, y: 218.75))
        #expect(r.minX == 703.125 - 2000)
    }

    @Test("intersections are nil when rects only touch")
    func touchingRectsDoNotIntersect() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersection(PixelRect(x: 10, y: 0, width: 5, height: 5)) == nil)
        #expect(
            a.intersection(PixelRect(x: 9, y: 9, width: 5, height: 5)) == PixelRect(x: 9, y: 9, width: 1, height: 1))
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).intersection(Rect(x: 1, y: 0, width: 1, height: 1)) == nil)
    }

    @Test("covering rounds outward")
    func coveringRoundsOutward() {
        #expect(
            PixelRect.covering(Rect(x: 0.5, y: 1.25, width: 2, height: 2)) == PixelRect(x: 0, y: 1, width: 3, height: 3)
        )
        #expect(
            PixelRect.covering(Rect(x: -0.5, y: 0, width: 1, height: 1)) == PixelRect(x: -1, y: 0, width: 2, height: 1))
    }

    @Test("pixel counts saturate instead of trapping")
    func pixelCountSaturates() {
        #expect(PixelSize(width: Int.max, height: 2).pixelCount == Int.max)
        #expect(PixelSize(width: 6000, height: 4000).pixelCount == 24_000_000)
    }

    @Test(
        "hex colours parse with and without alpha",
        arguments: [
            ("000000", RGBA8(r: 0, g: 0, b: 0, a: 255)),
            ("#FF8000", RGBA8(r: 255, g: 128, b: 0, a: 255)),
            ("11223344", RGBA8(r: 0x11, g: 0x22, b: 0x33, a: 0x44)),
        ])
    func hexColours(text: String, colour: RGBA8) {
        #expect(RGBA8(hex: text) == colour)
    }

    @Test("malformed hex colours are rejected", arguments: ["", "12345", "GG0000", "#1234567"])
    func badHexColours(text: String) {
        #expect(RGBA8(hex: text) == nil)
    }

    @Test("crop copies exactly the rows and columns asked")
    func cropCopiesPixels() {
        var b = ImageBuffer(width: 4, height: 3)
        for y in 0..<3 { for x in 0..<4 { b[x, y] = RGBA8(r: UInt8(x), g: UInt8(y), b: 7, a: 255) } }
        let c = b.cropped(to: PixelRect(x: 1, y: 1, width: 2, height: 2))
        #expect(c.width == 2 && c.height == 2)
        #expect(c[0, 0] == RGBA8(r: 1, g: 1, b: 7, a: 255))
        #expect(c[1, 1] == RGBA8(r: 2, g: 2, b: 7, a: 255))
        #expect(b.isOpaque)
    }

    @Test("isOpaque finds a translucent pixel at any position, and reads alpha bytes only")
    func opacityAtEveryPosition() {
        for count in 1...9 {
            // Colour bytes of 0 (a word check that read them as alpha would fail) and every alpha 255.
            var image = ImageBuffer(width: count, height: 1)
            for x in 0..<count { image[x, 0] = RGBA8(r: 0, g: 0, b: 0, a: 255) }
            #expect(image.isOpaque, "\(count) opaque pixels")
            for x in 0..<count {
                var translucent = image
                translucent[x, 0] = RGBA8(r: 255, g: 255, b: 255, a: 254)
                #expect(!translucent.isOpaque, "pixel \(x) of \(count) has alpha 254")
            }
        }
        #expect(ImageBuffer(width: 0, height: 0).isOpaque)
    }

    @Test("SHA-256 matches the FIPS test vectors")
    func sha256Vectors() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
