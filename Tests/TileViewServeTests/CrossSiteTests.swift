import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TileViewServe
import TileViewTestSupport

/// docs/design.md section 18's cross-site and Host rules on every route: CORS only on IIIF and Deep Zoom, nosniff
/// everywhere, the page headers on HTML, the view API closed to other sites and to bodies that are not JSON, and
/// a Host that does not name the server refused (the router client for the first, a real socket for Host).
@Suite("Cross-site and Host rules")
struct CrossSiteTests {
    static let other = "http://other.example"
    static let csp = "default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'"

    static func server(host: String = "127.0.0.1", site: SiteRules = SiteRules()) -> TileServer {
        var settings = ServeSettings(root: ServeFixture.root, host: host, port: 0)
        settings.site = site
        // The test client connects before it writes, and on a machine loaded by the other suites its task may wait
        // longer than the usual 30 s between the two.
        settings.idleTimeoutSeconds = 600
        return TileServer(settings: settings)
    }

    /// The router through Hummingbird's test client (its requests carry `Host: localhost`).
    static func withClient(
        _ server: TileServer = server(), _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await buildApplication(server).test(.router) { client in try await body(client) }
    }

    /// `buildApplication(server)` on a loopback socket, asked by a client that writes the Host header it is given
    /// (nil: none).
    static func withSocket(
        _ server: TileServer = server(),
        _ body:
            @escaping @Sendable (
                _ send:
                    @escaping @Sendable (String, HTTPRequest.Method, String?, HTTPFields, String?)
                    async throws -> TestClient.Response
            ) async throws -> Void
    ) async throws {
        let application = try buildApplication(server)
        try await application.test(.live) { client in
            let port = try #require(client.port)
            // A connection per request, and a long read timeout: on a machine loaded by the other suites this task
            // may wait longer than the server's 30 s idle timeout between two requests.
            try await body { uri, method, host, headers, body in
                try await TestClient.withClient(
                    host: "localhost", port: port, configuration: .init(timeout: .seconds(300))
                ) { raw in
                    try await raw.execute(
                        TestClient.Request(
                            uri, method: method, authority: host, headers: headers,
                            body: body.map { ByteBuffer(string: $0) }))
                }
            }
        }
    }

    static func text(_ response: TestClient.Response) -> String { response.body.map { String(buffer: $0) } ?? "" }

    static let imageBody = #"{"image": "rocket.jpg", "viewport": {"width": 64, "height": 48}}"#
    static let json: HTTPFields = [.contentType: "application/json"]

    /// Opens an image view with `headers` added; the status and the view's id.
    static func create(
        _ client: any TestClientProtocol, headers: HTTPFields = [:], body: String = imageBody
    ) async throws -> (HTTPResponse.Status, String?) {
        var all = json
        for field in headers { all[field.name] = field.value }
        return try await client.execute(
            uri: "/api/views", method: .post, headers: all, body: ByteBuffer(string: body)
        ) { response in
            let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
            return (response.status, object?["view"] as? String)
        }
    }

    /// Every kind of route with the status it answers here, and whether it is IIIF or Deep Zoom (shared) and HTML.
    static let routes: [(uri: String, status: HTTPResponse.Status, shared: Bool, html: Bool)] = [
        ("/healthz", .ok, false, false), ("/metrics", .ok, false, false), ("/", .ok, false, true),
        ("/browse/albums", .ok, false, true), ("/view/rocket.jpg", .ok, false, true), ("/gallery", .ok, false, true),
        ("/gallery/albums", .ok, false, true), ("/viewer/viewer.js", .ok, false, false),
        ("/viewer/viewer.css", .ok, false, false), ("/api/openapi.json", .ok, false, false),
        ("/api/views/nope", .notFound, false, false), ("/view/missing.jpg", .notFound, false, true),
        ("/nowhere", .notFound, false, false), ("/iiif/3/rocket.jpg", .seeOther, true, false),
        ("/iiif/3/rocket.jpg/info.json", .ok, true, false),
        ("/iiif/3/rocket.jpg/full/64,/0/default.jpg", .ok, true, false),
        ("/iiif/3/rocket.jpg/full/64,/0/default.gif", .notImplemented, true, false),
        ("/iiif/3/missing.jpg/info.json", .notFound, true, false), ("/dzi/rocket.jpg.dzi", .ok, true, false),
        ("/dzi/rocket.jpg_files/0/0_0.jpg", .ok, true, false), ("/dzi/missing.jpg.dzi", .notFound, true, false),
    ]

