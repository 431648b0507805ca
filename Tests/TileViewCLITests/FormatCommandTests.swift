import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The commands on the formats a phone, the web and an archive hold (docs/design.md section 15), as a user runs them.
@Suite("Commands on every format")
struct FormatCommandTests {
    static func corpus(_ file: String) -> String { FormatCorpus.root.appendingPathComponent(file).path }

    @Test("zoom takes a HEIC with a tap, and writes the frame and its state")
    func zoomHEIC() throws {
        try TemporaryFolder.with("format-zoom") { dir in
            let out = dir.appendingPathComponent("tap.png").path
            let result = try CommandRunner.run([
                "zoom", Self.corpus("heif/irot-6.heic"), "--viewport", "120x80", "--tap", "60,40", "-o", out, "--json",
            ])
            #expect(result.status == 0, "\(result)")
            let frame = try PNGDecoder.decode(.file(path: out)).image
            #expect(frame.size == PixelSize(width: 120, height: 80))
            // irot 6 is applied by libheif: the image is 96x128 upright.
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let image = try #require(json["image"] as? [String: Any])
            #expect(image["width"] as? Int == 96 && image["height"] as? Int == 128, "\(image)")
        }
    }

    @Test("a gallery over a folder of every format pages through all of them")
    func galleryOfFormats() throws {
        try TemporaryFolder.with("format-gallery") { dir in
            let pages = dir.appendingPathComponent("pages")
            try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
            let files = [
                "webp/lossy-q80.webp", "heif/plain.heic", "avif/plain.avif", "tiff/rgb8-tile-jpeg.tif",
                "gif/transparent.gif",
            ]
            for (n, file) in files.enumerated() {
                let name = "page\(n + 1)." + (file as NSString).pathExtension
                try FileManager.default.copyItem(
                    at: FormatCorpus.root.appendingPathComponent(file), to: pages.appendingPathComponent(name))
            }
            let out = dir.appendingPathComponent("frames")
            let result = try CommandRunner.run([
                "gallery", "--dir", pages.path, "--viewport", "160x120", "--moves", "next,next,next,next", "-o",
                out.path,
            ])
            #expect(result.status == 0, "\(result)")
            let frames = try FrameFolder.contents(out).frames
            #expect(frames.count == 5, "\(frames.keys.sorted())")
        }
    }

    @Test("info names the format, the compression, the pages and a pyramid's copies")
    func info() throws {
        let result = try CommandRunner.run([
            "info", Self.corpus("tiff/pyramid-jpeg.tif"), Self.corpus("tiff/multipage-2.tif"),
            Self.corpus("gif/animated-3frames.gif"), Self.corpus("webp/lossless.webp"), Self.corpus("avif/12bit.avif"),
        ])
        #expect(result.status == 0, "\(result)")
        for expected in [
            "TIFF 1200x900", "JPEG", "a pyramid of 3 reduced copies", "2 pages (the first shown)",
            "3 frames (the first shown)", "WebP 128x96", "VP8L", "AVIF 128x96", "12-bit", "AV1",
        ] {
            #expect(result.stdout.contains(expected), "\(expected) in \(result.stdout)")
        }
    }

    @Test("a damaged file exits 1 naming the file and the library's reason, and writes nothing")
    func damaged() throws {
        try TemporaryFolder.with("format-damaged") { dir in
            for (file, words) in [
                ("bad/heic-truncated.heic", ["HEIF"]), ("bad/tiff-flipped.tif", ["TIFF"]),
                ("bad/gif-truncated.gif", ["GIF", "truncated"]), ("bad/webp-truncated.webp", ["WebP"]),
            ] {
                let out = dir.appendingPathComponent("out.png").path
                let result = try CommandRunner.run(["zoom", Self.corpus(file), "--viewport", "64x64", "-o", out])
                #expect(result.status == 1, "\(file): \(result)")
                #expect(result.stderr.contains(Self.corpus(file)), "\(file): \(result.stderr)")
                for word in words { #expect(result.stderr.contains(word), "\(file): \(result.stderr) lacks \(word)") }
                #expect(!FileManager.default.fileExists(atPath: out))
            }
        }
    }

    @Test("a format decoded whole is refused under --max-memory from its header, before any pixel is decoded")
    func memoryLimit() throws {
        try TemporaryFolder.with("format-memory") { dir in
            // A 2500x2000 WebP: decoding it whole holds 20 MB of RGBA beside its file.
            var pixels = [UInt8](repeating: 255, count: 2500 * 2000 * 4)
            for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = UInt8(truncatingIfNeeded: i / 4 % 2500) }
            let webp = dir.appendingPathComponent("large.webp")
            try Data(WebPEncoder.encode(ImageBuffer(width: 2500, height: 2000, pixels: pixels), quality: 50))
                .write(to: webp)
            let out = dir.appendingPathComponent("out.png").path
            let refused = try CommandRunner.run([
                "zoom", webp.path, "--viewport", "64x64", "-o", out, "--max-memory", "12",
            ])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("a WebP image is decoded whole"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--max-memory"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
            let allowed = try CommandRunner.run([
                "zoom", webp.path, "--viewport", "64x64", "-o", out, "--max-memory", "256",
            ])
            #expect(allowed.status == 0, "\(allowed)")
        }
    }

    @Test("a damaged TIFF decodes to the same pixels whatever the memory it is decoded into held before")
    func noStaleMemory() throws {
        // A deflate strip the fuzzer damaged: libtiff leaves part of it unwritten without an error. glibc's
        // MALLOC_PERTURB_ fills new allocations with a byte of its choosing: bytes the decoder never wrote would show.
        let file = Fixtures.packageRoot.appendingPathComponent(
            "Fuzz/reproducers/tiff-damaged-strip-leaves-bytes-unwritten.tif"
        ).path
        try TemporaryFolder.with("format-perturb") { dir in
            var outputs: [Data] = []
            for perturb in ["0", "165", "90"] {
                let out = dir.appendingPathComponent("out-\(perturb).png")
                var environment = ProcessInfo.processInfo.environment
                environment["MALLOC_PERTURB_"] = perturb
                let result = try CommandRunner.run(
                    ["decode", file, "-o", out.path, "--lenient", "--color", "keep"], environment: environment)
                #expect(result.status == 0, "\(result)")
                outputs.append(try Data(contentsOf: out))
            }
            #expect(outputs[0] == outputs[1] && outputs[1] == outputs[2])
        }
    }
}
