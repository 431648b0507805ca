import Hummingbird

/// Refuses request bodies over `maxBytes` (by their `Content-Length`) and bodies of unknown length (chunked)
/// with 413, and closes the connection: no route reads a body, so nobody may keep the server draining one.
struct BodyLimit<Context: RequestContext>: RouterMiddleware {
    let maxBytes: Int

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        let chunked = request.headers[.transferEncoding] != nil
        guard chunked || (declared ?? 0) > maxBytes || (request.headers[.contentLength] != nil && declared == nil)
        else {
            return try await next(request, context)
        }
        var response = TileServer.text(
            .contentTooLarge, "request bodies are limited to \(maxBytes) bytes with a Content-Length")
        response.headers[.connection] = "close"
        return response
    }
}
