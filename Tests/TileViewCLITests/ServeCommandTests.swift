import Foundation
import Testing
import TileViewCodecs
import TileViewTestSupport

/// `tileview serve` as a user runs it: a real server on a loopback port, asked with curl, stopped by SIGTERM.
@Suite("tileview serve", .serialized)
struct ServeCommandTests {
    /// `curl -s` of `url`: the status code and the body.
    /// Starts `arguments` (run by `executable`, tileview by default) with `--port` added on a free port, and waits
    /// for its health check; the process (terminate it) and its base URL. Its standard error goes to
    /// `standardError` (nowhere by default).
    static func startServer(
        _ arguments: [String], through executable: URL = CommandRunner.executable,
        standardError: Any = FileHandle.nullDevice
    ) throws -> (Process, String) {
        let port = ServeAccessTests.freePort()
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--port", "\(port)"]
        process.standardError = standardError
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let base = "http://127.0.0.1:\(port)"
        var health = 0
        for _ in 0..<100 where health != 200 {
            health = (try? get(base + "/healthz").status) ?? 0
            if health != 200 { usleep(100_000) }
        }
        return (process, base)
    }

    /// Starts a server as `startServer` does, gives `body` its base URL, then stops it with SIGTERM and waits for it
    /// to exit.
    static func withServer(
        _ arguments: [String], through executable: URL = CommandRunner.executable, _ body: (String) throws -> Void
    ) throws {
        let (process, base) = try startServer(arguments, through: executable)
        defer { if process.isRunning { process.terminate() } }
        try body(base)
        process.terminate()
        process.waitUntilExit()
    }

    /// The text of the server's `/metrics`.
    static func metrics(_ base: String) throws -> String {
        String(decoding: try get(base + "/metrics").body, as: UTF8.self)
    }

