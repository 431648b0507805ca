import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// Where runs put their files and what they say about them, the same for every command (docs/design.md section 9):
/// missing output folders are created, frame records give OUTDIR joined with the name, and a run that wrote
/// frames says so on standard output.
@Suite("Output paths and summaries")
struct OutputPathTests {
    static let photo = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path

    @Test("zoom -o into folders that do not exist yet creates them, as gallery and feed do with -o")
    func zoomCreatesFolders() throws {
        try TemporaryFolder.with("zoom-folders") { dir in
            let result = try CommandRunner.run(
                ["zoom", Self.photo, "--viewport", "64x48", "--tap", "10,10", "-o", "new/dir/x.png"], in: dir)
            #expect(result.status == 0, "\(result)")
            let png = try PNGDecoder.decode(.file(path: dir.appendingPathComponent("new/dir/x.png").path)).image
            #expect(png.size == PixelSize(width: 64, height: 48))
            #expect(result.stdout.isEmpty, "an explicit -o prints nothing")
        }
    }

    @Test("--tap and --gesture keep their command-line order, interleaved")
    func interleavedGestures() throws {
        try TemporaryFolder.with("zoom-order") { dir in
            func state(_ steps: [String]) throws -> String {
                let result = try CommandRunner.run(
                    ["zoom", Self.photo, "--viewport", "64x48", "--json"] + steps, in: dir)
                #expect(result.status == 0, "\(result)")
                return result.stdout
            }
            let mixed = try state(["--tap", "10,10", "--gesture", "pan 20,0", "--tap", "40,30"])
            let spelled = try state([
                "--gesture", "double-tap 10,10", "--gesture", "pan 20,0", "--gesture", "double-tap 40,30",
            ])
            let reordered = try state(["--tap", "10,10", "--tap", "40,30", "--gesture", "pan 20,0"])
            #expect(mixed == spelled)
            #expect(mixed != reordered, "the order of taps and gestures matters and is kept")
        }
    }

    @Test("feed writes OUTDIR-joined frame paths in --json and a summary line without it, like gallery")
    func feedPathsAndSummary() throws {
        try TemporaryFolder.with("feed-summary") { dir in
            let arguments = ["feed", "header:50", "image:\(Self.photo)", "--viewport", "40x60", "--offsets", "0:40:20"]
            let plain = try CommandRunner.run(arguments + ["-o", "plain"], in: dir)
            #expect(plain.status == 0, "\(plain)")
            #expect(plain.stdout == "plain: 3 frames\n")
            let gallery = try CommandRunner.run(
                ["gallery", Self.photo, "--viewport", "40x60", "--moves", "next", "-o", "g"], in: dir)
            #expect(gallery.stdout == "g: 2 frames\n", "the same summary line (the first view and one step)")

            let json = try CommandRunner.run(arguments + ["-o", "j/", "--json"], in: dir)
            #expect(json.status == 0, "\(json)")
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let frames = try #require(object?["frames"] as? [[String: Any]])
            #expect(
                frames.compactMap { $0["frame"] as? String } == [
                    "j/frame-0000.png", "j/frame-0001.png", "j/frame-0002.png",
                ])
            for name in ["frame-0000.png", "frame-0001.png", "frame-0002.png"] {
                #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("j/" + name).path))
            }
        }
    }
}
