import HTTPTypes
import Hummingbird

/// What other sites may do (docs/design.md section 18). Images and their descriptions are for everyone: IIIF and Deep
/// Zoom GETs carry `Access-Control-Allow-Origin: *` and their preflight is answered. Nothing else is shared: the view
/// API (`/api/...`) and every state-changing method (POST, PUT, DELETE, PATCH) on any path are refused with 403
/// when the request comes from another site, and the API takes bodies only as `application/json` (415), which a
/// plain HTML form cannot send.
struct CrossSite<Context: RequestContext>: RouterMiddleware {
    let policy: SitePolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        if request.method == .options, CrossSiteRule.isShared(path), request.headers[.origin] != nil,
            request.headers[.accessControlRequestMethod] != nil
        {
            return CrossSiteRule.preflight
        }
        let api = CrossSiteRule.isAPI(path)
        if api || CrossSiteRule.stateChanging.contains(request.method), let reason = refusal(request) {
            return TileServer.text(.forbidden, reason)
        }
        if api, CrossSiteRule.hasBody(request), !CrossSiteRule.isJSON(request.headers[.contentType]) {
            return TileServer.text(.unsupportedMediaType, "the view API takes request bodies as application/json only")
        }
        return try await next(request, context)
    }

    /// Why a request is taken for another site's, or nil: an `Origin` that is not this server's, or a
    /// `Sec-Fetch-Site` of `cross-site` (or `same-site` without our own `Origin`: a sibling sub-domain is another
    /// origin). `same-origin`, `none` (typed in the address bar) and no header at all (curl, scripts) pass.
    func refusal(_ request: Request) -> String? {
        let origin = request.headers[.origin]
        if let origin, !policy.isOwnOrigin(origin, request) {
            return "requests from another site are refused here (Origin is not this server)"
        }
        switch request.headers[.secFetchSite]?.lowercased() {
        case "cross-site": return "requests from another site are refused here (Sec-Fetch-Site: cross-site)"
        case "same-site" where origin == nil:
            return
                "requests from another site are refused here (Sec-Fetch-Site: same-site without this server's Origin)"
        default: return nil
        }
    }
}

/// The paths and checks of `CrossSite` and `SecurityHeaders`.
enum CrossSiteRule {
    /// Paths whose GET and HEAD answers any origin may read.
    static func isShared(_ path: String) -> Bool {
        path.hasPrefix("/iiif/") || path.hasPrefix("/dzi/")
    }

    static func isAPI(_ path: String) -> Bool {
        path == "/api" || path.hasPrefix("/api/")
    }

    /// The policy of every HTML answer: the server's own script, style sheet, images (and canvases' data and blob
    /// URLs) and API only, and no framing.
    static let contentSecurityPolicy = "default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'"

    static let stateChanging: Set<HTTPRequest.Method> = [.post, .put, .delete, .patch]

    static func hasBody(_ request: Request) -> Bool {
        request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
    }

    /// `application/json`, with or without parameters (`; charset=utf-8`), in any case.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }
        return type.lowercased() == "application/json"
    }

    /// The answer to a CORS preflight of an image or description request.
    static var preflight: Response {
        Response(
            status: .noContent,
            headers: [
                .accessControlAllowOrigin: "*", .accessControlAllowMethods: "GET, HEAD",
                .accessControlAllowHeaders: "If-None-Match", .accessControlMaxAge: "86400",
            ])
    }
}

extension HTTPField.Name {
    /// `Sec-Fetch-Site`: where a browser says a request comes from (`same-origin`, `same-site`, `cross-site`,
    /// `none`).
    static let secFetchSite = Self("Sec-Fetch-Site")!
}
