import FoundationEssentials
import HTTPTypes
import Hummingbird
import TileView

/// `GET /login` (the form), `POST /login` (form fields `user`, `password` and `next`, as
/// application/x-www-form-urlencoded) and `POST /logout`, under `--users` (docs/design.md section 18).
///
/// A right name and password set the session cookie (HttpOnly, SameSite=Lax, Secure under HTTPS, `sessionSeconds`
/// long) and redirect (303) to `next` (a path on this server, else `/`). A wrong one answers 401 with the form
/// again and no cookie, after the same bcrypt work whether the user exists or not. A client with too many failures,
/// counting its attempts being checked (`LoginLimiter.admit`), is answered 429 with `Retry-After` before any
/// password is checked; past `LoginLimiter.maxChecking` attempts of all clients at once, 503.
struct LoginController: Sendable {
    let site: SitePolicy
    /// The users, their bcrypt hashes, the session key and the failure limiter.
    let rules: AccessRules
    /// Checks passwords, on half the worker threads at once (at least one).
    let verifying = BlockingWork(limit: SystemInfo.availableProcessors / 2)

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.get("/login", use: form)
        router.post("/login", use: logIn)
        router.post("/logout", use: logOut)
    }

    /// `GET /login`: the form.
    @Sendable func form(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        loginPage(request, next: request.uri.queryParameters["next"].map(String.init), failed: nil)
    }

    /// `POST /logout`: the session cookie cleared, and 303 to the form.
    @Sendable func logOut(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        var response = Response(
            status: .seeOther,
            headers: [
                .location: site.baseURI(request) + "/login", .cacheControl: "no-store",
            ])
        response.headers.append(
            HTTPField(
                name: .setCookie,
                value: AccessControl<ServeRequestContext>.cookie(
                    SessionCookie.name, "", seconds: 0,
                    secure: site.securesCookies(of: rules))))
        return response
    }

    /// `POST /login`: the fields checked, a session on success.
    @Sendable func logIn(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: ServeSettings.maxRequestBodyBytes)
        let form = Self.formFields(String(decoding: body.readableBytesView, as: UTF8.self))
        let user = form["user"] ?? ""
        let password = form["password"] ?? ""
        let next = form["next"]
        let client = loginClient(request, context, user: user)
        switch rules.limiter.admit(client) {
        case .check: break
        case .refused(let seconds):
            var response = TileServer.text(.tooManyRequests, "too many failed logins; try again in \(seconds) s")
            response.headers[.retryAfter] = String(seconds)
            return response
        case .busy:
            var response = TileServer.text(
                .serviceUnavailable, "too many logins are being checked at once; try again in 1 s")
            response.headers[.retryAfter] = "1"
            return response
        }
        // bcrypt is slow: it runs on the worker threads, outside the cooperative pool, on at most half of them, so
        // that renders queued behind logins wait for one password's check at the most.
        let accepted = await verifying.run { rules.verify(user: user, password: password) }
        guard accepted else {
            rules.limiter.failed(client)
            var response = loginPage(request, next: next, failed: "wrong user name or password")
            response.status = .unauthorized
            response.headers[.wwwAuthenticate] = "Bearer realm=\"tileview\""
            return response
        }
        rules.limiter.succeeded(client)
        let expires = rules.clock() + rules.sessionSeconds
        let location = site.baseURI(request) + Self.safeNext(next)
        var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
        response.headers.append(
            HTTPField(
                name: .setCookie,
                value: AccessControl<ServeRequestContext>.cookie(
                    SessionCookie.name, SessionCookie.value(user: user, expires: expires, key: rules.sessionKey),
                    seconds: rules.sessionSeconds,
                    secure: site.securesCookies(of: rules))))
        return response
    }

    /// The login form, with `failed` above it when a try failed.
    func loginPage(_ request: Request, next: String?, failed: String?) -> Response {
        let action = site.baseURI(request) + "/login"
        let message = failed.map { "<p class=\"error\" role=\"alert\">\(HTMLPage.escaped($0))</p>\n" } ?? ""
        var response = HTMLPage.response(
            title: "log in",
            body: """
                <main class="listing">
                <h1>tileview</h1>
                \(message)<form method="post" action="\(HTMLPage.escaped(action))">
                <input type="hidden" name="next" value="\(HTMLPage.escaped(Self.safeNext(next)))">
                <p><label>User <input name="user" autocomplete="username" required autofocus></label></p>
                <p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
                <p><button type="submit">Log in</button></p>
                </form>
                </main>
                """)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `next` when it is a path on this server (one leading `/`, no `//` or `\`, no control characters), else `/`.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), next.utf8.count <= 2048,
            next.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f && $0 != "\\" })
        else { return "/" }
        return next
    }

    /// The header a proxy names the client in.
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    /// Who a failed login counts against: the client's address (`ServeRequestContext.remoteAddress`, from the
    /// connection; behind a `--trusted-proxies` proxy, the address its `X-Forwarded-For` gives), an IPv6 one by its
    /// /64 (`IPAddress.clientKey`: a host has all of them); else the user name tried (a request from no socket, as in
    /// the router tests).
    func loginClient(_ request: Request, _ context: some RequestContext, user: String) -> String {
        guard let text = (context as? any RemoteAddressRequestContext)?.remoteAddress?.ipAddress else {
            return "user " + user
        }
        guard let peer = IPAddress(text) else { return "address " + text }
        let client = IPNetwork.client(
            peer: peer, forwardedFor: request.headers[values: Self.forwardedFor], trusted: site.rules.trustedProxies)
        return "address " + client.clientKey
    }

    /// An application/x-www-form-urlencoded body as its fields (the first of each name).
    static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                ServeRoot.percentDecoded(String(text).replacing("+", with: " ")) ?? ""
            }
            let name = decoded(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decoded(parts[1]) : "" }
        }
        return fields
    }
}
