import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// The first commands a new user types say what happened (issue 34's honest messages): a gesture that changes
/// nothing says so, an output named like another format is refused, `--frames` alone writes only the frames, and a
/// server whose port is taken says so without announcing that it serves.
@Suite("First commands say what they did")
struct FirstCommandsTests {
    static func sample(_ name: String) -> String { Fixtures.sampleImages.appendingPathComponent(name).path }

    @Test("a tap that cannot zoom says so and how to zoom further; a tap that zooms says nothing")
    func noOpTap() throws {
        try TemporaryFolder.with("first-tap") { dir in
            // coffee.png (600x400) fills 1024x768 at 1.707: fit is already the largest scale.
            let small = try CommandRunner.run(
                ["zoom", Self.sample("coffee.png"), "--tap", "120,80", "-o", "a.png"], in: dir)
            #expect(small.status == 0, "\(small)")
            #expect(small.stderr.contains("\"double-tap 120,80\" changes nothing"), "\(small.stderr)")
            #expect(small.stderr.contains("--max-scale 3.413 zooms further"), "\(small.stderr)")
            // Then --max-scale lets the same tap zoom: no note.
            let allowed = try CommandRunner.run(
                ["zoom", Self.sample("coffee.png"), "--tap", "120,80", "--max-scale", "3.413", "-o", "b.png"], in: dir)
            #expect(allowed.status == 0 && !allowed.stderr.contains("changes nothing"), "\(allowed)")
            let a = try ImageDecoder.decode(.file(path: dir.appendingPathComponent("a.png").path))
            let b = try ImageDecoder.decode(.file(path: dir.appendingPathComponent("b.png").path))
            #expect(a.image != b.image, "the note's advice zooms")
            // A large photo zooms at the first tap, silently.
            let large = try CommandRunner.run(
                [
                    "zoom", Self.sample("hubble_deep_field.jpg"), "--viewport", "320x240", "--tap", "120,80", "-o",
                    "c.png",
                ],
                in: dir)
            #expect(large.status == 0 && !large.stderr.contains("changes nothing"), "\(large)")
            // A two-finger tap at fit is at the smallest scale.
            let out = try CommandRunner.run(
                [
                    "zoom", Self.sample("hubble_deep_field.jpg"), "--viewport", "320x240", "--gesture",
                    "two-finger-tap",
                    "-o", "d.png",
                ], in: dir)
            #expect(
                out.stderr.contains("\"two-finger-tap\" changes nothing: the image is already at its minimum"), "\(out)"
            )
        }
    }

    @Test("-o with another image format's name is refused (exit 64) and writes nothing")
    func pngNamesOnly() throws {
        try TemporaryFolder.with("first-names") { dir in
            for arguments in [
                ["zoom", Self.sample("rocket.jpg"), "-o", "view.jpg"],
                ["decode", Self.sample("rocket.jpg"), "-o", "r.JPEG"],
                ["zoom", Self.sample("rocket.jpg"), "-o", "sub/view.webp"],
            ] {
                let result = try CommandRunner.run(arguments, in: dir)
                #expect(result.status == 64, "\(arguments): \(result)")
                #expect(result.stderr.contains("tileview writes PNG files"), "\(result.stderr)")
                #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "\(arguments)")
            }
            // PNG and names that say no image format are written.
            #expect(try CommandRunner.run(["zoom", Self.sample("rocket.jpg"), "-o", "v.PNG"], in: dir).status == 0)
            #expect(
                try CommandRunner.run(["decode", Self.sample("rocket.jpg"), "-o", "frame.out"], in: dir).status == 0)
        }
    }

    @Test("--frames without -o writes the frames only, no NAME.zoom.png beside them")
    func framesOnly() throws {
        try TemporaryFolder.with("first-frames") { dir in
            let result = try CommandRunner.run(
                ["zoom", Self.sample("rocket.jpg"), "--viewport", "160x120", "--tap", "40,30", "--frames", "f"], in: dir
            )
            #expect(result.status == 0, "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["f"])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("f").path).sorted()
                    == [".tileview-journal", "frame-0000.png", "frame-0001.png"])
        }
    }

    @Test("serve on a port in use says so, names --port, exits 1, and never announces that it serves")
    func portInUse() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try CommandRunner.run(
            ["serve", Fixtures.sampleImages.path, "--port", "\(port)"], timeout: 30)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("port \(port) is in use on 127.0.0.1; choose another with --port"), "\(result)")
        #expect(!result.stderr.contains("serving"), "no false start line: \(result.stderr)")
        #expect(!result.stderr.contains("errno"), "no raw library text: \(result.stderr)")
    }
}
