import TileViewCore
import TileViewRender
import TileViewTestSupport

/// Deterministic test pictures, made from integers only so they are the same everywhere.
enum TestImages {
    /// Random pixels; opaque unless `alpha` is true.
    static func noise(width: Int, height: Int, seed: UInt64, alpha: Bool = false) -> ImageBuffer {
        var rng = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            let v = rng.next()
            pixels[i * 4] = UInt8(truncatingIfNeeded: v)
            pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: v >> 8)
            pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: v >> 16)
            if alpha { pixels[i * 4 + 3] = UInt8(truncatingIfNeeded: v >> 24) }
        }
        return ImageBuffer(width: width, height: height, pixels: pixels)
    }

    /// A smooth picture (gradients and a few bands) with a little noise, like a photo.
    static func photo(width: Int, height: Int, seed: UInt64) -> ImageBuffer {
        var rng = SplitMix64(seed: seed)
        var image = ImageBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let n = Int(rng.next() % 9) - 4
                let r = (x * 255) / max(1, width - 1) + n
                let g = (y * 255) / max(1, height - 1) - n
                let b = ((x + 2 * y) / 7 % 2) * 160 + 40 + n
                image[x, y] = RGBA8(r: clamp(r), g: clamp(g), b: clamp(b))
            }
        }
        return image
    }

    /// One-pixel black and white squares.
    static func checkerboard(width: Int, height: Int) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height, fill: .black)
        for y in 0..<height {
            for x in 0..<width where (x + y) % 2 == 0 { image[x, y] = RGBA8(r: 255, g: 255, b: 255) }
        }
        return image
    }

    /// `image` with every pixel outside `keep` replaced by random poison.
    static func poisoned(_ image: ImageBuffer, outside keep: PixelRect, seed: UInt64) -> ImageBuffer {
        var rng = SplitMix64(seed: seed)
        var out = image
        for y in 0..<image.height {
            for x in 0..<image.width where !keep.contains(x: x, y: y) {
                let v = rng.next()
                out[x, y] = RGBA8(
                    r: UInt8(truncatingIfNeeded: v), g: UInt8(truncatingIfNeeded: v >> 8),
                    b: UInt8(truncatingIfNeeded: v >> 16), a: UInt8(truncatingIfNeeded: v >> 24))
            }
        }
        return out
    }

    private static func clamp(_ v: Int) -> UInt8 { UInt8(min(max(v, 0), 255)) }
}

/// A random frame geometry over an image, for sweeps: any scale from strong shrink to enlargement,
/// image frames inside, across and beyond the frame, at level 0 or a coarser level.
struct RandomFrame {
    var geometry: FrameGeometry
    var level: ImageBuffer

    init(rng: inout SplitMix64, alpha: Bool = false, maxImage: Int = 120) {
        let image = PixelSize(width: rng.int(1...maxImage), height: rng.int(1...maxImage))
        let frame = PixelSize(width: rng.int(1...48), height: rng.int(1...48))
        let scale = Double.random(in: -2.5...2, using: &rng)
        let s = scale < 0 ? 1 / (1 - scale * 2) : 1 + scale
        let levelDivisor = rng.chance(0.5) ? 1 : [2, 4, 8][rng.int(0...2)]
        let levelSize = PixelSize(
            width: (image.width + levelDivisor - 1) / levelDivisor,
            height: (image.height + levelDivisor - 1) / levelDivisor)
        let w = Double(image.width) * s
        let h = Double(image.height) * s
        let origin = Point(
            x: Double.random(in: (-w - 4)...(Double(frame.width) + 4), using: &rng),
            y: Double.random(in: (-h - 4)...(Double(frame.height) + 4), using: &rng))
        geometry = FrameGeometry(
            frameSize: frame, zoomScale: s, imageFrameOrigin: origin, imageSize: image, levelSize: levelSize)
        level = TestImages.noise(width: levelSize.width, height: levelSize.height, seed: rng.next(), alpha: alpha)
    }
}

/// Where two buffers first differ, in words, or nil when they are equal (keeps failure messages short).
func firstDifference(_ a: ImageBuffer, _ b: ImageBuffer) -> String? {
    guard a.size == b.size else { return "sizes \(a.size) and \(b.size)" }
    var count = 0
    var first: String?
    for y in 0..<a.height {
        for x in 0..<a.width where a[x, y] != b[x, y] {
            count += 1
            if first == nil { first = "(\(x), \(y)): \(a[x, y]) vs \(b[x, y])" }
        }
    }
    return first.map { "\(count) pixels differ, first at \($0)" }
}