    static func get(_ url: String, _ arguments: [String] = []) throws -> (status: Int, body: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "20"] + arguments + [url]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let newline = data.lastIndex(of: UInt8(ascii: "\n")) else { return (0, Data()) }
        return (Int(String(decoding: data[(newline + 1)...], as: UTF8.self)) ?? 0, Data(data[..<newline]))
    }

    @Test("serves healthz, info.json and an image on a loopback port, logs each request, and exits 0 on SIGTERM")
    func liveServer() throws {
        try TemporaryFolder.with("serve-cli") { dir in
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("albums"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                to: dir.appendingPathComponent("albums/rocket.jpg"))
            let port = 20_000 + Int(getpid() % 20_000) + Int.random(in: 0..<20_000)
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["serve", dir.path, "--port", "\(port)", "--open"]
            // No desktop: --open only prints the viewer's URL.
            process.environment = ProcessInfo.processInfo.environment.filter {
                $0.key != "DISPLAY" && $0.key != "WAYLAND_DISPLAY"
            }
            let err = Pipe()
            let out = Pipe()
            process.standardError = err
            process.standardOutput = out
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let base = "http://127.0.0.1:\(port)"
            var health = (status: 0, body: Data())
            for _ in 0..<100 where health.status != 200 {
                health = try Self.get(base + "/healthz")
                if health.status != 200 { usleep(100_000) }
            }
            #expect(health.status == 200 && String(decoding: health.body, as: UTF8.self) == "ok\n")

            let info = try Self.get(base + "/iiif/3/albums%2Frocket.jpg/info.json")
            #expect(info.status == 200)
            let json = try JSONSerialization.jsonObject(with: info.body) as? [String: Any]
            #expect(json?["width"] as? Int == 640 && json?["height"] as? Int == 427)
            #expect(json?["id"] as? String == base + "/iiif/3/albums%2Frocket.jpg")

            let tile = try Self.get(base + "/iiif/3/albums%2Frocket.jpg/0,0,256,256/128,/0/default.jpg")
            #expect(tile.status == 200)
            let image = try JPEGDecoder.decode(.bytes([UInt8](tile.body))).image
            #expect(image.width == 128 && image.height == 128)
            #expect(try Self.get(base + "/iiif/3/..%2F..%2Fetc%2Fpasswd/info.json").status == 404)
            let listing = try Self.get(base + "/")
            #expect(listing.status == 200)
            #expect(String(decoding: listing.body, as: UTF8.self).contains("href=\"/browse/albums\""))

            process.terminate()  // SIGTERM
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(printed == "viewer: http://127.0.0.1:\(port)/\n", "\(printed)")
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(log.contains("tileview: serving \(dir.path) at http://127.0.0.1:\(port)/"), "\(log)")
            #expect(log.contains("GET /iiif/3/albums%2Frocket.jpg/info.json 200"), "\(log)")
            #expect(log.contains(" 404 "), "\(log)")
        }
    }

    @Test(
        "a lossless JPEG crop or a TIFF edge tile's cut that runs out of memory is answered by decoding instead, not as a damaged image"
    )
    func losslessCropOutOfMemory() throws {
        try TemporaryFolder.with("serve-crop-memory") { dir in
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                to: dir.appendingPathComponent("rocket.jpg"))
            try FileManager.default.copyItem(
                at: Fixtures.corpusRoot.appendingPathComponent("formats/tiff/pyramid-jpeg.tif"),
                to: dir.appendingPathComponent("pyramid.tif"))
            // libjpeg-turbo reads JPEGMEM (thousands of bytes) as the most its virtual arrays may hold, and has no
            // backing store: the crop's coefficient arrays then fail as a full memory would (JERR_NO_BACKING_STORE),
            // while a baseline decode needs no virtual array.
            let port = ServeAccessTests.freePort()
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["serve", dir.path, "--port", "\(port)", "--cache-dir", "none"]
            process.environment = ProcessInfo.processInfo.environment.merging(["JPEGMEM": "1"]) { $1 }
            process.standardError = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            let base = "http://127.0.0.1:\(port)"
            var health = 0
            for _ in 0..<100 where health != 200 {
                health = (try? Self.get(base + "/healthz").status) ?? 0
                if health != 200 { usleep(100_000) }
            }
            try #require(health == 200)
            // On the MCU grid at its own size: an answer the lossless crop would cut.
            let crop = try Self.get(base + "/iiif/3/rocket.jpg/0,0,256,256/max/0/default.jpg")
            #expect(crop.status == 200, "\(String(decoding: crop.body, as: UTF8.self))")
            if crop.status == 200 {
                let image = try JPEGDecoder.decode(.bytes([UInt8](crop.body))).image
                #expect(image.width == 256 && image.height == 256)
            }
            // The corner tile of the TIFF's first page, which the image's edge cuts: its stored stream cut by its
            // coefficients, which the same arrays hold.
            let corner = try Self.get(base + "/iiif/3/pyramid.tif/1024,768,176,132/176,132/0/default.jpg")
            #expect(corner.status == 200, "\(String(decoding: corner.body, as: UTF8.self))")
            if corner.status == 200 {
                let image = try JPEGDecoder.decode(.bytes([UInt8](corner.body))).image
                #expect(image.width == 176 && image.height == 132)
            }
            let metrics = try Self.metrics(base)
            #expect(metrics.contains("\ntileview_jpeg_lossless_crops_total 0\n"), "\(metrics)")
            #expect(metrics.contains("\ntileview_tiff_stored_tiles_total 0\n"), "\(metrics)")
        }
    }

    @Test(
        "tileview serve becomes the tileview-serve beside it: without one, exit 1 naming it; tileview has no HTTP stack"
    )
    func serverExecutable() throws {
        try TemporaryFolder.with("serve-alone") { dir in
            let alone = dir.appendingPathComponent("tileview")
            // Copied by cp, not by this process: a copy written here holds a writable descriptor that a child
            // another test spawns at that moment inherits, and running the copy would then fail with "Text file
            // busy" (ETXTBSY).
            let copied = try CommandRunner.program("cp", [CommandRunner.executable.path, alone.path])
            try #require(copied.status == 0, "\(copied.output)")
            let (status, output) = try CommandRunner.program(alone.path, ["serve", dir.path, "--port", "0"])
            #expect(status == 1, "\(output)")
            #expect(output.contains("tileview: \(dir.path)/tileview-serve: No such file or directory"), "\(output)")
            // The arguments are checked before: a usage error is tileview's own, exit 64.
            let (usage, text) = try CommandRunner.program(alone.path, ["serve", dir.path, "--port", "70000"])
            #expect(usage == 64 && text.contains("--port must be 0 to 65535"), "\(text)")
        }
        // What keeps every other command's start-up short (ServeCommand): the server's modules stay out of tileview.
        let binary = try Data(contentsOf: CommandRunner.executable)
        for module in ["Hummingbird", "NIOCore", "TileViewServe"] {
            #expect(binary.range(of: Data(module.utf8)) == nil, "tileview links \(module)")
        }
        let server = CommandRunner.executable.deletingLastPathComponent().appendingPathComponent("tileview-serve")
        #expect(try Data(contentsOf: server).range(of: Data("TileViewServe".utf8)) != nil)
    }
}