    @Test("CORS * on IIIF and Deep Zoom GETs and HEADs only; nosniff on every answer; CSP, DENY, same-origin on HTML")
    func headersOnEveryRoute() async throws {
        try await Self.withClient { client in
            for route in Self.routes {
                for method in [HTTPRequest.Method.get, .head] {
                    // Without Origin (a cache in front keeps one answer for all) and with another site's.
                    for origin in [nil, Self.other] {
                        let headers: HTTPFields = origin.map { [.origin: $0] } ?? [:]
                        // The API refuses another site's GET (403); everything else answers as usual.
                        let expected = origin != nil && route.uri.hasPrefix("/api/") ? .forbidden : route.status
                        try await client.execute(uri: route.uri, method: method, headers: headers) { response in
                            let what = "\(method) \(route.uri) origin \(origin ?? "none")"
                            #expect(response.status == expected, "\(what)")
                            #expect(
                                response.headers[.accessControlAllowOrigin] == (route.shared ? "*" : nil), "\(what)")
                            #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(what)")
                            let html = response.headers[.contentType]?.hasPrefix("text/html") == true
                            #expect(html == route.html, "\(what)")
                            #expect(
                                response.headers[.contentSecurityPolicy] == (route.html ? Self.csp : nil), "\(what)")
                            #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == (html ? "DENY" : nil))
                            #expect(
                                response.headers[HTTPField.Name("Referrer-Policy")!] == (html ? "same-origin" : nil))
                        }
                    }
                }
            }
            // Other methods: never CORS, always nosniff (405, 404, 403 alike).
            for (uri, method) in [
                ("/iiif/3/rocket.jpg/info.json", HTTPRequest.Method.post), ("/dzi/rocket.jpg.dzi", .delete),
                ("/api/views", .get), ("/healthz", .put), ("/api/views", .options),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                    #expect(response.headers[.accessControlAllowOrigin] == nil, "\(method) \(uri)")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff", "\(method) \(uri)")
                }
            }
        }
    }

    @Test("the viewer's pages hold no inline script or style, so the CSP lets them run")
    func pagesNeedNoInlineCode() async throws {
        try await Self.withClient { client in
            for uri in ["/", "/browse/albums", "/view/rocket.jpg", "/gallery/albums"] {
                let html = try await client.execute(uri: uri, method: .get) { String(buffer: $0.body) }
                #expect(!html.contains("<style") && !html.contains(" style="), "\(uri)")
                #expect(html.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil, "no handlers: \(uri)")
                let scripts = html.components(separatedBy: "<script").dropFirst()
                #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/") }, "\(uri): \(html)")
            }
        }
    }

    @Test("preflight: answered with * on IIIF and Deep Zoom, not on the API")
    func preflight() async throws {
        try await Self.withClient { client in
            let ask: HTTPFields = [
                .origin: Self.other, .accessControlRequestMethod: "GET", .accessControlRequestHeaders: "if-none-match",
            ]
            for uri in [
                "/iiif/3/rocket.jpg/info.json", "/iiif/3/rocket.jpg/full/64,/0/default.jpg", "/dzi/rocket.jpg.dzi",
            ] {
                try await client.execute(uri: uri, method: .options, headers: ask) { response in
                    #expect(response.status == .noContent, "\(uri)")
                    #expect(response.headers[.accessControlAllowOrigin] == "*", "\(uri)")
                    #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD", "\(uri)")
                    #expect(response.headers[.accessControlAllowHeaders]?.lowercased() == "if-none-match", "\(uri)")
                }
            }
            var post = ask
            post[.accessControlRequestMethod] = "POST"
            post[.accessControlRequestHeaders] = "content-type"
            for uri in ["/api/views", "/api/views/x/moves", "/api/views/x", "/", "/metrics"] {
                try await client.execute(uri: uri, method: .options, headers: post) { response in
                    #expect(response.status.code >= 400, "\(uri)")
                    #expect(response.headers[.accessControlAllowOrigin] == nil, "\(uri)")
                    #expect(response.headers[.accessControlAllowMethods] == nil, "\(uri)")
                }
            }
        }
    }

    @Test("the view API: another site's Origin or Sec-Fetch-Site is 403 and changes nothing; our own passes")
    func apiRefusesOtherSites() async throws {
        let server = Self.server()
        try await Self.withClient(server) { client in
            let refused: [HTTPFields] = [
                [.origin: Self.other], [.origin: "null"], [.origin: "http://localhost:8080"],
                [.origin: "http://localhost.other.example"], [.origin: "ftp://localhost"], [.origin: "localhost"],
                [.secFetchSite: "cross-site"], [.secFetchSite: "same-site"],
                [.origin: Self.other, .secFetchSite: "same-origin"],
                [.origin: "http://localhost", .secFetchSite: "cross-site"],
            ]
            for headers in refused {
                let (status, view) = try await Self.create(client, headers: headers)
                #expect(status == .forbidden && view == nil, "\(headers)")
            }
            #expect(server.views.count == 0, "no view was made")
            let accepted: [HTTPFields] = [
                [:], [.origin: "http://localhost"], [.origin: "HTTP://LOCALHOST:80"], [.origin: "https://localhost"],
                [.secFetchSite: "same-origin"], [.secFetchSite: "none"],
                [.origin: "http://localhost", .secFetchSite: "same-site"],
                [.origin: "http://localhost", .secFetchSite: "same-origin"],
            ]
            var views: [String] = []
            for headers in accepted {
                let (status, view) = try await Self.create(client, headers: headers)
                #expect(status == .created && view != nil, "\(headers)")
                views += view.map { [$0] } ?? []
            }
            let view = try #require(views.first)
            // Reading, driving and closing a view from another site: 403, and the view is unchanged and still open.
            let before = try await client.execute(uri: "/api/views/\(view)", method: .get) { String(buffer: $0.body) }
            for (uri, method, body) in [
                ("/api/views/\(view)", HTTPRequest.Method.get, nil), ("/api/views/\(view)", .delete, nil),
                ("/api/views/\(view)/gestures", .post, #"{"gesture": "double-tap 10,10"}"#),
                ("/api/views/\(view)/frame.png", .get, nil), ("/api/openapi.json", .get, nil),
            ] as [(String, HTTPRequest.Method, String?)] {
                for headers in [[.origin: Self.other], [.secFetchSite: "cross-site"]] as [HTTPFields] {
                    var all = headers
                    if body != nil { all[.contentType] = "application/json" }
                    let status = try await client.execute(
                        uri: uri, method: method, headers: all, body: body.map { ByteBuffer(string: $0) }
                    ) { $0.status }
                    #expect(status == .forbidden, "\(method) \(uri) \(headers)")
                }
            }
            let after = try await client.execute(uri: "/api/views/\(view)", method: .get) { String(buffer: $0.body) }
            // The same view at the same place (its next token's expiry may be a second later).
            let placeless = { (text: String) in text.replacing(/"view"\s*:\s*"[^"]+"/, with: "") }
            #expect(placeless(after) == placeless(before) && after != placeless(after), "\(after)")
            let closed = try await client.execute(
                uri: "/api/views/\(view)", method: .delete, headers: [.origin: "http://localhost"]
            ) { $0.status }
            #expect(closed == .noContent)
            // Any state-changing method on any path from another site: 403 before the 405 it would get.
            for (uri, method) in [
                ("/iiif/3/rocket.jpg/info.json", HTTPRequest.Method.post), ("/", .put), ("/metrics", .delete),
                ("/healthz", .patch), ("/nowhere", .post),
            ] {
                let status = try await client.execute(uri: uri, method: method, headers: [.origin: Self.other]) {
                    $0.status
                }
                #expect(status == .forbidden, "\(method) \(uri)")
                let plain = try await client.execute(uri: uri, method: method) { $0.status }
                #expect(plain != .forbidden, "\(method) \(uri) without Origin")
            }
        }
    }

    @Test("the view API takes bodies as application/json only (415); bodiless requests need no type")
    func apiTakesJSONOnly() async throws {
        let server = Self.server()
        try await Self.withClient(server) { client in
            for type in [
                nil, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                "application/jsonx", "text/json", "application/json-seq",
            ] as [String?] {
                let headers: HTTPFields = type.map { [.contentType: $0] } ?? [:]
                try await client.execute(
                    uri: "/api/views", method: .post, headers: headers, body: ByteBuffer(string: Self.imageBody)
                ) { response in
                    #expect(response.status == .unsupportedMediaType, "\(type ?? "none")")
                    #expect(String(buffer: response.body).hasSuffix("application/json only\n"))
                }
            }
            #expect(server.views.count == 0)
            for type in ["application/json", "Application/JSON; charset=utf-8", "application/json;charset=UTF-8"] {
                let (status, _) = try await Self.create(client, headers: [.contentType: type])
                #expect(status == .created, "\(type)")
            }
            let (_, view) = try await Self.create(client)
            let view2 = try #require(view)
            let move = try await client.execute(
                uri: "/api/views/\(view2)/gestures", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: #"{"gesture": "double-tap 10,10"}"#)
            ) { $0.status }
            #expect(move == .unsupportedMediaType)
            let deleted = try await client.execute(uri: "/api/views/\(view2)", method: .delete) { $0.status }
            #expect(deleted == .noContent, "a DELETE without a body needs no Content-Type")
        }
    }

    @Test(
        "Host: loopback names, the bound address and --allowed-hosts pass; others are 400 on every route but /healthz")
    func hostRules() async throws {
        let server = Self.server(
            host: "10.9.8.7", site: SiteRules(allowedHosts: ["photos.example", ".lan.example", "[2001:db8::1]"]))
        try await Self.withSocket(server) { send in
            let accepted = [
                "localhost", "LocalHost:8080", "localhost.", "127.0.0.1", "127.0.0.1:80", "127.200.3.4:65535",
                "[::1]", "[::1]:8080", "10.9.8.7", "10.9.8.7:8080", "photos.example", "PHOTOS.example:443",
                "lan.example", "a.b.lan.example", "[2001:DB8::1]:80", "localhost:",
            ]
            for host in accepted {
                let answer = try await send("/", .get, host, [:], nil)
                #expect(answer.status == .ok, "\(host)")
            }
            let refused = [
                "other.example", "other.example:8080", "127.0.0.1.other.example", "localhost.other.example",
                "evil-photos.example", "xlan.example", "lan.example.other", "10.9.8.77", "0.0.0.0", "127.0.0",
                "127.0.0.1.1", "0x7f.0.0.1", "[::2]", "[::1", "::1", "localhost:99999", "localhost:x", "local host",
                "[::\u{FF11}]",
                "<b>localhost</b>", "localhost@other.example", "other.example/localhost", "",
            ]
            for host in refused {
                for uri in ["/", "/iiif/3/rocket.jpg", "/iiif/3/rocket.jpg/info.json", "/api/openapi.json", "/metrics"]
                {
                    let answer = try await send(uri, .get, host, [:], nil)
                    let text = Self.text(answer)
                    #expect(answer.status == .badRequest, "\(host) \(uri)")
                    #expect(answer.headers[.location] == nil, "\(host) \(uri)")
                    #expect(text.hasSuffix("\n") && !text.dropLast().contains("\n"), "one line")
                    #expect(host.isEmpty || !text.contains(host), "the Host is not echoed: \(text)")
                }
                let health = try await send("/healthz", .get, host, [:], nil)
                #expect(health.status == .ok, "/healthz takes any Host: \(host)")
            }
            for uri in ["/", "/iiif/3/rocket.jpg/info.json", "/api/views/x"] {
                let missing = try await send(uri, .get, nil, [:], nil)
                #expect(missing.status == .badRequest, "no Host: \(uri)")
                #expect(Self.text(missing) == "the request has no Host header\n")
            }
            let answer1 = try await send("/healthz", .get, nil, [:], nil)
            #expect(answer1.status == .ok)
            // Ids and redirects are written with the Host as given (checked, lowercased).
            let redirect = try await send("/iiif/3/rocket.jpg", .get, "Photos.Example:8443", [:], nil)
            #expect(redirect.headers[.location] == "http://photos.example:8443/iiif/3/rocket.jpg/info.json")
            let info = try await send("/iiif/3/rocket.jpg/info.json", .get, "127.0.0.1:9", [:], nil)
            let id = try JSONSerialization.jsonObject(with: Data(Self.text(info).utf8)) as? [String: Any]
            #expect(id?["id"] as? String == "http://127.0.0.1:9/iiif/3/rocket.jpg")
            // The API's own origin follows the Host: an accepted name's page may use it.
            let made = try await send(
                "/api/views", .post, "photos.example:8080",
                [.contentType: "application/json", .origin: "http://photos.example:8080"], Self.imageBody)
            #expect(made.status == .created, "\(Self.text(made))")
        }
    }

    @Test("the bound address is not accepted for every address (0.0.0.0), and loopback names still are")
    func everyAddress() async throws {
        try await Self.withSocket(Self.server(host: "0.0.0.0")) { send in
            let answer2 = try await send("/", .get, "0.0.0.0:8080", [:], nil)
            #expect(answer2.status == .badRequest)
            let answer3 = try await send("/", .get, "192.168.1.5", [:], nil)
            #expect(answer3.status == .badRequest)
            let answer4 = try await send("/", .get, "127.0.0.1:8080", [:], nil)
            #expect(answer4.status == .ok)
        }
    }

    @Test("--public-url: ids and redirects use it, any Host is accepted, the API takes only its origin")
    func publicURL() async throws {
        let site = SiteRules(
            publicURL: SiteRules.PublicURL(scheme: "https", authority: "tiles.example.org", path: "/pictures/"))
        let server = Self.server(site: site)
        try await Self.withSocket(server) { send in
            for host in ["other.example", "localhost:8080", "<b>x</b>"] {
                let redirect = try await send("/iiif/3/albums%2Fcoffee.png", .get, host, [:], nil)
                #expect(redirect.status == .seeOther, "\(host)")
                #expect(
                    redirect.headers[.location]
                        == "https://tiles.example.org/pictures/iiif/3/albums%2Fcoffee.png/info.json", "\(host)")
                let info = try await send("/iiif/3/albums%2Fcoffee.png/info.json", .get, host, [:], nil)
                let json = try JSONSerialization.jsonObject(with: Data(Self.text(info).utf8)) as? [String: Any]
                #expect(json?["id"] as? String == "https://tiles.example.org/pictures/iiif/3/albums%2Fcoffee.png")
                #expect(!Self.text(info).contains(host))
            }
            let answer5 = try await send("/", .get, nil, [:], nil)
            #expect(answer5.status == .badRequest, "a Host is still needed")
            let json: HTTPFields = [.contentType: "application/json"]
            for (origin, status) in [
                ("https://tiles.example.org", HTTPResponse.Status.created),
                ("https://tiles.example.org:443", .created),
                // DNS rebinding: the page's own origin is the Host it sends, but not the public URL.
                ("http://rebound.example:8080", .forbidden), ("http://tiles.example.org", .forbidden),
                ("https://tiles.example.org:8443", .forbidden),
            ] {
                var headers = json
                headers[.origin] = origin
                let made = try await send("/api/views", .post, "rebound.example:8080", headers, Self.imageBody)
                #expect(made.status == status, "\(origin)")
            }
        }
    }

    @Test("a second Host header is 400")
    func twoHosts() async throws {
        try await Self.withSocket { send in
            let answer = try await send("/", .get, "localhost", [HTTPField.Name("Host")!: "other.example"], nil)
            #expect(answer.status == .badRequest)
        }
    }

    @Test("the banner: an IPv6 host in brackets, every address as loopback with a note")
    func bannerURL() {
        #expect(ServeBanner.localURL(host: "127.0.0.1", port: 8080) == ("http://127.0.0.1:8080/", false))
        #expect(ServeBanner.localURL(host: "::1", port: 8080) == ("http://[::1]:8080/", false))
        #expect(ServeBanner.localURL(host: "0.0.0.0", port: 80) == ("http://127.0.0.1:80/", true))
        #expect(ServeBanner.localURL(host: "::", port: 9) == ("http://[::1]:9/", true))
        #expect(ServeBanner.localURL(host: "photos.lan", port: 9) == ("http://photos.lan:9/", false))
        let text = ServeBanner.text(root: ServeFixture.root, host: "::", port: 8080)
        #expect(text.contains(" at http://[::1]:8080/ (IIIF: http://[::1]:8080/iiif/3/"), "\(text)")
        #expect(text.contains("every address"), "\(text)")
        #expect(!text.contains("http://:::"), "\(text)")
    }

    @Test("the banner names the first image the server serves, breadth-first, or says there is none")
    func bannerFirstImage() throws {
        try TemporaryFolder.with("banner") { dir in
            let fm = FileManager.default
            let root = dir.appendingPathComponent("root")
            let rocket = Fixtures.sampleImages.appendingPathComponent("rocket.jpg")
            for folder in ["a-empty", "b/deep", "c"] {
                try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try fm.createDirectory(at: root.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
            let empty = try ServeRoot(path: root.path)
            #expect(ServeBanner.firstImage(in: empty) == nil)
            #expect(ServeBanner.text(root: empty, host: "127.0.0.1", port: 1).contains("no image files under it yet"))
            // Refused first entries: a dotfile, a name that is not an image, a link out of the root.
            try fm.copyItem(at: rocket, to: root.appendingPathComponent(".first.jpg"))
            try fm.copyItem(at: rocket, to: root.appendingPathComponent("0-notes.txt"))
            try fm.copyItem(at: rocket, to: dir.appendingPathComponent("outside.jpg"))
            try fm.createSymbolicLink(
                at: root.appendingPathComponent("0-link.jpg"),
                withDestinationURL: dir.appendingPathComponent("outside.jpg"))
            try fm.copyItem(at: rocket, to: root.appendingPathComponent(".hidden/a.jpg"))
            try fm.copyItem(at: rocket, to: root.appendingPathComponent("b/deep/a.jpg"))
            try fm.copyItem(at: rocket, to: root.appendingPathComponent("c/z.jpg"))
            let served = try ServeRoot(path: root.path)
            #expect(ServeBanner.firstImage(in: served)?.identifier == "c/z.jpg", "breadth-first, refused ones skipped")
            let text = ServeBanner.text(root: served, host: "127.0.0.1", port: 8080)
            #expect(
                text
                    == "tileview: serving \(root.path) at http://127.0.0.1:8080/ (IIIF: http://127.0.0.1:8080/iiif/3/c%2Fz.jpg/info.json)\n"
            )
            try fm.copyItem(at: rocket, to: root.appendingPathComponent("z.png"))
            #expect(ServeBanner.firstImage(in: try ServeRoot(path: root.path))?.identifier == "z.png", "the root first")
        }
    }
}

extension HTTPField.Name {
    fileprivate static let secFetchSite = Self("Sec-Fetch-Site")!
}
