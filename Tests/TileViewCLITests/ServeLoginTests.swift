import Foundation
import Testing
import TileViewTestSupport

/// The access options of `tileview serve` as a user runs them (docs/design.md section 18): `--hash-password` makes a
/// `--users` line, a malformed users file or a short key stops the start with exit 64 naming the file and line,
/// `--sign` prints a share link, and a live server with the hashed account logs in over a socket.
@Suite("tileview serve: logins, tokens and share links", .serialized)
struct ServeLoginTests {
    /// `tileview ARGUMENTS` with `input` on standard input.
    static func run(_ arguments: [String], input: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        let stdin = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    static func hashLine(_ name: String, _ password: String) throws -> String {
        let result = try run(["serve", "--hash-password", name, "--hash-cost", "10"], input: password + "\n")
        #expect(result.status == 0, "\(result)")
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    @Test("--hash-password NAME reads one line and prints NAME:bcrypt-hash; no password is exit 64")
    func hashPassword() throws {
        let line = try Self.hashLine("alice", "correct horse")
        #expect(line.hasPrefix("alice:$2b$10$") && line.count == "alice:".count + 60, "\(line)")
        #expect(try Self.hashLine("alice", "correct horse") != line)  // a new salt each time
        let empty = try Self.run(["serve", "--hash-password", "alice"], input: "")
        #expect(empty.status == 64 && empty.stderr.contains("standard input"), "\(empty)")
        let colon = try Self.run(["serve", "--hash-password", "a:b"], input: "x\n")
        #expect(colon.status == 64, "\(colon)")
    }

    @Test("a malformed --users line, an unreadable file or a short key: exit 64 naming the file and line")
    func badFiles() throws {
        try TemporaryFolder.with("serve-login") { dir in
            let users = dir.appendingPathComponent("users.txt")
            try "# accounts\nalice:$2y$10$abcdefghijklmnopqrstuu5kDn3jpH1Mv6Xq3PjPu9z3Uu7uF0x6a\nbob:secret\n"
                .write(to: users, atomically: true, encoding: .utf8)
            let result = try CommandRunner.run(["serve", dir.path, "--users", users.path, "--port", "0"], timeout: 20)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("\(users.path):3: 'bob' has no bcrypt hash"), "\(result)")
            #expect(!result.stderr.contains("tileview: serving"), "\(result)")

            let missing = try CommandRunner.run(
                ["serve", dir.path, "--tokens", dir.appendingPathComponent("none").path, "--port", "0"], timeout: 20)
            #expect(missing.status == 64 && missing.stderr.contains("cannot be read"), "\(missing)")

            let key = dir.appendingPathComponent("key")
            try Data(repeating: 1, count: 31).write(to: key)
            try (try Self.hashLine("alice", "pw") + "\n").write(to: users, atomically: true, encoding: .utf8)
            let short = try CommandRunner.run(
                ["serve", dir.path, "--users", users.path, "--sign-key", key.path, "--port", "0"], timeout: 20)
            #expect(short.status == 64 && short.stderr.contains("at least 32 bytes, the file has 31"), "\(short)")

            let both = try CommandRunner.run(["serve", dir.path, "--users", users.path, "--public"], timeout: 20)
            #expect(both.status == 64 && both.stderr.contains("--public"), "\(both)")
        }
    }

    @Test("--sign PATH --sign-key FILE --expires S prints PATH?exp=NOW+S&sig=HMAC")
    func sign() throws {
        try TemporaryFolder.with("serve-sign") { dir in
            let key = dir.appendingPathComponent("key")
            try Data((0..<32).map { UInt8($0) }).write(to: key)
            let before = Int(Date().timeIntervalSince1970)
            let result = try CommandRunner.run(
                ["serve", "--sign", "/view/albums%2Fbeach.jpg", "--sign-key", key.path, "--expires", "3600"],
                timeout: 20)
            #expect(result.status == 0, "\(result)")
            let link = result.stdout.trimmingCharacters(in: .newlines)
            let parts = try #require(link.wholeMatch(of: /\/view\/albums%2Fbeach\.jpg\?exp=(\d+)&sig=([0-9a-f]{64})/))
            let exp = try #require(Int(parts.1))
            #expect((before + 3600...before + 3605).contains(exp), "\(link)")
            let notShareable = try CommandRunner.run(
                ["serve", "--sign", "/metrics", "--sign-key", key.path], timeout: 20)
            #expect(notShareable.status == 64, "\(notShareable)")
            let noKey = try CommandRunner.run(["serve", "--sign", "/view/a.jpg"], timeout: 20)
            #expect(noKey.status == 64 && noKey.stderr.contains("--sign-key"), "\(noKey)")
        }
    }

    @Test(
        "a live server with --users: 401 without a session, the hashed password logs in, the cookie opens IIIF, failures count per address"
    )
    func liveLogin() throws {
        try TemporaryFolder.with("serve-live-login") { dir in
            let root = dir.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                to: root.appendingPathComponent("rocket.jpg"))
            let users = dir.appendingPathComponent("users")
            try (try Self.hashLine("alice", "pw 1") + "\n").write(to: users, atomically: true, encoding: .utf8)
            let (process, base) = try ServeCommandTests.startServer(
                ["serve", root.path, "--users", users.path])
            defer { if process.isRunning { process.terminate() } }
            #expect(try ServeAccessTests.curl(base + "/healthz").status == 200)
            let info = base + "/iiif/3/rocket.jpg/info.json"
            #expect(try ServeAccessTests.curl(info).status == 401)
            let jar = dir.appendingPathComponent("jar").path
            let bad = try ServeAccessTests.curl(base + "/login", ["-c", jar, "--data", "user=alice&password=pw+2"])
            #expect(bad.status == 401)
            let good = try ServeAccessTests.curl(base + "/login", ["-c", jar, "--data", "user=alice&password=pw+1"])
            #expect(good.status == 303)
            #expect(try ServeAccessTests.curl(info, ["-b", jar]).status == 200)
            // Failures count per client address, whatever the user name: four more failures under other names,
            // and the fifth from this address is refused, even for the right password.
            for name in ["bob", "carol", "dave", "erin", "frank"] {
                let failed = try ServeAccessTests.curl(base + "/login", ["--data", "user=\(name)&password=x"])
                #expect(failed.status == 401, "\(name): \(failed.status)")
            }
            let limited = try ServeAccessTests.curl(base + "/login", ["--data", "user=alice&password=pw+1"])
            #expect(limited.status == 429, "per address: \(limited.status)")
        }
    }
}
