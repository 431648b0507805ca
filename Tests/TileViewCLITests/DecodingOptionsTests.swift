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
        let dir = try Fixtures.temporaryDirectory("benign-warnings")
        defer { try? FileManager.default.removeItem(at: dir) }
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

    @Test("a lenient JPEG's warning is not benign: it is printed without --verbose")
    func lenientJPEGWarningStays() throws {
        let dir = try Fixtures.temporaryDirectory("lenient-warning")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.sample))
        let truncated = dir.appendingPathComponent("truncated.jpg")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        let result = try CommandRunner.run([
            "decode", truncated.path, "-o", dir.appendingPathComponent("out.png").path, "--lenient",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("tileview: warning: \(truncated.path): Premature end of JPEG file"), "\(result)")
    }
}
