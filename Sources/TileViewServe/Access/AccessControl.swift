import FoundationEssentials
import HTTPTypes
import Hummingbird
import TileView

/// The access rule of `--users` and `--tokens` (docs/design.md section 18). Every request but `/healthz`, `/login`,
/// `/logout` and the viewer's static files (`/viewer/...`, which the login page uses) needs one of:
///
/// - `Authorization: Bearer TOKEN` with a token of `--tokens` (a wrong one is 401 at once);
/// - a session cookie from `POST /login`, signed and not expired, of a user still in `--users`;
/// - a share link (`?exp=&sig=`, with `--sign-key`) for this request's image or folder: a bad or expired one is
///   403 with the reason; a good one also sets the `tileview_share` cookie, so the viewer page's tiles and view API
///   calls are let through for that image or folder (`POST /api/views` by its body's `image` or `folder`, a view's
///   routes by the view's image or folder) until the link expires.
///
/// Otherwise GET and HEAD of the HTML pages (`/`, `/browse/...`, `/view/...`, `/gallery...`) redirect (303) to
/// `/login?next=PATH`, and everything else is 401 with `WWW-Authenticate: Bearer` and a one-line reason. Answers
/// that say `Cache-Control: public` say `private` instead: they are one user's.
struct AccessControl<Context: ShareGrantContext>: RouterMiddleware {
    let rules: AccessRules
    let settings: ServeSettings
    let site: SitePolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if Self.isOpen(path) { return try await next(request, context) }
        var response: Response
        switch try await admit(request) {
        case .refused(let refusal): return refusal
        case .admitted(let admitted, let cookie, let grant):
            var context = context
            context.shareGrant = grant
            response = try await next(admitted, context)
            if let cookie { response.headers.append(HTTPField(name: .setCookie, value: cookie)) }
        }
        if let cache = response.headers[.cacheControl], cache.contains("public") {
            response.headers[.cacheControl] = cache.replacing("public", with: "private")
        }
        return response
    }

    enum Admission {
        /// Let through: the request (its body read when the middleware looked into it), a cookie to set, and the
        /// share grant it came in by (nil for a session or a bearer token).
        case admitted(Request, setCookie: String?, grant: ShareScope?)
        case refused(Response)
    }

    func admit(_ request: Request) async throws -> Admission {
        let path = request.uri.path
        let now = rules.clock()
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer" else {
                return .refused(
                    Self.unauthorized("only Authorization: Bearer TOKEN is taken here", error: "invalid_request"))
            }
            guard rules.acceptsToken(String(parts[1].drop { $0 == " " })) else {
                return .refused(Self.unauthorized("the bearer token is not one of --tokens", error: "invalid_token"))
            }
            return .admitted(request, setCookie: nil, grant: nil)
        }
        var sessionReason = "log in first (POST /login) or send Authorization: Bearer TOKEN"
        if let cookie = request.cookies[SessionCookie.name]?.value {
            switch SessionCookie.verdict(cookie, key: rules.sessionKey, now: now) {
            case .valid(let user) where rules.users[user] != nil: return .admitted(request, setCookie: nil, grant: nil)
            case .valid: sessionReason = "the session's user is no longer in --users; log in again"
            case .expired: sessionReason = "the session has expired; log in again"
            case .invalid: sessionReason = "the session cookie is not valid; log in again"
            }
        }
        if let key = rules.signKey {
            let query = request.uri.queryParameters
            if let exp = query["exp"], let sig = query["sig"] {
                switch ShareLink.verdict(path: path, exp: exp, sig: sig, key: key, now: now) {
                case .badSignature:
                    return .refused(
                        TileServer.text(.forbidden, "the share link's signature is not valid for this path"))
                case .expired: return .refused(TileServer.text(.forbidden, "the share link has expired"))
                case .notShareable:
                    return .refused(
                        TileServer.text(
                            .forbidden, "a share link opens /view/ID or /gallery/FOLDER (and their images) only"))
                case .valid(let scope, let expires):
                    let value = ShareLink.cookieValue(path: path, exp: exp, sig: sig)
                    return .admitted(
                        request, setCookie: cookie(ShareLink.cookieName, value, seconds: expires - now), grant: scope)
                }
            }
            if let value = request.cookies[ShareLink.cookieName]?.value,
                let (signed, exp, sig) = ShareLink.parseCookie(value),
                case .valid(let scope, _) = ShareLink.verdict(path: signed, exp: exp, sig: sig, key: key, now: now)
            {
                var request = request
                if let wanted = try await wanted(&request), scope.covers(wanted) {
                    return .admitted(request, setCookie: nil, grant: scope)
                }
            }
        }
        if Self.isPage(request) {
            let target = path + (request.uri.query.map { "?" + $0 } ?? "")
            let location =
                site.baseURI(request) + "/login?next=" + ServeRoot.percentEncoded(target)
            var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
            response.headers[.contentType] = "text/plain; charset=utf-8"
            return .refused(response)
        }
        return .refused(Self.unauthorized(sessionReason, error: nil))
    }

    /// The image or folder a request reaches, for a share grant: by its path, by its body (`POST /api/views`) or by
    /// its view (`/api/views/VID...`); nil when it reaches neither (or anything else: the listing root, metrics).
    func wanted(_ request: inout Request) async throws -> ShareScope? {
        let path = request.uri.path
        if let scope = ShareScope(path: path) { return scope }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[1] == "api", parts[2] == "views" else { return nil }
        if parts.count == 3 {
            guard request.method == .post else { return nil }
            let body = try await request.collectBody(upTo: ServeSettings.maxRequestBodyBytes)
            guard let source = try? JSONDecoder().decode(RequestedView.self, from: Data(body.readableBytesView)) else {
                return nil
            }
            switch (source.image, source.folder) {
            case (let image?, nil): return ShareScope.identifier(image[...]).map(ShareScope.image)
            case (nil, let folder?):
                return folder.isEmpty ? .folder("") : ShareScope.identifier(folder[...]).map(ShareScope.folder)
            default: return nil
            }
        }
        // The token says what the view shows, under the server's signature.
        guard let token = try? ViewTokens(settings: settings).read(parts[3]) else { return nil }
        switch token.source.content {
        case .image(let identifier): return .image(identifier)
        case .gallery(let folder, _, _, _, _): return .folder(folder)
        }
    }

    /// `Set-Cookie` for `name`: HttpOnly, SameSite=Lax, the whole site, `seconds` long (0 clears it), Secure
    /// under HTTPS.
    func cookie(_ name: String, _ value: String, seconds: Int) -> String {
        Self.cookie(name, value, seconds: seconds, secure: site.securesCookies(of: rules))
    }

    static func cookie(_ name: String, _ value: String, seconds: Int, secure: Bool) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(max(0, seconds)); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// Paths anyone may ask for: the health check, the login form and its style sheet, logging out.
    static func isOpen(_ path: String) -> Bool {
        path == "/healthz" || path == "/login" || path == "/logout" || path.hasPrefix("/viewer/")
    }

    /// A browser's page: sent to the login form when there is no session.
    static func isPage(_ request: Request) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        let path = request.uri.path
        return path == "/" || path == "/gallery" || path.hasPrefix("/gallery/") || path.hasPrefix("/browse/")
            || path.hasPrefix("/view/")
    }

    /// 401 with `WWW-Authenticate: Bearer` (and its `error` when a token was wrong) and the reason.
    static func unauthorized(_ reason: String, error: String?) -> Response {
        var response = TileServer.text(.unauthorized, reason)
        response.headers[.wwwAuthenticate] =
            "Bearer realm=\"tileview\"" + (error.map { ", error=\"\($0)\"" } ?? "")
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

/// The `image` and `folder` of a `POST /api/views` body (other keys ignored here; the route checks them).
private struct RequestedView: Decodable {
    let image: String?
    let folder: String?
}
