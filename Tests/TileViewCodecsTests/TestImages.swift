import TileViewCore
import TileViewTestSupport

/// Synthetic images and corpus paths shared by the codec tests.
enum TestImages {
    /// A width x height image of seeded random pixels: gray (R = G = B) and/or opaque on request.
    static func random(width: Int, height: Int, gray: Bool = false, opaque: Bool = false, seed: UInt64)
        -> ImageBuffer
    {
        var generator = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        // Smooth ramps plus noise, so that every PNG filter has something to predict.
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let noise = UInt8.random(in: 0...31, using: &generator)
                let r = UInt8(truncatingIfNeeded: x * 3 + y) &+ noise
                pixels[i] = r
                pixels[i + 1] = gray ? r : UInt8(truncatingIfNeeded: y * 5) &+ noise
                pixels[i + 2] = gray ? r : UInt8(truncatingIfNeeded: x * y) ^ noise
                pixels[i + 3] = opaque ? 255 : UInt8.random(in: 0...255, using: &generator)
            }
        }
        return ImageBuffer(width: width, height: height, pixels: pixels)
    }

    /// The path of a corpus file.
    static func corpus(_ file: String) -> String { Fixtures.corpusRoot.appendingPathComponent(file).path }
}

extension Fixtures {
    /// The bytes of a corpus file.
    static func bytes(_ corpusFile: String) throws -> [UInt8] {
        try bytes(corpusRoot.appendingPathComponent(corpusFile))
    }
}

extension ImageBuffer {
    /// Where two buffers differ, in a line (for failure messages that do not print whole images).
    func differenceSummary(from other: ImageBuffer) -> String {
        guard size == other.size else { return "sizes \(size) and \(other.size) differ" }
        var count = 0
        var largest = 0
        var first: (Int, Int)?
        var rows = Set<Int>()
        for i in 0..<pixels.count where pixels[i] != other.pixels[i] {
            count += 1
            largest = max(largest, abs(Int(pixels[i]) - Int(other.pixels[i])))
            let pixel = i / 4
            if first == nil { first = (pixel % width, pixel / width) }
            rows.insert(pixel / width)
        }
        guard let first else { return "identical" }
        return "\(count) samples differ (largest by \(largest)) in rows \(rows.sorted()), first at \(first)"
    }
}
