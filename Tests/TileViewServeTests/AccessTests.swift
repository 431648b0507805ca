import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import TileViewCore
import TileViewTestSupport

@testable import TileViewServe

/// docs/design.md section 18's access rule through the router: `--users` logins and their session cookie, `--tokens`
/// bearer tokens, `--sign-key` share links, the login rate limit, and `Cache-Control: private`.
@Suite("Access: logins, tokens, share links")
struct AccessTests {
    /// A clock both the rules (Unix seconds) and the limiter (monotonic seconds) read, moved by the tests.
    final class Clock: Sendable {
        let unix = Atomic<Int>(1_800_000_000)
        let monotonic = Atomic<Int>(0)
        func advance(_ seconds: Int) {
            unix.add(seconds, ordering: .relaxed)
            monotonic.add(seconds, ordering: .relaxed)
        }
        var now: Int { unix.load(ordering: .relaxed) }
    }

    static let token = "t0ken-for-scripts-7f3a"
    static let signKey = Array("0123456789abcdef0123456789abcdef-share".utf8)
    /// `alice:HASH` as `--hash-password` makes it, at the lowest cost (fast), read back as a users file.
    static let users: [String: String] = {
        let line = try! AccessSetup.hashLine(name: "alice", password: "s3cret pass", cost: 4)
        return try! AccessFiles.users(parsing: "# accounts\n\n" + line + "\n", file: "users")
    }()

    static func server(clock: Clock = Clock(), sessionKey: [UInt8]? = nil, root: ServeRoot = ServeFixture.root)
        -> TileServer
    {
        var settings = ServeSettings(root: root, host: "127.0.0.1", port: 0)
        let digest = try! AccessFiles.tokens(
            parsing: SHA256Hex.of(token) + "  -\n", file: "tokens")
        settings.access = AccessRules(
            users: users, tokenDigests: digest, sessionKey: sessionKey, signKey: signKey,
            limiter: LoginLimiter(now: { Double(clock.monotonic.load(ordering: .relaxed)) }),
            clock: { clock.now })
        return TileServer(settings: settings)
    }

