import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// `tileview zoom` end to end: the documented example, the JSON contract, frames, errors, goldens.
@Suite("tileview zoom")
struct ZoomCommandTests {
    /// A PNG that has only a header (no pixel data): enough for `--json` without `-o`, which reads
    /// only the header. CRCs are computed so any PNG reader accepts the chunks.
    static func headerOnlyPNG(width: UInt32, height: UInt32, at url: URL) throws {
        func be(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)]
        }
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xffff_ffff
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 != 0 ? 0xedb8_8320 ^ (c >> 1) : c >> 1 }
            }
            return ~c
        }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc(body))
        }
        let ihdr = be(width) + be(height) + [8, 2, 0, 0, 0]
        let png: [UInt8] =
            [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", ihdr) + chunk("IDAT", [])
            + chunk("IEND", [])
        try Data(png).write(to: url)
    }

    @Test("the worked example of docs/design.md section 3 comes out of --json, reading only the header")
    func workedExample() throws {
        try TemporaryFolder.with("zoom") { dir in
            let photo = dir.appendingPathComponent("photo.png")
            try Self.headerOnlyPNG(width: 6000, height: 4000, at: photo)
            let result = try CommandRunner.run(["zoom", photo.path, "--tap", "120,80", "--json"], in: dir)
            #expect(result.status == 0, "\(result)")
            let state = try JSONDecoder().decode(ZoomSnapshot.self, from: Data(result.stdout.utf8))
            let golden = try JSONDecoder().decode(
                ZoomSnapshot.self,
                from: Data(contentsOf: Golden.url("zoom/worked-example.json")))
            #expect(state == golden)
            let extra = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(extra?["tilesDecoded"] as? Int == 0, "nothing is decoded for --json without -o")
            #expect(extra?["level"] as? Int == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["photo.png"], "no frame written")
        }
    }

    @Test("`tileview zoom photo.jpg --tap 120,80` works as written: 1024x768 frame in NAME.zoom.png, path printed")
    func documentedExample() throws {
        try TemporaryFolder.with("zoom") { dir in
            let photo = dir.appendingPathComponent("photo.jpg")
            try FileManager.default.copyItem(at: Fixtures.sampleImages.appendingPathComponent("retina.jpg"), to: photo)
            let result = try CommandRunner.run(["zoom", "photo.jpg", "--tap", "120,80"], in: dir)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "photo.zoom.png\n")
            let frame = try ImageDecoder.decode(.file(path: dir.appendingPathComponent("photo.zoom.png").path))
            #expect(frame.image.size == PixelSize(width: 1024, height: 768))
            #expect(frame.header.colorType == "rgb", "an opaque frame is written as RGB")
        }
    }

    @Test("taps and gestures apply in command-line order")
    func gestureOrder() throws {
        let photo = Fixtures.sampleImages.appendingPathComponent("coffee.png").path
        let a = try CommandRunner.run([
            "zoom", photo, "--viewport", "300x200", "--json",
            "--gesture", "pinch 1.5 10,10", "--tap", "250,150", "--gesture", "pan 30,-20",
        ])
        let b = try CommandRunner.run([
            "zoom", photo, "--viewport", "300x200", "--json",
            "--tap", "250,150", "--gesture", "pinch 1.5 10,10", "--gesture", "pan 30,-20",
        ])
        #expect(a.status == 0 && b.status == 0)
        var expectedA = ZoomState(imageSize: Size(width: 600, height: 400), viewportSize: Size(width: 300, height: 200))
        var expectedB = expectedA
        for text in ["pinch 1.5 10,10", "double-tap 250,150", "pan 30,-20"] {
            expectedA.apply(try ZoomGesture(parsing: text))
        }
        for text in ["double-tap 250,150", "pinch 1.5 10,10", "pan 30,-20"] {
            expectedB.apply(try ZoomGesture(parsing: text))
        }
        #expect(try JSONDecoder().decode(ZoomSnapshot.self, from: Data(a.stdout.utf8)) == expectedA.snapshot)
        #expect(try JSONDecoder().decode(ZoomSnapshot.self, from: Data(b.stdout.utf8)) == expectedB.snapshot)
        #expect(expectedA.snapshot != expectedB.snapshot, "the two orders must differ for this test to mean anything")
    }

    @Test("--frames writes the view before and after every gesture; the last one is the -o frame")
    func framesFolder() throws {
        try TemporaryFolder.with("zoom") { dir in
            let photo = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
            let frames = dir.appendingPathComponent("frames")
            let out = dir.appendingPathComponent("out.png")
            let result = try CommandRunner.run([
                "zoom", photo, "--viewport", "160x120", "--tap", "80,60", "--gesture", "pan 40,0", "--gesture",
                "two-finger-tap", "--frames", frames.path, "-o", out.path,
            ])
            #expect(result.status == 0, "\(result)")
            let names = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
            #expect(
                names == [".tileview-journal", "frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png"])
            let last = try ImageDecoder.decode(.file(path: frames.appendingPathComponent("frame-0003.png").path)).image
            let final = try ImageDecoder.decode(.file(path: out.path)).image
            #expect(last == final)
            let first = try ImageDecoder.decode(.file(path: frames.appendingPathComponent("frame-0000.png").path)).image
            let second = try ImageDecoder.decode(.file(path: frames.appendingPathComponent("frame-0001.png").path))
                .image
            #expect(first.size == PixelSize(width: 160, height: 120))
            #expect(first != second, "a double tap changes the view")
        }
    }

    @Test(
        "usage errors exit 64 before anything is read",
        arguments: [
            ["--viewport", "0x100"], ["--viewport", "100"], ["--gesture", "spin 3"], ["--tap", "1,2,3"],
            ["--max-scale", "-1"], ["--background", "red"], ["--gesture", "pinch 0 1,1"],
        ])
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(["zoom", "does-not-matter.jpg"] + arguments)
        #expect(result.status == 64, "\(arguments): \(result)")
    }

    @Test(
        "every corpus file zooms (valid) or fails with exit 1 and no frame (invalid)", arguments: CorpusManifest.records
    )
    func zoomCorpusFile(record: CorpusRecord) throws {
        try TemporaryFolder.with("zoom") { dir in
            let out = dir.appendingPathComponent("z.png")
            let result = try CommandRunner.run([
                "zoom", record.url.path, "--viewport", "61x47", "--tap", "20,20", "-o", out.path,
            ])
            if record.isValid {
                #expect(result.status == 0, "\(record.file): \(result)")
                #expect(try ImageDecoder.decode(.file(path: out.path)).image.size == PixelSize(width: 61, height: 47))
            } else {
                #expect(result.status == 1, "\(record.file): \(result)")
                #expect(result.stderr.contains(record.url.path))
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(record.file)")
            }
        }
    }

    @Test("a corrupt file fails with exit 1, names the file and leaves no frame")
    func corruptFile() throws {
        try TemporaryFolder.with("zoom") { dir in
            let bad = Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg").path
            let out = dir.appendingPathComponent("out.png")
            let result = try CommandRunner.run(["zoom", bad, "--viewport", "64x64", "-o", out.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains(bad))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
            let lenient = try CommandRunner.run(["zoom", bad, "--viewport", "64x64", "-o", out.path, "--lenient"])
            #expect(lenient.status == 0, "\(lenient)")
            #expect(lenient.stderr.contains("warning"))
        }
    }

    /// Small frames of real photos after real gestures, compared byte for byte with the goldens in
    /// Tests/Goldens/zoom-frames (RECORD_GOLDENS=1 rewrites them). scripts/check-quality.py measures
    /// the same renderer against a Lanczos reference (PSNR), so a golden change needs that check too.
    static let goldenCases: [(name: String, file: String, arguments: [String])] = [
        ("retina-fit", "SampleImages/retina.jpg", ["--viewport", "160x120"]),
        ("retina-tap", "SampleImages/retina.jpg", ["--viewport", "160x120", "--tap", "40,30"]),
        (
            "rocket-4x", "SampleImages/rocket.jpg",
            ["--viewport", "160x120", "--max-scale", "4", "--gesture", "zoom-to 300,200,20,15"]
        ),
        (
            "coffee-pinch-pan", "SampleImages/coffee.png",
            ["--viewport", "160x120", "--gesture", "pinch 2.5 40,90", "--gesture", "pan -30,15"]
        ),
        ("landscape6-fit", "corpus/jpeg/exif_Landscape_6.jpg", ["--viewport", "160x120"]),
        (
            "alpha-on-magenta", "corpus/png/basi6a08.png",
            ["--viewport", "96x64", "--background", "FF00FF", "--max-scale", "2"]
        ),
        (
            "astronaut-two-finger", "SampleImages/astronaut.png",
            ["--viewport", "120x160", "--tap", "60,40", "--tap", "60,40", "--gesture", "two-finger-tap"]
        ),
    ]

    @Test("golden frames stay byte for byte the same", arguments: goldenCases.map(\.name))
    func goldenFrames(name: String) throws {
        let spec = try #require(Self.goldenCases.first { $0.name == name })
        let input =
            spec.file.hasPrefix("corpus/")
            ? Fixtures.corpusRoot.appendingPathComponent(String(spec.file.dropFirst("corpus/".count))).path
            : Fixtures.packageRoot.appendingPathComponent(spec.file).path
        try TemporaryFolder.with("zoom") { dir in
            let out = dir.appendingPathComponent("\(name).png")
            let result = try CommandRunner.run(["zoom", input, "-o", out.path] + spec.arguments)
            #expect(result.status == 0, "\(result)")
            try Golden.assertImage(try TestPages.pixels(out.path), "zoom-frames/\(name).png") {
                try Data(contentsOf: out)
            }
        }
    }
}