/// The offline IIIF validator against a real server (`scripts/validate-iiif.sh`).
@Suite("IIIF validator", .tags(.external))
struct IIIFValidatorTests {
    @Test(
        "iiif-validator-ng detects level 2 and every test passes but two disagreements, checked by hand",
        .timeLimit(.minutes(10)))
    func validator() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("validate-iiif.sh")
        #expect(status == 0, "\(text)")
        #expect(text.contains("compliance level: LEVEL_2"), "\(text)")
        #expect(text.contains(" 0 failed, 2 known"), "\(text)")
        #expect(text.contains("known disagreements: SizeNoUpTest, SizeUpTest"), "\(text)")
        // The Presentation 3 manifest and collection of the same server, parsed by iiif-prezi3's models.
        #expect(text.contains("presentation: manifest of 1 canvas(es) and collection parsed by iiif-prezi3"), "\(text)")
    }
}

/// Load and malformed requests against a real server (`scripts/load-serve.sh`), short: wrk for a few seconds
/// (no socket error, no non-2xx, RSS within the cache budget + 64 MiB + the renders' peak work and kept blocks)
/// and a thousand malformed requests (no 5xx but 501, the server alive and serving after). The long runs (30 s at
/// 64 connections, 10,000 requests) are the same script with its defaults.
@Suite("Server under load", .tags(.external, .alone))
struct LoadServeTests {
    @Test("wrk and malformed requests: no error, no crash, memory bounded", .timeLimit(.minutes(5)))
    func load() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool(
            "load-serve.sh", ["all"],
            environment: ["DURATION": "5", "CONNECTIONS": "16", "COUNT": "1000", "CACHE_MB": "64"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("wrk ok:") && text.contains("fuzz ok:"), "\(text)")
    }
}

/// The viewer in a real headless chromium against a real server (`scripts/test-browser.sh`): the double click at
/// (120, 80), wheel, drag, the two-finger fallback and the keys give the command's states, the screenshot its
/// frame (PSNR), three right arrows in a gallery its page and resident set, and Mirador pages through the folder's
/// IIIF manifest to its third canvas.
@Suite("Viewer in a browser", .tags(.external))
struct BrowserTests {
    @Test("chromium: states equal the command's, screenshot PSNR of at least 30 dB", .timeLimit(.minutes(5)))
    func browser() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("test-browser.sh")
        // The failed checks first (the whole output is long), then the output.
        let failed = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") || $0.contains("Error") }
        #expect(status == 0, "\(failed.joined(separator: "\n"))\n\(text)")
        #expect(text.contains("browser: 0 failed") && !text.contains("FAIL:"), "\(failed.joined(separator: "\n"))")
    }
}

/// The view API fuzzed from its own OpenAPI document (`scripts/fuzz-api.sh`): about 2,000 generated requests,
/// every schemathesis check passing, the server alive after.
@Suite("View API fuzzing", .tags(.external))
struct APIFuzzTests {
    @Test("schemathesis: no 5xx, answers as documented, the server alive", .timeLimit(.minutes(5)))
    func fuzz() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("fuzz-api.sh")
        #expect(status == 0, "\(text)")
        let generated = text.split(separator: "\n").first { $0.contains(" generated, ") } ?? ""
        let count = Int(generated.split(separator: " ").first ?? "") ?? 0
        #expect(count >= 1000 && generated.contains("\(count) passed"), "\(generated)")
    }
}

/// More than one server, with the recipes under deploy/ (`scripts/test-replicas.sh`): real nginx running
/// deploy/nginx/tileview.conf in front of two real replicas sharing a cache folder (round robin, nginx's cache
/// hits, a view on one replica with the command's frame, a replica SIGKILLed and restarted), the systemd unit
/// through `systemd-analyze verify`, and the Kubernetes manifests through kubernetes-validate and their own
/// checks.
@Suite("Replicas behind nginx", .tags(.external))
struct ReplicaTests {
    @Test("nginx in front of two replicas; the systemd unit and the Kubernetes manifests", .timeLimit(.minutes(3)))
    func replicas() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("test-replicas.sh")
        let failed = text.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(status == 0 && text.contains("replicas: 0 failed"), "\(failed.joined(separator: "\n"))\n\(text)")
    }
}