    static func withClient(
        _ server: TileServer, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await buildApplication(server).test(.router) { client in try await body(client) }
    }

    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// `POST /login` with the fields; the response.
    static func logIn(
        _ client: any TestClientProtocol, user: String = "alice", password: String = "s3cret pass", next: String? = nil
    ) async throws -> TestResponse {
        var body = "user=\(user)&password=\(password.replacingOccurrences(of: " ", with: "+"))"
        if let next { body += "&next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
        return try await client.execute(uri: "/login", method: .post, headers: form, body: ByteBuffer(string: body))
    }

    /// The `name=value` part of a `Set-Cookie` answer.
    static func cookie(_ response: TestResponse, _ name: String = "tileview_session") -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix(name + "=") }.map {
            String($0.prefix { $0 != ";" })
        }
    }

    static func get(_ client: any TestClientProtocol, _ uri: String, cookie: String? = nil) async throws -> TestResponse
    {
        var headers = HTTPFields()
        if let cookie { headers[.cookie] = cookie }
        return try await client.execute(uri: uri, method: .get, headers: headers)
    }

    static let info = "/iiif/3/rocket.jpg/info.json"
    static let tile = "/iiif/3/rocket.jpg/0,0,256,256/128,/0/default.jpg"

    @Test("without a session: API, IIIF, DZI and metrics are 401 with WWW-Authenticate, pages 303 to /login")
    func noSession() async throws {
        try await Self.withClient(Self.server()) { client in
            for uri in [Self.info, Self.tile, "/dzi/rocket.jpg.dzi", "/metrics", "/api/openapi.json", "/nothing-here"] {
                let response = try await Self.get(client, uri)
                #expect(response.status == .unauthorized, "\(uri)")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true, "\(uri)")
                let body = String(buffer: response.body)
                #expect(body.hasSuffix("\n") && body.dropLast().split(separator: "\n").count == 1, "\(uri): \(body)")
            }
            let api = try await client.execute(
                uri: "/api/views", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"image":"rocket.jpg","viewport":{"width":64,"height":64}}"#))
            #expect(api.status == .unauthorized)
            for (uri, next) in [
                ("/view/rocket.jpg", "%2Fview%2Frocket.jpg"), ("/", "%2F"),
                ("/gallery/albums?peek=4", "%2Fgallery%2Falbums%3Fpeek%3D4"),
            ] {
                let response = try await Self.get(client, uri)
                #expect(response.status == .seeOther, "\(uri)")
                #expect(response.headers[.location]?.hasSuffix("/login?next=" + next) == true, "\(response.headers)")
            }
        }
    }

    @Test("/healthz, the login form and its style sheet are open")
    func openRoutes() async throws {
        try await Self.withClient(Self.server()) { client in
            let health = try await Self.get(client, "/healthz")
            #expect(health.status == .ok && String(buffer: health.body) == "ok\n")
            let login = try await Self.get(client, "/login?next=%2Fview%2Frocket.jpg")
            #expect(login.status == .ok)
            let html = String(buffer: login.body)
            #expect(html.contains("<form method=\"post\"") && html.contains("name=\"password\""))
            #expect(html.contains("value=\"/view/rocket.jpg\""))
            #expect(try await Self.get(client, "/viewer/viewer.css").status == .ok)
        }
    }

    @Test("a wrong password or an unknown user: 401 with the form again and no cookie")
    func badPassword() async throws {
        try await Self.withClient(Self.server()) { client in
            for (user, password) in [("alice", "wrong"), ("mallory", "s3cret pass"), ("", "")] {
                let response = try await Self.logIn(client, user: user, password: password)
                #expect(response.status == .unauthorized, "\(user)")
                #expect(response.headers[values: .setCookie].isEmpty, "\(user)")
                #expect(String(buffer: response.body).contains("wrong user name or password"))
            }
        }
    }

    @Test(
        "the right password: 303 to next with a signed HttpOnly, SameSite=Lax, expiring cookie that opens every route")
    func goodPassword() async throws {
        try await Self.withClient(Self.server()) { client in
            let response = try await Self.logIn(client, next: "/view/rocket.jpg")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location]?.hasSuffix("localhost/view/rocket.jpg") == true, "\(response.headers)")
            let setCookie = try #require(response.headers[values: .setCookie].first)
            let attributes = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(
                attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax") && attributes.contains("Path=/"))
            #expect(attributes.contains("Max-Age=\(AccessRules.defaultSessionSeconds)"), "\(setCookie)")
            #expect(!attributes.contains("Secure"))
            let cookie = try #require(Self.cookie(response))
            for uri in ["/view/rocket.jpg", "/", Self.info, Self.tile, "/dzi/rocket.jpg.dzi", "/metrics"] {
                #expect(try await Self.get(client, uri, cookie: cookie).status == .ok, "\(uri)")
            }
        }
    }

    @Test("the session cookie is Secure when the server speaks HTTPS or is reached through an https --public-url")
    func secureCookie() async throws {
        try await TemporaryFolder.with("access-tls") { folder in
            // The application loads the certificate as the executable does: a real one, made by openssl.
            let (cert, key) = (
                folder.appendingPathComponent("cert.pem").path, folder.appendingPathComponent("key.pem").path
            )
            let made = try CommandRunner.program(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj",
                    "/CN=localhost",
                ])
            try #require(made.status == 0, "\(made.output)")
            var tls = Self.server().settings
            tls.tls = try TLSFiles(certificatePath: cert, keyPath: key)
            var proxied = Self.server().settings
            proxied.site = SiteRules(publicURL: .init(scheme: "https", authority: "tiles.example", path: ""))
            for settings in [tls, proxied] {
                try await Self.withClient(TileServer(settings: settings)) { client in
                    let response = try await Self.logIn(client)
                    #expect(response.status == .seeOther)
                    #expect(response.headers[values: .setCookie].first?.hasSuffix("; Secure") == true)
                }
            }
        }
    }

    @Test("TLS files that cannot be loaded are refused when given, naming the file and what it is not")
    func unloadableTLSFiles() throws {
        try TemporaryFolder.with("access-tls-bad") { folder in
            let (cert, key, junk) = (
                folder.appendingPathComponent("cert.pem").path, folder.appendingPathComponent("key.pem").path,
                folder.appendingPathComponent("junk.pem").path
            )
            let made = try CommandRunner.program(
                "openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=localhost",
                ])
            try #require(made.status == 0, "\(made.output)")
            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: junk))
            func refusal(_ certificate: String, _ privateKey: String) -> TileViewError? {
                do {
                    _ = try TLSFiles(certificatePath: certificate, keyPath: privateKey)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(refusal(cert, key) == nil)
            let badChain = try #require(refusal(junk, key))
            #expect(badChain.description.contains(junk), "\(badChain)")
            #expect(badChain.description.contains("certificate"), "\(badChain)")
            let badKey = try #require(refusal(cert, junk))
            #expect(badKey.description.contains(junk) && badKey.description.contains("private key"), "\(badKey)")
            // The files given the other way round: the key file holds no certificate.
            let swapped = try #require(refusal(key, cert))
            #expect(swapped.description.contains(key), "\(swapped)")
            let missing = folder.appendingPathComponent("missing.pem").path
            #expect(try #require(refusal(cert, missing)).description.contains(missing))
        }
    }

    @Test("next is followed only when it is a path on this server")
    func nextStaysOnSite() async throws {
        try await Self.withClient(Self.server()) { client in
            for next in ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"] {
                let response = try await Self.logIn(client, next: next)
                #expect(response.headers[.location] == "http://localhost/", "\(next): \(response.headers)")
            }
        }
    }

    @Test("IIIF and DZI answers are Cache-Control: private under --users")
    func privateCaching() async throws {
        try await Self.withClient(Self.server()) { client in
            let cookie = try #require(Self.cookie(try await Self.logIn(client)))
            for uri in [Self.info, Self.tile, "/dzi/rocket.jpg.dzi", "/dzi/rocket.jpg_files/0/0_0.jpg"] {
                let response = try await Self.get(client, uri, cookie: cookie)
                #expect(response.status == .ok, "\(uri)")
                let cache = response.headers[.cacheControl] ?? ""
                #expect(cache.contains("private") && !cache.contains("public"), "\(uri): \(cache)")
            }
        }
    }

    @Test("an expired, tampered, foreign-key or logged-out session cookie is refused")
    func badSessions() async throws {
        let clock = Clock()
        try await Self.withClient(Self.server(clock: clock)) { client in
            let cookie = try #require(Self.cookie(try await Self.logIn(client)))
            #expect(try await Self.get(client, Self.info, cookie: cookie).status == .ok)
            // Another user's name in the same cookie, and a flipped signature digit.
            let parts = cookie.split(separator: ".")
            let mallory = "tileview_session=" + AccessCrypto.hex("mallory".utf8) + "." + parts[1] + "." + parts[2]
            let last = parts[2].last == "0" ? "1" : "0"
            let flipped = parts[0] + "." + parts[1] + "." + parts[2].dropLast() + last
            let later =
                "tileview_session=" + parts[0].dropFirst("tileview_session=".count) + "."
                + String(Int(parts[1])! + 3600) + "." + parts[2]
            for bad in [mallory, String(flipped), later, "tileview_session=garbage"] {
                #expect(try await Self.get(client, Self.info, cookie: bad).status == .unauthorized, "\(bad)")
                #expect(try await Self.get(client, "/view/rocket.jpg", cookie: bad).status == .seeOther, "\(bad)")
            }
            clock.advance(AccessRules.defaultSessionSeconds + 1)
            let expired = try await Self.get(client, Self.info, cookie: cookie)
            #expect(expired.status == .unauthorized)
            #expect(String(buffer: expired.body).contains("expired"))
        }
        // The same cookie at a server with another key (a restart without --session-key).
        let cookie = try await Self.sessionCookie(Self.server(sessionKey: Array(repeating: 7, count: 32)))
        try await Self.withClient(Self.server(sessionKey: Array(repeating: 8, count: 32))) { client in
            let response = try await Self.get(client, Self.info, cookie: cookie)
            #expect(response.status == .unauthorized)
        }
        try await Self.withClient(Self.server(sessionKey: Array(repeating: 7, count: 32))) { client in
            #expect(try await Self.get(client, Self.info, cookie: cookie).status == .ok)
            let out = try await client.execute(uri: "/logout", method: .post)
            #expect(out.status == .seeOther)
            #expect(out.headers[values: .setCookie].first?.hasPrefix("tileview_session=; Path=/; Max-Age=0") == true)
        }
    }

    static func sessionCookie(_ server: TileServer) async throws -> String {
        let box = Mutex<String?>(nil)
        try await withClient(server) { client in
            let cookie = cookie(try await logIn(client))
            box.withLock { $0 = cookie }
        }
        return try #require(box.withLock { $0 })
    }

    @Test("Authorization: Bearer with a --tokens token opens the API; a wrong one or another scheme is 401")
    func bearer() async throws {
        try await Self.withClient(Self.server()) { client in
            let good = try await client.execute(
                uri: Self.info, method: .get, headers: [.authorization: "Bearer \(Self.token)"])
            #expect(good.status == .ok)
            #expect(good.headers[.cacheControl]?.contains("private") == true)
            for value in [
                "Bearer \(Self.token)x", "Bearer ", "Basic YWxpY2U6czNjcmV0", "Bearer \(SHA256Hex.of(Self.token))",
            ] {
                let response = try await client.execute(uri: Self.info, method: .get, headers: [.authorization: value])
                #expect(response.status == .unauthorized, "\(value)")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            }
        }
    }

    /// The share link of `path` that expires `seconds` after `clock`'s now, opened: the link, its page (expected 200)
    /// and the cookie the page set.
    static func openShareLink(
        _ client: any TestClientProtocol, _ path: String, expiresIn seconds: Int, clock: Clock,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (link: String, page: TestResponse, grant: String) {
        let link = ShareLink.link(path, expires: clock.now + seconds, key: signKey)
        let page = try await get(client, link)
        #expect(page.status == .ok, sourceLocation: sourceLocation)
        let grant = try #require(cookie(page, "tileview_share"), sourceLocation: sourceLocation)
        return (link, page, grant)
    }

    @Test("a share link opens its image (page, IIIF, view API) until it expires; tampered, expired or moved: 403")
    func shareImage() async throws {
        let clock = Clock()
        try await Self.withClient(Self.server(clock: clock)) { client in
            let (link, page, grant) = try await Self.openShareLink(
                client, "/view/rocket.jpg", expiresIn: 600, clock: clock)
            #expect(page.headers[values: .setCookie].first?.contains("Max-Age=600; HttpOnly; SameSite=Lax") == true)
            // What the viewer page then asks for, carrying the cookie the link set.
            #expect(try await Self.get(client, Self.info, cookie: grant).status == .ok)
            #expect(try await Self.get(client, Self.tile, cookie: grant).status == .ok)
            let created = try await client.execute(
                uri: "/api/views", method: .post, headers: [.contentType: "application/json", .cookie: grant],
                body: ByteBuffer(string: #"{"image":"rocket.jpg","viewport":{"width":64,"height":48}}"#))
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let view = try #require(
                (try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])?["view"]
                    as? String)
            #expect(try await Self.get(client, "/api/views/\(view)/frame.png", cookie: grant).status == .ok)
            // Nothing else: another image, its view, the listing, metrics.
            #expect(
                try await Self.get(client, "/iiif/3/albums%2Fcoffee.png/info.json", cookie: grant).status
                    == .unauthorized)
            let other = try await client.execute(
                uri: "/api/views", method: .post, headers: [.contentType: "application/json", .cookie: grant],
                body: ByteBuffer(string: #"{"image":"albums%2Fcoffee.png","viewport":{"width":64,"height":48}}"#))
            #expect(other.status == .unauthorized)
            #expect(try await Self.get(client, "/", cookie: grant).status == .seeOther)
            #expect(try await Self.get(client, "/metrics", cookie: grant).status == .unauthorized)

            // The signature of one path on another, a changed expiry, a changed digit: 403 with the reason.
            let query = link[link.firstIndex(of: "?")!...]
            let moved = try await Self.get(client, "/view/albums%2Fcoffee.png" + query)
            #expect(moved.status == .forbidden && String(buffer: moved.body).contains("signature"))
            let stretched = link.replacingOccurrences(of: "exp=\(clock.now + 600)", with: "exp=\(clock.now + 6000)")
            #expect(try await Self.get(client, stretched).status == .forbidden)
            let tampered = String(link.dropLast()) + (link.last == "a" ? "b" : "a")
            #expect(try await Self.get(client, tampered).status == .forbidden)
            clock.advance(601)
            let expired = try await Self.get(client, link)
            #expect(expired.status == .forbidden && String(buffer: expired.body) == "the share link has expired\n")
            // The cookie it set expires with it.
            #expect(try await Self.get(client, Self.info, cookie: grant).status == .unauthorized)
        }
    }

    @Test("a folder's share link opens its gallery and the images under it, not others")
    func shareFolder() async throws {
        let clock = Clock()
        try await Self.withClient(Self.server(clock: clock)) { client in
            let grant = try await Self.openShareLink(client, "/gallery/albums", expiresIn: 60, clock: clock).grant
            #expect(try await Self.get(client, "/iiif/3/albums%2Fcoffee.png/info.json", cookie: grant).status == .ok)
            #expect(try await Self.get(client, "/view/albums%2Fcoffee.png", cookie: grant).status == .ok)
            #expect(try await Self.get(client, Self.info, cookie: grant).status == .unauthorized)
            // A signed path that is no image or folder opens nothing.
            let metrics = ShareLink.link("/metrics", expires: clock.now + 60, key: Self.signKey)
            #expect(try await Self.get(client, metrics).status == .forbidden)
        }
    }

    @Test("five failed logins from one client: then 429 with Retry-After until the minute passes; success resets")
    func rateLimit() async throws {
        let clock = Clock()
        try await Self.withClient(Self.server(clock: clock)) { client in
            for _ in 0..<4 { #expect(try await Self.logIn(client, password: "nope").status == .unauthorized) }
            #expect(try await Self.logIn(client).status == .seeOther)
            for _ in 0..<5 { #expect(try await Self.logIn(client, password: "nope").status == .unauthorized) }
            clock.advance(10)
            for password in ["nope", "s3cret pass"] {
                let refused = try await Self.logIn(client, password: password)
                #expect(refused.status == .tooManyRequests)
                #expect(refused.headers[.retryAfter] == "50")
                #expect(refused.headers[values: .setCookie].isEmpty)
            }
            clock.advance(50)
            #expect(try await Self.logIn(client).status == .seeOther)
        }
    }

    @Test(
        "on a socket: failed logins count against the connection's address, or behind --trusted-proxies against the client X-Forwarded-For names"
    )
    func rateLimitBehindProxy() async throws {
        let forwarded = HTTPField.Name("X-Forwarded-For")!
        for trusted in [false, true] {
            var settings = Self.server().settings
            if trusted { settings.site.trustedProxies = [IPNetwork("127.0.0.1")!, IPNetwork("::1")!] }
            try await buildApplication(TileServer(settings: settings)).test(.live) { client in
                func logIn(from address: String, password: String) async throws -> HTTPResponse.Status {
                    var headers = Self.form
                    headers[forwarded] = "198.51.100.66, " + address
                    let body = "user=alice&password=" + password
                    return try await client.execute(
                        uri: "/login", method: .post, headers: headers, body: ByteBuffer(string: body)
                    ).status
                }
                for _ in 0..<5 { #expect(try await logIn(from: "203.0.113.9", password: "nope") == .unauthorized) }
                #expect(try await logIn(from: "203.0.113.9", password: "nope") == .tooManyRequests)
                // Another client behind the proxy: locked out with the first when the proxy is every client.
                let other = try await logIn(from: "203.0.113.10", password: "s3cret+pass")
                #expect(other == (trusted ? .seeOther : .tooManyRequests), "trusted \(trusted)")
                // IPv6 clients count by their /64: another address of the same host's network is the same client.
                for _ in 0..<5 { _ = try await logIn(from: "2001:db8:1:2::a", password: "nope") }
                let sameNetwork = try await logIn(from: "2001:db8:1:2:ffff::b", password: "s3cret+pass")
                #expect(sameNetwork == .tooManyRequests, "trusted \(trusted)")
            }
        }
    }

    @Test("an unknown user costs the same bcrypt work as a wrong password (a dummy hash of the accounts' cost)")
    func unknownUserTiming() {
        let rules = AccessRules(users: [
            "alice": try! AccessSetup.hashLine(name: "a", password: "pw", cost: 7).dropFirst(2).description
        ])
        func fastest(_ user: String) -> Duration {
            (0..<3).map { _ in
                ContinuousClock().measure { #expect(!rules.verify(user: user, password: "wrong")) }
            }.min()!
        }
        let known = fastest("alice")
        let unknown = fastest("mallory")
        #expect(unknown > known / 3 && known > unknown / 3, "known \(known), unknown \(unknown)")
        #expect(rules.verify(user: "alice", password: "pw"))
    }

    @Test("hashes made elsewhere verify: PHP's $2y$ (password_hash) and glibc crypt's $2b$")
    func foreignHashes() throws {
        let users = try AccessFiles.users(
            parsing: "php:$2y$07$BCryptRequires22Chrcte/VlQH0piJtjXl.0t1XkA8pw9dMXTpOq\n"
                + "glibc:$2b$10$6iUIKd8V78f87bbqTDis/OjHiwsjFWDHpsATYZLN80e9EA00LNI5q\n",
            file: "users")
        let rules = AccessRules(users: users)
        #expect(rules.verify(user: "php", password: "rasmuslerdorf"))
        #expect(!rules.verify(user: "php", password: "rasmuslerdorF"))
        #expect(rules.verify(user: "glibc", password: "pw 1"))
    }

    @Test(
        "attempts being checked count with failures: a client's sixth attempt at once is refused; past maxChecking, busy"
    )
    func limiterAdmission() {
        let clock = Clock()
        let limiter = LoginLimiter(
            maxFailures: 5, windowSeconds: 60, maxChecking: 7, now: { Double(clock.monotonic.load(ordering: .relaxed)) }
        )
        let admitted = (0..<8).map { _ in limiter.admit("mallory") }
        #expect(admitted == Array(repeating: .check, count: 5) + Array(repeating: .refused(retryAfter: 1), count: 3))
        #expect(limiter.admit("alice") == .check && limiter.admit("bob") == .check)
        #expect(limiter.admit("carol") == .busy && limiter.checking == 7)
        for _ in 0..<5 { limiter.failed("mallory") }
        limiter.succeeded("alice")
        #expect(limiter.checking == 1)
        clock.advance(20)
        #expect(limiter.admit("mallory") == .refused(retryAfter: 40))
        #expect(limiter.admit("carol") == .check)
        // bob's attempt still being checked when its window passes is counted in a new window.
        limiter.failed("carol")
        clock.advance(100)
        #expect(limiter.admit("mallory") == .check && limiter.admit("bob") == .check)
        limiter.failed("bob")
        limiter.failed("bob")
        #expect(limiter.checking == 1)
        limiter.succeeded("mallory")
        #expect(limiter.checking == 0 && limiter.retryAfter("mallory") == nil)
    }

    @Test("twenty wrong passwords sent at once: five are checked, the rest refused before bcrypt (429)")
    func concurrentGuesses() async throws {
        var settings = Self.server().settings
        // A cost whose check takes long enough that all twenty arrive while the first are being checked.
        let line = try AccessSetup.hashLine(name: "alice", password: "s3cret pass", cost: 10)
        settings.access = AccessRules(users: try AccessFiles.users(parsing: line + "\n", file: "users"))
        try await Self.withClient(TileServer(settings: settings)) { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<20 { group.addTask { try await Self.logIn(client, password: "nope").status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 15, "\(statuses)")
        }
    }

    @Test("the limiter remembers at most its capacity of clients")
    func limiterBounded() {
        let limiter = LoginLimiter(maxFailures: 2, windowSeconds: 60, capacity: 3, now: { 5 })
        for n in 0..<50 { limiter.failed("client \(n)") }
        #expect(limiter.count == 3)
        limiter.failed("client 49")
        #expect(limiter.retryAfter("client 49") == 60)
        #expect(limiter.retryAfter("client 48") == nil)
    }

    @Test("users and tokens files: comments, blank lines, $2y$/$2b$/$2a$; a malformed line names its number")
    func files() throws {
        let hash = String(Self.users["alice"]!.dropFirst(4))
        let users = try AccessFiles.users(
            parsing: "# team\r\nbob:$2y$\(hash)\r\n\n  carol:$2a$\(hash)\n", file: "u.txt")
        #expect(users.keys.sorted() == ["bob", "carol"])
        for (text, line) in [
            ("a:$2b$\(hash)\n\nb:plain", 3), ("# x\nnocolon", 2), ("a:$2b$\(hash)\na:$2b$\(hash)", 2),
            ("a:$2x$\(hash)", 1), ("a:$2b$\(hash)x", 1), (":$2b$\(hash)", 1),
        ] {
            #expect(throws: AccessFileError.self) { try AccessFiles.users(parsing: text, file: "u.txt") }
            do {
                _ = try AccessFiles.users(parsing: text, file: "u.txt")
            } catch {
                #expect(error.description.hasPrefix("u.txt:\(line): "), "\(error)")
            }
        }
        #expect(try AccessFiles.tokens(parsing: "# ci\n" + SHA256Hex.of("x").uppercased(), file: "t").count == 1)
        #expect(throws: AccessFileError.self) { try AccessFiles.tokens(parsing: "abc", file: "t") }
    }

    @Test("share scopes: an image covers itself, a folder what lies under it")
    func scopes() {
        #expect(ShareScope(path: "/view/albums%2Fcoffee.png") == .image("albums/coffee.png"))
        #expect(ShareScope(path: "/dzi/a.jpg_files/3/0_0.jpg") == .image("a.jpg"))
        #expect(ShareScope(path: "/gallery") == .folder(""))
        #expect(ShareScope(path: "/api/images/a.jpg/preview.jpg") == .image("a.jpg"))
        #expect(ShareScope(path: "/iiif/presentation/3/manifest.json") == .folder(""))
        #expect(ShareScope(path: "/iiif/presentation/3/albums%2F2024/collection.json") == .folder("albums/2024"))
        #expect(ShareScope(path: "/iiif/presentation/3/..%2Fx/manifest.json") == nil)
        #expect(ShareScope(path: "/view/albums%2F..%2Fx.jpg") == nil)
        #expect(ShareScope(path: "/metrics") == nil)
        #expect(ShareScope.folder("albums").covers(.image("albums/2024/a.jpg")))
        #expect(!ShareScope.folder("albums").covers(.image("albums2/a.jpg")))
        #expect(!ShareScope.image("a.jpg").covers(.image("b.jpg")))
    }
}

/// SHA-256 in hex, as `printf %s TOKEN | sha256sum` prints it.
enum SHA256Hex {
    static func of(_ text: String) -> String {
        TileViewCore.SHA256.hex(Array(text.utf8))
    }
}
