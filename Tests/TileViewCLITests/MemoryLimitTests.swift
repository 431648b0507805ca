import Foundation
import Testing
import TileViewTestSupport

/// Runs too large for the memory they may use are refused from sizes alone, before anything large is allocated:
/// exit 1, a message saying what was needed and what would fit, no output, never an abort on allocation.
@Suite("Memory limits: refusals before allocating")
struct MemoryLimitTests {
    static let photo = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path

    @Test(
        "an enormous viewport is refused under --max-memory with what fits, for every command that draws frames",
        arguments: [
            ["zoom", photo, "-o", "out.png"],
            ["zoom", photo, "--frames", "frames", "-o", "out.png"],
            ["zoom", photo, photo.replacingOccurrences(of: "rocket", with: "retina"), "-o", "batch"],
            ["gallery", photo, "-o", "out"],
            ["feed", "image:\(photo)", "--offsets", "0:10:10", "-o", "out"],
        ])
    func viewportRefused(arguments: [String]) throws {
        try TemporaryFolder.with("memory") { dir in
            let result = try CommandRunner.run(
                arguments + ["--viewport", "16384x16384", "--max-memory", "200"], in: dir)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("tileview: --viewport 16384x16384: "), "\(result.stderr)")
            #expect(result.stderr.contains("over the memory limit of 200 MiB"), "\(result.stderr)")
            #expect(result.stderr.contains("a viewport up to "), "\(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"))
            let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            #expect(left.isEmpty, "nothing written: \(left)")
        }
    }

    @Test("the viewport it says fits does fit")
    func suggestedViewportFits() throws {
        try TemporaryFolder.with("memory-fit") { dir in
            let refused = try CommandRunner.run(
                ["zoom", Self.photo, "--viewport", "8000x6000", "--max-memory", "100", "-o", "a.png"], in: dir)
            #expect(refused.status == 1)
            let suggestion = try #require(
                refused.stderr.split(separator: "a viewport up to ").last?.split(separator: " ").first)
            let fits = try CommandRunner.run(
                ["zoom", Self.photo, "--viewport", String(suggestion), "--max-memory", "100", "-o", "b.png"], in: dir)
            #expect(fits.status == 0, "\(suggestion): \(fits)")
        }
    }

    @Test("under ulimit -v a huge viewport is refused with exit 1, not an abort on allocation")
    func addressSpaceLimit() throws {
        try TemporaryFolder.with("memory-ulimit") { dir in
            let tileview = CommandRunner.executable.path
            for command in [
                "zoom '\(Self.photo)' --viewport 16384x16384 -o out.png",
                "gallery '\(Self.photo)' --viewport 16384x16384 -o out",
                "feed 'image:\(Self.photo)' --viewport 16384x16384 --offsets 0:10:10 -o out",
            ] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/bash")
                process.arguments = ["-c", "ulimit -v 1500000 && exec '\(tileview)' \(command)"]
                process.currentDirectoryURL = dir
                let err = Pipe()
                process.standardError = err
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 1, "\(command): \(message)")
                #expect(message.contains("over the memory limit"), "\(command): \(message)")
                #expect(!message.contains("Fatal error"), "\(command): \(message)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    @Test("a 908-byte TIFF whose strip would take gigabytes is refused before its strip is allocated")
    func hugeStripRefused() throws {
        try TemporaryFolder.with("memory-strip") { dir in
            let tiff = Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/tiff-26881-samples-a-pixel.tif")
            let result = try CommandRunner.run(
                ["zoom", tiff.path, "--viewport", "256x256", "-o", "out.png", "--max-memory", "256"], in: dir)
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr.contains("tileview: \(tiff.path): decoding it needs ")
                    && result.stderr.contains("a strip or a row of tiles"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
        }
    }

    @Test("decode refuses an image whose whole decoding would not fit, naming the file")
    func decodeRefused() throws {
        try TemporaryFolder.with("memory-decode") { dir in
            let big = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path  // 1411x1411: 7.6 MiB whole
            let refused = try CommandRunner.run(["decode", big, "-o", "out.png", "--max-memory", "10"], in: dir)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("tileview: \(big): decoding 1411x1411 whole needs"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
            let fine = try CommandRunner.run(["decode", big, "-o", "out.png", "--max-memory", "64"], in: dir)
            #expect(fine.status == 0, "\(fine)")
        }
    }

    /// Writes `head`, then a hole to `size` bytes (a sparse file: nothing written to disk but the head).
    static func sparseFile(_ path: String, head: [UInt8], size: Int) throws {
        try Data(head).write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    @Test("a 200 MB WebP of a small image is opened in a small address space: its header is read, not the file")
    func headerReadsAreSmall() throws {
        try TemporaryFolder.with("memory-header") { dir in
            func le(_ value: Int, _ size: Int) -> [UInt8] {
                (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            }
            let junk = 200_000_000
            // A WebP whose image is followed by a 200 MB chunk libwebp does not know.
            let webp = try [UInt8](
                Data(contentsOf: Fixtures.corpusRoot.appendingPathComponent("formats/webp/lossy-q80.webp")))
            let body = Array(webp[12...]) + Array("JUNK".utf8) + le(junk, 4)
            let webpPath = dir.appendingPathComponent("padded.webp").path
            try Self.sparseFile(
                webpPath, head: Array("RIFF".utf8) + le(4 + body.count + junk, 4) + Array("WEBP".utf8) + body,
                size: 12 + body.count + junk)
            // 250 MB of address space: the binary and its libraries take about 100; the file would take 200 more.
            // (A TIFF's large tags are not read either, TIFFPageChainTests; under this limit libtiff's allocation for
            // them fails and it goes on without them, so the limit would not tell.)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [
                "-c", "ulimit -v 250000 && exec '\(CommandRunner.executable.path)' info '\(webpPath)' 2>&1",
            ]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && text.contains("WebP 128x96"), "\(text)")
        }
    }
}
