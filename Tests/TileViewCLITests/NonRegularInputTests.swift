import Foundation
import Testing
import TileViewTestSupport

/// Inputs that are not regular files (a FIFO, a device, a folder) are refused with "not a regular file" before
/// they are opened for reading: no command may wait forever for a writer that never comes.
@Suite("Inputs that are not regular files")
struct NonRegularInputTests {
    /// Runs `arguments` with `{fifo}` replaced by a FIFO nobody writes to (10 s at most: a hang is a failure).
    static func runWithFIFO(_ arguments: [String]) throws -> CommandRunner.Result {
        try TemporaryFolder.with("fifo") { dir in
            let fifo = dir.appendingPathComponent("pipe.jpg").path
            #expect(mkfifo(fifo, 0o644) == 0)
            let out = dir.appendingPathComponent("out").path
            let args = arguments.map {
                $0.replacingOccurrences(of: "{fifo}", with: fifo).replacingOccurrences(of: "{out}", with: out)
            }
            let result = try CommandRunner.run(args, in: dir, timeout: 10)
            #expect(!FileManager.default.fileExists(atPath: out + "/frame-0000.png"), "nothing written")
            return result
        }
    }

    @Test(
        "a FIFO as the input of every command: exit 1 naming the file and the reason, no hang",
        arguments: [
            ["info", "{fifo}"], ["info", "--json", "{fifo}"], ["decode", "{fifo}", "-o", "{out}/d.png"],
            ["zoom", "{fifo}", "-o", "{out}/z.png"], ["zoom", "{fifo}", "--json", "-o", "{out}/z.png"],
            ["gallery", "{fifo}", "-o", "{out}"], ["gallery", "--map", "{fifo}", "-o", "{out}"],
            [
                "gallery", "--script", "{fifo}", Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path, "-o",
                "{out}",
            ],
            ["feed", "image:{fifo}", "-o", "{out}"],
        ])
    func fifo(_ arguments: [String]) throws {
        let result = try Self.runWithFIFO(arguments)
        #expect(result.status == 1, "\(arguments): \(result)")
        #expect(result.stderr.contains("pipe.jpg") && result.stderr.contains("not a regular file"), "\(result)")
    }

    @Test("a device and a folder as the image: refused the same way")
    func deviceAndFolder() throws {
        let device = try CommandRunner.run(["info", "/dev/zero"], timeout: 10)
        #expect(
            device.status == 1 && device.stderr.contains("/dev/zero:") && device.stderr.contains("not a regular file"),
            "\(device)")
        let folder = try CommandRunner.run(["zoom", Fixtures.sampleImages.path, "-o", "/tmp/never.png"], timeout: 10)
        #expect(folder.status != 0 && !folder.stderr.isEmpty, "\(folder)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.png"))
    }
}
