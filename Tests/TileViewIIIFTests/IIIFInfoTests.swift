import Foundation
import Testing
import TileViewCore
import TileViewIIIF
import TileViewTestSupport

@Suite struct IIIFInfoTests {
    static func json(_ info: IIIFInfo) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(info), as: UTF8.self) + "\n"
    }

    @Test func golden6000x4000() throws {
        let info = IIIFInfo(
            id: "http://127.0.0.1:8080/iiif/3/albums%2Fbeach.jpg", imageSize: PixelSize(width: 6000, height: 4000))
        try Golden.assertText(try Self.json(info), "iiif/info-6000x4000.json")
    }

    @Test func sizesAndTiles() {
        let info = IIIFInfo(id: "x", imageSize: PixelSize(width: 6000, height: 4000))
        #expect(
            info.sizes.map { PixelSize(width: $0.width, height: $0.height) } == [
                PixelSize(width: 188, height: 125), PixelSize(width: 375, height: 250),
                PixelSize(width: 750, height: 500), PixelSize(width: 1500, height: 1000),
                PixelSize(width: 3000, height: 2000),
            ])
        #expect(info.tiles == [IIIFInfo.TileEntry(width: 256, scaleFactors: [1, 2, 4, 8, 16, 32])])
        let small = IIIFInfo(id: "x", imageSize: PixelSize(width: 200, height: 100))
        #expect(small.sizes == [IIIFInfo.SizeEntry(width: 200, height: 100)])
        #expect(small.tiles[0].scaleFactors == [1])
    }

    @Test func limitKeys() throws {
        let onlyArea = try Self.json(IIIFInfo(id: "x", imageSize: PixelSize(width: 10, height: 10)))
        #expect(onlyArea.contains("\"maxArea\" : 16777216") && !onlyArea.contains("maxWidth"))
        let widthAndHeight = try Self.json(
            IIIFInfo(
                id: "x", imageSize: PixelSize(width: 10, height: 10),
                limits: IIIFLimits(maxArea: nil, maxWidth: 300, maxHeight: 200)))
        #expect(widthAndHeight.contains("\"maxWidth\" : 300") && widthAndHeight.contains("\"maxHeight\" : 200"))
        #expect(!widthAndHeight.contains("maxArea"))
    }

    /// Every listed size and every tile request implied by the tiles is a request the service answers.
    @Test func listedSizesAndTilesResolve() throws {
        try forEachSeed(1...200) { seed, rng in
            let image = PixelSize(width: rng.int(1...20000), height: rng.int(1...20000))
            let limits = IIIFLimits(maxArea: rng.int(65536...30_000_000))
            let info = IIIFInfo(id: "x", imageSize: image, limits: limits)
            for size in info.sizes {
                let resolved = try resolve("full/\(size.width),\(size.height)/0/default.jpg", image, limits).get()
                #expect(resolved.scaledSize == PixelSize(width: size.width, height: size.height), "seed \(seed)")
            }
            #expect(info.sizes == info.sizes.sorted { $0.width < $1.width }, "seed \(seed)")
            let tile = info.tiles[0]
            let factor = rng.pick(tile.scaleFactors)
            let span = tile.width * factor
            let columns = (image.width + span - 1) / span
            let rows = (image.height + span - 1) / span
            let (column, row) = (rng.int(below: columns), rng.int(below: rows))
            let region = PixelRect(
                x: column * span, y: row * span, width: min(span, image.width - column * span),
                height: min(span, image.height - row * span))
            let w = (region.width + factor - 1) / factor
            let h = (region.height + factor - 1) / factor
            let path = "\(region.x),\(region.y),\(region.width),\(region.height)/\(w),\(h)/0/default.jpg"
            #expect((try? resolve(path, image, limits).get())?.scaledSize == PixelSize(width: w, height: h), "\(path)")
        }
    }
}
