import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// `tileview decode` end to end, over every file of the conformance corpus.
@Suite("tileview decode")
struct DecodeCommandTests {
    @Test(
        "decode writes the reference pixels for valid files and nothing for invalid ones",
        arguments: CorpusManifest.records)
    func decodeCorpusFile(record: CorpusRecord) throws {
        try TemporaryFolder.with("decode") { dir in
            let out = dir.appendingPathComponent("out.png")
            let result = try CommandRunner.run(["decode", record.url.path, "-o", out.path])
            if record.isValid {
                #expect(result.status == 0, "\(record.file): \(result)")
                // Stored values, and the source's colour description carried (docs/design.md section 14).
                let decoded = try ImageDecoder.decode(.file(path: out.path), options: DecodeOptions(color: .keep))
                #expect(decoded.image.width == record.expectedOrientedWidth, "\(record.file)")
                #expect(decoded.image.height == record.expectedOrientedHeight, "\(record.file)")
                #expect(SHA256.hex(decoded.image.pixels) == record.expectedOrientedHash, "\(record.file)")
                #expect(decoded.header.bitDepth == 8, "\(record.file): output must be 8-bit")
                let source = try ImageHeader.read(from: .file(path: record.url.path)).color
                let carried = source.embedding(in: PNGEncodeOptions(), grayOK: decoded.image.isOpaque).iccProfile
                #expect(decoded.header.color.profile == carried, "\(record.file): \(source.name)")
            } else {
                #expect(result.status == 1, "\(record.file): \(result)")
                #expect(result.stderr.contains(record.url.path), "the message names the file: \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            if !record.isValid {
                // Nothing left behind: no output, no temporary file.
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(record.file)")
            }
        }
    }

    @Test("--no-orient keeps the stored layout")
    func noOrientKeepsStoredPixels() throws {
        let record = try #require(CorpusManifest.records.first { ($0.exifOrientation ?? 1) == 6 && $0.isValid })
        try TemporaryFolder.with("decode") { dir in
            let out = dir.appendingPathComponent("stored.png")
            let result = try CommandRunner.run(["decode", record.url.path, "-o", out.path, "--no-orient"])
            #expect(result.status == 0, "\(result)")
            let decoded = try ImageDecoder.decode(.file(path: out.path))
            #expect(SHA256.hex(decoded.image.pixels) == record.sha256Rgba8)
            #expect(decoded.image.width == record.width)
        }
    }

    @Test("--lenient keeps what decoded from a damaged JPEG and warns")
    func lenientWarns() throws {
        let record = try #require(CorpusManifest.records.first { $0.lenientSha256Rgba8 != nil })
        try TemporaryFolder.with("decode") { dir in
            let out = dir.appendingPathComponent("lenient.png")
            let strict = try CommandRunner.run(["decode", record.url.path, "-o", out.path])
            #expect(strict.status == 1)
            let lenient = try CommandRunner.run(["decode", record.url.path, "-o", out.path, "--lenient"])
            #expect(lenient.status == 0, "\(lenient)")
            #expect(lenient.stderr.contains("warning"), "\(lenient)")
            let decoded = try ImageDecoder.decode(.file(path: out.path))
            #expect(SHA256.hex(decoded.image.pixels) == record.lenientSha256Rgba8)
        }
    }

    @Test("--max-pixels refuses a larger image with exit 1 and no output")
    func maxPixelsRefuses() throws {
        try TemporaryFolder.with("decode") { dir in
            let out = dir.appendingPathComponent("big.png")
            let input = Fixtures.sampleImages.appendingPathComponent("coffee.png").path
            let result = try CommandRunner.run(["decode", input, "-o", out.path, "--max-pixels", "1000"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("coffee.png"))
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("an unwritable destination fails with exit 1 and leaves nothing")
    func unwritableDestination() throws {
        let input = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
        let result = try CommandRunner.run(["decode", input, "-o", "/nonexistent-folder/out.png"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("/nonexistent-folder/out.png"))
    }

    @Test("a missing input names the file and exits 1")
    func missingInput() throws {
        try TemporaryFolder.with("decode") { dir in
            let result = try CommandRunner.run([
                "decode", "no-such-file.jpg", "-o", dir.appendingPathComponent("x.png").path,
            ])
            #expect(result.status == 1)
            #expect(result.stderr.contains("no-such-file.jpg"))
        }
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            ["decode"], ["decode", "a.jpg"], ["decode", "a.jpg", "-o", "b.png", "--compression", "12"],
            ["decode", "a.jpg", "-o", "b.png", "--max-pixels", "0"], ["no-such-command"], ["info"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result)")
    }
}
