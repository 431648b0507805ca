import Hummingbird
import TileView

/// One line per request on standard error: method, path, status, bytes and milliseconds, as an access log
/// has them (`GET /iiif/3/a.jpg/full/max/0/default.jpg 200 48213 B 12.4 ms`), and the request counted in
/// the server's metrics.
struct AccessLog<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await next(request, context)
            line(request, status: response.status.code, bytes: response.body.contentLength, clock.now - start)
            return response
        } catch let error as HTTPResponseError {
            line(request, status: error.status.code, bytes: nil, clock.now - start)
            throw error
        } catch {
            line(request, status: 500, bytes: nil, clock.now - start)
            throw error
        }
    }

    func line(_ request: Request, status: Int, bytes: Int?, _ elapsed: Duration) {
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) * 1e-15
        metrics.record(path: request.uri.path, status: status, seconds: ms / 1000)
        let size = bytes.map { "\($0) B" } ?? "-"
        let tenths = Int((ms * 10).rounded())
        StandardError.write(
            "\(request.method) \(request.uri.path) \(status) \(size) \(tenths / 10).\(tenths % 10) ms\n")
    }
}
