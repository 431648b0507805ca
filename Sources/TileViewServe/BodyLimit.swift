import Hummingbird

/// Refuses request bodies over `maxBytes` (by their `Content-Length`) and bodies of unknown length (chunked)
/// with 413 and `Connection: close`, before any route runs: no route reads a body. (The HTTP layer still reads
/// and drops what the client goes on sending on that connection; the idle timeout ends a client that stops.)
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
