import Hummingbird

/// Answers 405 with an `Allow` header when a path the server serves is asked with a method it does not take
/// (`TRACE /api/views`, `POST /iiif/3/...`), where the router alone would say 404. Paths the server does not
/// serve stay 404.
struct MethodNotAllowed<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let allowed = Self.allowedMethods(ofRoute: ServerMetrics.route(ofPath: request.uri.path)),
                !allowed.contains(request.method)
            else { throw error }
            let list = allowed.map(\.rawValue).joined(separator: ", ")
            var response = TileServer.text(.methodNotAllowed, "\(request.method) is not allowed here; allowed: \(list)")
            response.headers[.allow] = list
            return response
        }
    }

    /// The methods a route (as `ServerMetrics.route(ofPath:)` names it) takes; nil for paths not served.
    static func allowedMethods(ofRoute route: String) -> [HTTPRequest.Method]? {
        switch route {
        case "other": nil
        case "api-views", "api-view-gestures", "api-view-moves": [.post]
        case "api-view": [.get, .head, .delete]
        default: [.get, .head]
        }
    }
}
