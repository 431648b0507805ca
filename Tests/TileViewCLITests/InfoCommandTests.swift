import Foundation
import Testing
import TileViewTestSupport

/// `tileview info` end to end.
@Suite("tileview info")
struct InfoCommandTests {
    struct Info: Decodable {
        let file: String
        let format: String?
        let width: Int?
        let height: Int?
        let orientation: Int?
        let orientedWidth: Int?
        let orientedHeight: Int?
        let progressive: Bool?
        let levels: Int?
        let tiles: Int?
        let error: String?
    }

    @Test("--json reports every valid corpus file's size, orientation and format from the header")
    func jsonMatchesManifest() throws {
        let valid = CorpusManifest.records.filter(\.isValid)
        let result = try CommandRunner.run(["info", "--json"] + valid.map(\.url.path))
        #expect(result.status == 0, "\(result.stderr)")
        let infos = try JSONDecoder().decode([Info].self, from: Data(result.stdout.utf8))
        #expect(infos.count == valid.count)
        for (record, info) in zip(valid, infos) {
            #expect(info.file == record.url.path)
            #expect(info.format == record.format, "\(record.file)")
            #expect(info.width == record.width && info.height == record.height, "\(record.file)")
            #expect(info.orientedWidth == record.expectedOrientedWidth, "\(record.file)")
            #expect(info.orientedHeight == record.expectedOrientedHeight, "\(record.file)")
            let orientation = record.exifOrientation.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
            #expect(info.orientation == orientation, "\(record.file)")
        }
    }

    @Test("levels halve down to one 256-pixel tile and the tiles add up")
    func levelsAndTiles() throws {
        let result = try CommandRunner.run([
            "info", "--json", Fixtures.sampleImages.appendingPathComponent("retina.jpg").path,
        ])
        let info = try #require(try JSONDecoder().decode([Info].self, from: Data(result.stdout.utf8)).first)
        // 1411 -> 706 -> 353 -> 177: four levels; tiles 6x6 + 3x3 + 2x2 + 1.
        #expect(info.levels == 4)
        #expect(info.tiles == 36 + 9 + 4 + 1)
    }

    @Test("a bad file among good ones is reported, the others still printed, exit 1")
    func badFileAmongGood() throws {
        let good = Fixtures.sampleImages.appendingPathComponent("coffee.png").path
        let bad = Fixtures.corpusRoot.appendingPathComponent("bad/zero_bytes.jpg").path
        let result = try CommandRunner.run(["info", "--json", good, bad])
        #expect(result.status == 1)
        #expect(result.stderr.contains(bad))
        let infos = try JSONDecoder().decode([Info].self, from: Data(result.stdout.utf8))
        #expect(infos.count == 2)
        #expect(infos[0].width == 600 && infos[0].height == 400)
        #expect(infos[1].error != nil && infos[1].width == nil)
    }

    @Test("the text form is one line per file with the size")
    func textForm() throws {
        let result = try CommandRunner.run(["info", Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("JPEG 640x427"), "\(result.stdout)")
        #expect(result.stdout.split(separator: "\n").count == 1)
    }
}
