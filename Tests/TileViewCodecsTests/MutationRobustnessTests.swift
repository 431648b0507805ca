import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("Damaged input")
struct MutationRobustnessTests {
    static let seeds = [
        "png/basn6a08.png", "png/basi3p04.png", "png/gen_palette4_trns_37x23.png", "png/gen_rgba16_64x48.png",
        "jpeg/mozilla-jpg-size-33x33.jpg", "jpeg/gen_17x9_420.jpg", "jpeg/testimgp.jpg", "jpeg/restarts.jpg",
    ]

    /// `bytes` with seeded damage: flipped bytes, a cut, or inserted bytes.
    static func damaged(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var out = bytes
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                out[Int.random(in: 0..<out.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
        case 1:
            out = Array(out.prefix(Int.random(in: 0..<out.count, using: &generator)))
        default:
            let noise = (0..<Int.random(in: 1...16, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            out.insert(contentsOf: noise, at: Int.random(in: 0...out.count, using: &generator))
        }
        return out
    }

    @Test("damaged files decode or throw a CodecError, in every mode, never crash", arguments: seeds)
    func damagedFiles(file: String) throws {
        let seed = UInt64(truncatingIfNeeded: file.utf8.reduce(0) { $0 &* 31 &+ Int($1) })
        var generator = SplitMix64(seed: seed)
        let original = try Fixtures.bytes(file)
        let limit = 1 << 22  // damaged headers may claim any size
        for round in 0..<150 {
            let bytes = Self.damaged(original, using: &generator)
            let context = "\(file) seed \(seed) round \(round)"
            for options in [DecodeOptions(maxPixels: limit), DecodeOptions(lenient: true, maxPixels: limit)] {
                do {
                    let decoded = try ImageDecoder.decode(.bytes(bytes), options: options)
                    #expect(decoded.image.size == decoded.header.orientedSize, "\(context)")
                } catch {
                    #expect(!error.message.isEmpty, "\(context)")
                }
            }
            if let header = try? ImageHeader.read(from: .bytes(bytes)), header.storedSize.pixelCount <= limit,
                !header.storedSize.isEmpty
            {
                let size = header.storedSize
                let region = PixelRect(x: size.width / 3, y: size.height / 2, width: size.width / 2 + 1, height: 3)
                let options = DecodeOptions(lenient: Bool.random(using: &generator), maxPixels: limit)
                do {
                    let part: DecodedRegion
                    if header.format == .jpeg {
                        part = try JPEGDecoder.decodeRegion(
                            .bytes(bytes), scaleNumerator: 4, region: region, options: options)
                    } else {
                        part = try PNGDecoder.decodeRegion(.bytes(bytes), region: region, options: options)
                    }
                    #expect(part.image.size == part.region.size, "\(context)")
                } catch {
                    #expect(!error.message.isEmpty, "\(context)")
                }
            }
        }
    }
}
