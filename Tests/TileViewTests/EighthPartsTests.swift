import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewImage
import TileViewSystem
import TileViewTestSupport

/// An image the server's shared cache holds reads a JPEG's whole 1/8 level in parts at once (a viewer's first view
/// waits on that pass), with the bytes of the one-pass read, and its memory plans count what the parts hold.
@Suite("A served JPEG's 1/8 pass in parts")
struct EighthPartsTests {
    /// A 2400 x 1800 JPEG of ramps and noise (about 1 MB at quality 90) in a temporary folder.
    static func photo() throws -> (path: String, folder: URL) {
        var generator = SplitMix64(seed: 0xE16)
        let size = PixelSize(width: 2400, height: 1800)
        var pixels = [UInt8](repeating: 255, count: size.pixelCount * 4)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let i = (y * size.width + x) * 4
                pixels[i] = UInt8(x * 255 / size.width)
                pixels[i + 1] = UInt8.random(in: 0...255, using: &generator)
                pixels[i + 2] = UInt8(y * 255 / size.height)
            }
        }
        let jpeg = try JPEGEncoder.encode(ImageBuffer(width: size.width, height: size.height, pixels: pixels))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("eighth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("photo.jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
        return (path, folder)
    }

    @Test("the shared image's 1/8 level comes from parts, the same bytes; its plan counts them, the command's does not")
    func servedImage() throws {
        let (path, folder) = try Self.photo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = SharedTileCache(budgetBytes: 64 << 20, tileSize: 256)
        let served = try TiledImage(
            path: path, tileSize: 256, cacheBudgetBytes: 0,
            sharedTiles: TiledImage.SharedTiles(cache: cache, image: "photo.jpg"))
        let own = try TiledImage(path: path, tileSize: 256)
        let level = 3
        let size = served.pyramid.levelSize(ofLevel: level)
        #expect(size == PixelSize(width: 300, height: 225))

        let parted = try served.levelReader(PixelRect(size: size), level: level)
        let (fromParts, _) = try parted.readAll()
        #expect(parted.decodedByParts == (DecodeParts.threads.count > 1))
        let single = try own.levelReader(PixelRect(size: size), level: level)
        let (fromOnePass, _) = try single.readAll()
        #expect(!single.decodedByParts)
        #expect(fromParts == fromOnePass)
        // A band of rows is read in one pass: libjpeg stops after the band's last row.
        let band = try served.levelReader(PixelRect(x: 0, y: 0, width: size.width, height: 64), level: level)
        _ = try band.readAll()
        #expect(!band.decodedByParts)

        let whole = PixelRect(size: served.pyramid.levelSize(ofLevel: 0))
        let parts = served.plan(region: whole, size: size).memory.parts.filter { $0.what == "1/8 decode in parts" }
        #expect(parts.count == 1)
        // The file, 3/8 of a byte a stored pixel, the rows: more than the file and the rows alone.
        let fileBytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        #expect((parts.first?.bytes ?? 0) > fileBytes + size.pixelCount * 4)
        #expect(!own.plan(region: whole, size: size).memory.parts.contains { $0.what == "1/8 decode in parts" })
    }

    @Test("every part of a photo falls into step; a decode that would hold more than the bound is left to one pass")
    func overTheBound() throws {
        let (path, folder) = try Self.photo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ImageSource.file(path: path)
        let serial = DecodeParts.serial(count: 4, minimumBytes: 1)
        var bounded = serial
        bounded.maximumBytes = 1 << 20  // less than the file alone
        for (parts, expected) in [(serial, 4), (bounded, 0)] {
            let reader = try JPEGScanlineReader(source)
            try reader.start(scaleNumerator: 1, parts: parts)
            // Every part started mid-stream fell into step with the one before (else it would be decoded twice).
            #expect(reader.partsJoined == expected)
        }
    }

    @Test("tileview index's image keeps the entropy index its 1/8 pass made: the index's own pass, byte for byte")
    func keptEntropyIndex() throws {
        let (path, folder) = try Self.photo()
        defer { try? FileManager.default.removeItem(at: folder) }
        let own = try JPEGEntropyIndex(.file(path: path)).saved()
        var levels: [[(level: Int, pixels: ImageBuffer)]] = []
        for keeps in [false, true] {
            let image = try TiledImage(path: path, tileSize: 256, cacheBudgetBytes: 0)
            image.decodesInParts = true
            image.keepsEntropyIndex = keeps
            levels.append(try image.decodeCoarseLevels())
            // On one processor there are no parts, and no index is made on the way (the indexers make their own).
            let kept = image.keptEntropyIndex
            let expected = keeps && DecodeParts.threads.count > 1 ? own : nil
            #expect(kept == expected, "keeps \(keeps): \(kept?.count ?? 0) bytes, the pass \(own.count)")
        }
        let same =
            levels[0].map(\.level) == levels[1].map(\.level)
            && zip(levels[0], levels[1]).allSatisfy { $0.pixels == $1.pixels }
        #expect(same, "keeping the index changed the levels")
    }
}
