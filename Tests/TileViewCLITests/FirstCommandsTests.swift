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
        let (listener, port) = try Self.loopbackSocket(listening: true)
        defer { close(listener) }
        let result = try CommandRunner.run(
            ["serve", Fixtures.sampleImages.path, "--port", "\(port)"], timeout: 30)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("port \(port) is in use on 127.0.0.1; choose another with --port"), "\(result)")
        #expect(!result.stderr.contains("serving"), "no false start line: \(result.stderr)")
        #expect(!result.stderr.contains("errno"), "no raw library text: \(result.stderr)")
    }

    @Test("serve --help names every route the server registers")
    func helpListsRoutes() throws {
        // The routes as the server's sources register them (`router.get("/iiif/3/:id/info.json")` ...), each
        // reduced to its fixed part before the first parameter.
        let folder = Fixtures.packageRoot.appendingPathComponent("Sources/TileViewServe")
        var fixed: Set<String> = []
        let pattern = #/router\.(?:get|post|put|delete|patch)\("(/[^"]*)"/#
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
        where url.pathExtension == "swift" {
            for match in try String(contentsOf: url, encoding: .utf8).matches(of: pattern) {
                let path = String(match.1)
                let prefix = path.split(separator: "/:", maxSplits: 1).first.map(String.init) ?? path
                if prefix != "/" { fixed.insert(prefix) }
            }
        }
        #expect(fixed.count >= 12, "\(fixed.sorted())")
        let help = try CommandRunner.run(["serve", "--help"])
        // ArgumentParser wraps the text: words joined again before matching.
        let text = help.stdout.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        for route in fixed.sorted() {
            #expect(text.contains(route), "serve --help does not name \(route)")
        }
    }

    @Test("the man pages have no groff warnings (scripts/make-man.sh makes them)")
    func manPages() throws {
        for name in ["tileview.1", "tileview-serve.1"] {
            let page = Fixtures.packageRoot.appendingPathComponent("docs").appendingPathComponent(name).path
            let (status, output) = try CommandRunner.program("groff", ["-ww", "-man", "-z", page])
            #expect(status == 0 && output.isEmpty, "\(name): \(output)")
        }
    }

    /// A TCP socket bound to a free loopback port (listening when `listening`), and the port.
    static func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && (!listening || listen(fd, 1) == 0)
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        if !bound { close(fd) }
        try #require(bound)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A free loopback port (bound, read and released: another process could take it meanwhile, which only costs a
    /// retry of the test).
    static func freePort() throws -> Int {
        let (fd, port) = try loopbackSocket(listening: false)
        close(fd)
        return port
    }

    /// Whether something accepts connections on loopback `port`.
    static func listening(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    @Test("serve says when it stops: one line when SIGTERM begins the drain, one when it has stopped; exit 0")
    func stopLines() throws {
        let port = try Self.freePort()
        let result = try CommandRunner.run(
            ["serve", Fixtures.sampleImages.path, "--port", "\(port)"], timeout: 60,
            signalWhen: ([SIGTERM], { Self.listening(port) }))
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("tileview: serving ") == true, "\(result.stderr)")
        #expect(
            lines.contains("tileview: stopping: no new connections; answers in flight get up to 30 s to finish"),
            "\(result.stderr)")
        #expect(lines.last == "tileview: stopped", "\(result.stderr)")
    }
}
