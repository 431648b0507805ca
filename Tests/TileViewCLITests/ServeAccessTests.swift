import Foundation
import Testing
import TileViewTestSupport

/// `tileview serve` on an address other machines reach: refused before it binds without an access rule (exit 64,
/// saying why and what to add), served with `--public`; the other options of docs/design.md section 18 checked the same
/// way.
@Suite("tileview serve: access rule and Host options", .serialized)
struct ServeAccessTests {
    /// `curl -s` of `url` with `arguments` added: the status code and the body.
    static func curl(_ url: String, _ arguments: [String] = []) throws -> (status: Int, body: String) {
        let (status, body) = try ServeCommandTests.get(url, arguments)
        return (status, String(decoding: body, as: UTF8.self))
    }

    static func freePort() -> Int { 20_000 + Int(getpid() % 20_000) + Int.random(in: 0..<20_000) }

    @Test(
        "a non-loopback --host without --public: exit 64 before binding, saying why and what to add",
        arguments: ["0.0.0.0", "::", "192.168.7.7", "example.org"])
    func refusedWithoutRule(_ host: String) throws {
        try TemporaryFolder.with("serve-access") { dir in
            let port = Self.freePort()
            // A server that bound would never exit: the timeout would end it with SIGKILL (status 9), not 64.
            let result = try CommandRunner.run(["serve", dir.path, "--host", host, "--port", "\(port)"], timeout: 20)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("--host \(host) is not a loopback address"), "\(result)")
            #expect(result.stderr.contains("--public"), "\(result)")
            #expect(!result.stderr.contains("tileview: serving"), "\(result)")
        }
    }

    @Test("loopback hosts need no rule; bad --public-url, --allowed-hosts and --trusted-proxies are usage errors")
    func usage() throws {
        try TemporaryFolder.with("serve-access") { dir in
            for (arguments, message) in [
                (["--public-url", "ftp://example.org"], "--public-url must be an http or https URL"),
                (["--public-url", "https://"], "--public-url must be"),
                (["--public-url", "https://example.org/?q=1"], "--public-url must be"),
                (["--public-url", "https://user@example.org"], "--public-url must be"),
                (["--allowed-hosts", "ok.example,bad host"], "--allowed-hosts takes host names"),
                (["--allowed-hosts", "example.org:8080"], "--allowed-hosts takes host names"),
                (["--trusted-proxies", "127.0.0.1,proxy.lan"], "--trusted-proxies takes IPv4 or IPv6 addresses"),
                (["--trusted-proxies", "10.0.0.0/33"], "got '10.0.0.0/33'"),
                (["--trusted-proxies", "127.0.0.1,"], "got ''"),
                (["--host", "127.0.0.1.example.org"], "is not a loopback address"),
            ] {
                let result = try CommandRunner.run(["serve", dir.path, "--port", "0"] + arguments, timeout: 20)
                #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result)")
            }
            // A loopback --host needs no rule (exit 64 here only for the port, checked after the host).
            for host in ["127.0.0.1", "127.3.2.1", "localhost", "::1", "[::1]"] {
                let result = try CommandRunner.run(["serve", dir.path, "--host", host, "--port", "70000"], timeout: 20)
                #expect(result.status == 64 && result.stderr.contains("--port must be"), "\(host): \(result)")
            }
        }
    }

    @Test("--host 0.0.0.0 --public starts: loopback URL and the note in the banner, a foreign Host is 400")
    func publicStarts() throws {
        try TemporaryFolder.with("serve-public") { dir in
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                to: dir.appendingPathComponent("rocket.jpg"))
            let err = Pipe()
            let (process, base) = try ServeCommandTests.startServer(
                ["serve", dir.path, "--host", "0.0.0.0", "--public", "--allowed-hosts", "photos.example"],
                standardError: err)
            defer { if process.isRunning { process.terminate() } }
            #expect(try Self.curl(base + "/healthz").status == 200)
            #expect(try Self.curl(base + "/").status == 200)
            #expect(try Self.curl(base + "/", ["-H", "Host: photos.example"]).status == 200)
            let foreign = try Self.curl(base + "/", ["-H", "Host: other.example"])
            #expect(foreign.status == 400 && !foreign.body.contains("other.example"), "\(foreign)")
            let info = try Self.curl(base + "/iiif/3/rocket.jpg/info.json", ["-H", "Host: photos.example:81"])
            #expect(info.body.contains("\"id\" : \"http://photos.example:81/iiif/3/rocket.jpg\""), "\(info)")
            process.terminate()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(
                log.contains(
                    "tileview: serving \(dir.path) at \(base)/ (IIIF: \(base)/iiif/3/rocket.jpg/info.json)\n"
                        + "tileview: listening on every address"), "\(log)")
        }
    }
}
