import Foundation
import Testing
import TileViewCodecs
import TileViewTestSupport

/// `tileview feed` end to end: frames, the JSON of docs/design.md section 9, residency, exit codes.
@Suite("tileview feed")
struct FeedCommandTests {
    static var rocket: String { Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path }

    /// The parts of the JSON the tests read.
    struct Output: Decodable {
        struct Frame: Decodable {
            struct Section: Decodable {
                struct Rect: Decodable, Equatable {
                    var x, y, width, height: Int
                }
                var index, contentOffset: Int
                var frame: Rect
            }
            var offset, requestedOffset, residentCells, residentBytes: Int
            var frame: String
            var sections: [Section]
        }
        struct Summary: Decodable {
            var contentHeight, maxResidentCells, peakResidentBytes, peakRSSBytes, residentCellBound, frames: Int
        }
        var frames: [Frame]
        var summary: Summary
    }

    static func run(_ arguments: [String], in dir: URL) throws -> (CommandRunner.Result, Output?) {
        let result = try CommandRunner.run(["feed"] + arguments, in: dir)
        let output = try? JSONDecoder().decode(Output.self, from: Data(result.stdout.utf8))
        return (result, output)
    }

    @Test("one frame per offset; each record follows the layout laws; the summary has the design's keys")
    func framesAndRecords() throws {
        try TemporaryFolder.with("feed-cli") { dir in
            // header [0, 60), 300 cells in 75 rows of 50 px [60, 3810), the 640x427 photo 133 rows [3810, 3943).
            let (result, parsed) = try Self.run(
                [
                    "header:60:1E90FF", "grid:\(FeedCommandFolder.images.path):4", "image:\(Self.rocket)", "--viewport",
                    "200x300", "--offsets", "0:3900:650", "-o", "out", "--json",
                ], in: dir)
            #expect(result.status == 0, "\(result)")
            let output = try #require(parsed, "the JSON parses: \(result.stdout.prefix(300))")
            let tops = [0, 60, 3810]
            let heights = [60, 3750, 133]
            let h = 300
            #expect(output.summary.contentHeight == 3943)
            #expect(output.frames.map(\.requestedOffset) == [0, 650, 1300, 1950, 2600, 3250, 3900])
            for (index, frame) in output.frames.enumerated() {
                let y = min(frame.requestedOffset, 3943 - h)
                #expect(frame.offset == y)
                #expect(
                    frame.frame == String(format: "out/frame-%04d.png", index), "OUTDIR as given joined with the name")
                var covered = 0
                for section in frame.sections {
                    let top = tops[section.index]
                    let visible = max(0, min(top + heights[section.index], y + h) - max(top, y))
                    #expect(section.frame.height == visible, "offset \(y) section \(section.index)")
                    #expect(section.frame.y == min(max(top - y, 0), h), "offset \(y) section \(section.index)")
                    #expect(section.frame.x == 0 && section.frame.width == 200)
                    #expect(section.contentOffset == max(0, y - top), "offset \(y) section \(section.index)")
                    covered += visible
                }
                #expect(covered == h, "the visible frames fill the viewport")
                #expect(frame.residentCells <= output.summary.residentCellBound)
                #expect(
                    frame.residentBytes >= frame.residentCells * 50 * 50 * 4, "every resident cell holds 50x50 RGBA")
                let png = try PNGDecoder.decode(.file(path: dir.appendingPathComponent(frame.frame).path))
                    .image
                #expect(png.width == 200 && png.height == 300)
            }
            // Two screens (600 rows) of 50-pixel rows meet at most 13 rows of 4 cells.
            #expect(output.summary.residentCellBound <= 52)
            #expect(output.summary.maxResidentCells == output.frames.map(\.residentCells).max())
            #expect(output.summary.peakResidentBytes == output.frames.map(\.residentBytes).max())
            #expect(output.summary.peakRSSBytes > 0)
            #expect(output.summary.frames == 7)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path)
            #expect(
                names.sorted() == [".tileview-journal"] + (0..<7).map { String(format: "frame-%04d.png", $0) },
                "frames and the journal only, no temporary file")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let summary = try #require(object["summary"] as? [String: Any])
            for key in ["contentHeight", "maxResidentCells", "peakResidentBytes", "peakRSSBytes"] {
                #expect(summary[key] is Int, "summary.\(key)")
            }
            let first = try #require((object["frames"] as? [[String: Any]])?.first)
            for key in ["offset", "frame", "sections", "residentCells", "residentBytes"] {
                #expect(first[key] != nil, "frames[0].\(key)")
            }
        }
    }

    @Test("a 900-cell grid holds no more cells than a 300-cell one, and neither more than two screens of cells")
    func residencyDoesNotGrowWithTheGrid() throws {
        try TemporaryFolder.with("feed-cli-long") { dir in
            var peaks: [Int] = []
            for (count, offsets) in [(300, "0:3500:700"), (900, "0:11000:2200")] {
                let grid = try FeedCommandFolder.links(count: count)
                let (result, parsed) = try Self.run(
                    [
                        "grid:\(grid.path):4", "--viewport", "200x300", "--offsets", offsets, "-o", "out\(count)",
                        "--json",
                    ],
                    in: dir)
                #expect(result.status == 0, "\(result)")
                let output = try #require(parsed)
                #expect(output.summary.contentHeight == count / 4 * 50)
                #expect(output.summary.maxResidentCells <= 52, "\(count) cells: two screens at most")
                #expect(output.summary.residentCellBound == 52)
                peaks.append(output.summary.maxResidentCells)
            }
            #expect(peaks[1] <= peaks[0] + 4, "a longer grid holds the same number of cells (within one row)")
        }
    }

    @Test("the same feed gives the same frame bytes whether frames are written on the rendering thread or beside it")
    func sameBytesWhateverTheThreads() throws {
        try TemporaryFolder.with("feed-cli-threads") { dir in
            for threads in ["0", "3"] {
                let result = try CommandRunner.run(
                    [
                        "feed", "header:30:FF8000", "grid:\(FeedCommandFolder.images.path):3", "image:\(Self.rocket)",
                        "--viewport", "150x200", "--offsets", "0:5000:1000", "-o", "out\(threads)", "--write-threads",
                        threads,
                    ], in: dir)
                #expect(result.status == 0, "\(result)")
            }
            for index in 0..<6 {
                let name = String(format: "frame-%04d.png", index)
                let a = try Data(contentsOf: dir.appendingPathComponent("out0/" + name))
                let b = try Data(contentsOf: dir.appendingPathComponent("out3/" + name))
                #expect(a == b, "\(name)")
            }
        }
    }

    @Test("FROM above TO scrolls up: offsets fall by STEP")
    func scrollsUp() throws {
        try TemporaryFolder.with("feed-cli-up") { dir in
            let (result, parsed) = try Self.run(
                [
                    "grid:\(FeedCommandFolder.images.path):4", "--viewport", "200x200", "--offsets", "3000:0:1000",
                    "-o",
                    "out", "--json",
                ], in: dir)
            #expect(result.status == 0, "\(result)")
            let output = try #require(parsed)
            #expect(output.frames.map(\.offset) == [3000, 2000, 1000, 0])
        }
    }

    @Test(
        "usage errors exit 64 before anything is written",
        arguments: [
            [] as [String], ["grid:/tmp"], ["header:0"], ["photo:x.jpg"], ["header:10", "--offsets", "0:10"],
            ["header:10", "--offsets", "0:10:0"], ["header:10", "--viewport", "0x10"],
            ["header:10", "--compression", "12"], ["header:10", "--offsets", "0:100000000:1"],
        ])
    func usageErrors(arguments: [String]) throws {
        try TemporaryFolder.with("feed-cli-usage") { dir in
            let result = try CommandRunner.run(["feed"] + arguments + ["-o", "out"], in: dir)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        }
    }

    @Test("a missing folder or image exits 1 naming it, before the output folder is made")
    func missingFiles() throws {
        try TemporaryFolder.with("feed-cli-missing") { dir in
            for section in ["grid:/nonexistent-grid-folder:3", "image:/nonexistent-photo.jpg"] {
                let result = try CommandRunner.run(["feed", "header:10", section, "-o", "out"], in: dir)
                #expect(result.status == 1, "\(section): \(result)")
                #expect(
                    result.stderr.contains(section.split(separator: ":")[1]), "the message names the path: \(result)")
                #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
            }
            try Data("a file".utf8).write(to: dir.appendingPathComponent("taken"))
            let result = try CommandRunner.run(["feed", "header:10", "-o", "taken"], in: dir)
            #expect(result.status == 1, "an output path that is a file: \(result)")
            #expect(result.stderr.contains("taken"))
        }
    }

    @Test("a grid image that cannot be decoded: exit 1 naming it; --lenient renders with a warning")
    func damagedGridImage() throws {
        try TemporaryFolder.with("feed-cli-damaged") { dir in
            let grid = dir.appendingPathComponent("grid")
            try FileManager.default.createDirectory(at: grid, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.rocket, toPath: grid.appendingPathComponent("a1.jpg").path)
            try FileManager.default.copyItem(
                at: Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg"),
                to: grid.appendingPathComponent("a2.jpg"))
            let strict = try CommandRunner.run(["feed", "grid:grid:2", "--viewport", "100x100", "-o", "out"], in: dir)
            #expect(strict.status == 1, "\(strict)")
            #expect(strict.stderr.contains("grid/a2.jpg"))
            let lenient = try CommandRunner.run(
                ["feed", "grid:grid:2", "--viewport", "100x100", "-o", "out", "--lenient"], in: dir)
            #expect(lenient.status == 0, "\(lenient)")
            #expect(lenient.stderr.contains("warning") && lenient.stderr.contains("a2.jpg"), "\(lenient)")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/frame-0000.png").path))
        }
    }
}
