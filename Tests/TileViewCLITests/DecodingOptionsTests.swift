import Foundation
import Testing
import TileViewTestSupport

/// The decoding options on every command that reads images, `--viewport`'s message, and which
/// decoder warnings are printed.
@Suite("decoding options, --viewport and warnings")
struct DecodingOptionsTests {
    static let sample = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
    /// A PNG whose iCCP chunk makes libpng warn "known incorrect sRGB profile".
    static let iccpSample = Fixtures.sampleImages.appendingPathComponent("chelsea.png").path
    static let decodingFlags = ["--no-orient", "--lenient", "--max-pixels", "100000000", "--verbose"]

    @Test("every command that reads images accepts --no-orient, --lenient, --max-pixels and --verbose")
    func everyCommandTakesTheDecodingFlags() throws {
        try TemporaryFolder.with("decoding-flags") { dir in
            let pages = dir.appendingPathComponent("pages")
            try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Self.sample, toPath: pages.appendingPathComponent("a.jpg").path)
            let commands: [[String]] = [
                ["info", Self.sample],
                ["decode", Self.sample, "-o", dir.appendingPathComponent("decoded.png").path],
                ["zoom", Self.sample, "--viewport", "64x48", "--tap", "10,10", "--json"],
                [
                    "gallery", Self.sample, "--viewport", "64x48", "--moves", "next", "-o",
                    dir.appendingPathComponent("g").path,
                ],
                [
                    "feed", "image:\(Self.sample)", "--viewport", "64x48", "--offsets", "0:0:1", "-o",
                    dir.appendingPathComponent("f").path,
                ],
                ["bench", "memory", "--dir", pages.path, "--viewport", "64x48", "--steps", "1"],
            ]
            for command in commands {
                let result = try CommandRunner.run(command + Self.decodingFlags, in: dir)
                #expect(result.status == 0, "\(command): \(result)")
            }
        }
    }

    @Test("info --no-orient reports the stored layout, as decode --no-orient writes it")
    func infoNoOrient() throws {
        let file = Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_orient6_45x30.jpg").path
        let oriented = try CommandRunner.run(["info", "--json", file])
        let stored = try CommandRunner.run(["info", "--json", "--no-orient", file])
        #expect(oriented.status == 0 && stored.status == 0, "\(oriented)\n\(stored)")
        func entry(_ text: String) throws -> [String: Any] {
            let array = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
            return try #require(array?.first)
        }
        let before = try entry(oriented.stdout)
        let after = try entry(stored.stdout)
        #expect(before["orientation"] as? Int == 6)
        #expect(before["orientedWidth"] as? Int == 30 && before["orientedHeight"] as? Int == 45)
        #expect(after["orientation"] as? Int == 1)
        #expect(after["width"] as? Int == 45 && after["height"] as? Int == 30)
        #expect(after["orientedWidth"] as? Int == 45 && after["orientedHeight"] as? Int == 30)
        let text = try CommandRunner.run(["info", "--no-orient", file])
        #expect(text.stdout.contains("JPEG 45x30,"), "\(text.stdout)")
        #expect(!text.stdout.contains("shown"), "\(text.stdout)")
    }

    @Test("info --max-pixels reports a file over the limit as an error, exit 1")
    func infoMaxPixels() throws {
        let result = try CommandRunner.run(["info", "--max-pixels", "1000", Self.sample])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("over the limit of 1000"), "\(result.stderr)")
    }

    @Test("a --viewport out of range or malformed names the accepted form and range, exit 64")
    func viewportMessage() throws {
        for (command, value) in [("zoom", "0x600"), ("zoom", "16385x10"), ("zoom", "wide"), ("feed", "10x0")] {
            var arguments = [command]
            arguments += command == "zoom" ? [Self.sample] : ["image:\(Self.sample)", "-o", "unused"]
            let result = try CommandRunner.run(arguments + ["--viewport", value])
            #expect(result.status == 64, "\(result)")
            #expect(
                result.stderr.contains("--viewport must be WxH with each side from 1 to 16384, got \(value)"),
                "\(result.stderr)")
        }
    }

    @Test("libpng's benign iCCP warning is silent by default and printed with --verbose")
    func benignWarnings() throws {
        try TemporaryFolder.with("benign-warnings") { dir in
            let base = ["zoom", Self.iccpSample, "--viewport", "80x60", "-o", dir.appendingPathComponent("z.png").path]
            let quiet = try CommandRunner.run(base)
            #expect(quiet.status == 0, "\(quiet)")
            #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
            let verbose = try CommandRunner.run(base + ["--verbose"])
            #expect(verbose.status == 0, "\(verbose)")
            #expect(verbose.stderr.contains("chelsea.png: iCCP: known incorrect sRGB profile"), "\(verbose.stderr)")
            let decodeQuiet = try CommandRunner.run([
                "decode", Self.iccpSample, "-o", dir.appendingPathComponent("d.png").path,
            ])
            #expect(decodeQuiet.status == 0 && decodeQuiet.stderr.isEmpty, "\(decodeQuiet)")
        }
    }

    @Test("a lenient JPEG's warning is not benign: it is printed without --verbose")
    func lenientJPEGWarningStays() throws {
        try TemporaryFolder.with("lenient-warning") { dir in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
            let truncated = dir.appendingPathComponent("truncated.jpg")
            try bytes.prefix(bytes.count / 2).write(to: truncated)
            let result = try CommandRunner.run([
                "decode", truncated.path, "-o", dir.appendingPathComponent("out.png").path, "--lenient",
            ])
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stderr.contains("tileview: warning: \(truncated.path): Premature end of JPEG file"), "\(result)")
        }
    }
}
