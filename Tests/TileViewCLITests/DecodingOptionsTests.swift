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
}
