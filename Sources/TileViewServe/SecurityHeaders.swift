import HTTPTypes
import Hummingbird

/// The headers every answer carries (docs/design.md section 18), errors included: `X-Content-Type-Options: nosniff`
/// everywhere; on HTML a Content-Security-Policy that allows only the server's own script, style sheet, images
/// and API (the pages have no inline script or style: they load `/viewer/viewer.js` and `/viewer/viewer.css`),
/// no framing, and no referrer to other sites; and CORS `*` on IIIF and Deep Zoom GETs and HEADs only, removed
/// from anything else.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            // The router's 404 and other thrown answers: made here so that they carry the headers too.
            response = try error.response(from: request, context: context)
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentType]?.lowercased().hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = CrossSiteRule.contentSecurityPolicy
            response.headers[.xFrameOptions] = "DENY"
            response.headers[.referrerPolicy] = "same-origin"
        }
        if CrossSiteRule.isShared(request.uri.path) && [.get, .head, .options].contains(request.method) {
            response.headers[.accessControlAllowOrigin] = "*"
        } else {
            response.headers[.accessControlAllowOrigin] = nil
        }
        return response
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
