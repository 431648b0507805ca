import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging

/// The application `tileview serve` runs, on `settings.host` and `settings.port`: the executable and the tests
/// build it here, so that tests go through the same middleware, routes and configuration.
///
/// `onListening` is called with the port once the socket is bound (the actual port when `--port 0` asked for any),
/// so that the start-up lines announce only a server that listens; `onStopping` is called once when SIGTERM or
/// SIGINT begins the drain.
public func buildApplication(
    settings: ServeSettings,
    onListening: @escaping @Sendable (Int) async -> Void = { _ in },
    onStopping: @escaping @Sendable () -> Void = {}
) throws -> some ApplicationProtocol {
    try buildApplication(TileServer(settings: settings), onListening: onListening, onStopping: onStopping)
}

/// The application over `server`'s state (a test or the executable keeps `server` to read its caches and
/// connections).
public func buildApplication(
    _ server: TileServer,
    onListening: @escaping @Sendable (Int) async -> Void = { _ in },
    onStopping: @escaping @Sendable () -> Void = {}
) throws -> some ApplicationProtocol {
    let settings = server.settings
    let connections = server.connections
    let channel: @Sendable (@escaping HTTPChannelHandler.Responder) -> ServeChannel = { responder in
        ServeChannel(
            responder: responder, registry: connections, idleTimeout: .seconds(settings.idleTimeoutSeconds),
            drainSeconds: settings.drainSeconds, maxHeaderFieldBytes: ServeSettings.maxHeaderFieldBytes,
            maxHeaderBytes: ServeSettings.maxHeaderBytes)
    }
    let http: HTTPServerBuilder
    if let tls = settings.tls {
        let configuration = try tls.configuration()
        http = HTTPServerBuilder { responder in
            try TLSChannel(channel(responder), tlsConfiguration: configuration)
        }
    } else {
        http = HTTPServerBuilder { responder in channel(responder) }
    }
    let port = settings.port
    // One voice at start-up: tileview's own lines say where it serves; the framework's notices stay below
    // warnings (LOG_LEVEL=info or debug brings them back).
    var logger = Logger(label: "tileview")
    logger.logLevel = Environment().get("LOG_LEVEL").flatMap { Logger.Level(rawValue: $0) } ?? .warning
    return Application(
        router: buildRouter(server), server: http,
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "tileview"),
        services: [ShutdownNotice(say: onStopping)] + (server.indexer.map { [IndexingService(indexer: $0)] } ?? []),
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) }, logger: logger)
}

/// The router with every route, behind the middleware every request passes, in order: the access log, the
/// security headers, the body limit, the Host check, the cross-site rules and (under `--users` or `--tokens`) access
/// control.
func buildRouter(_ server: TileServer) -> Router<ServeRequestContext> {
    let settings = server.settings
    // HEAD answers as GET would, without the body (Hummingbird makes the HEAD routes from the GET ones).
    let router = Router(context: ServeRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: AccessLog(metrics: server.metrics))
    // nosniff on every answer, the page headers on HTML, CORS `*` on IIIF and Deep Zoom GETs only.
    router.add(middleware: SecurityHeaders())
    router.add(middleware: BodyLimit(maxBytes: ServeSettings.maxRequestBodyBytes))
    // A Host that does not name the server is 400; another site's API or state-changing request 403.
    let policy = SitePolicy(settings: settings)
    router.add(middleware: HostCheck(policy: policy))
    router.add(middleware: CrossSite(policy: policy))
    // Under --users or --tokens: a session, a bearer token or a share link, else 303 to /login or 401.
    if let access = settings.access {
        router.add(middleware: AccessControl(rules: access, settings: settings, site: policy))
    }
    router.add(middleware: MethodNotAllowed())
    OpsController(server: server).addRoutes(to: router)
    if let access = settings.access {
        LoginController(site: policy, rules: access).addRoutes(to: router)
    }
    let (images, work, budget) = (server.images, server.work, server.budget)
    ImageController(
        settings: settings, site: policy, images: images, responses: server.responses, coalescer: server.coalescer,
        work: work, budget: budget, metrics: server.metrics, indexer: server.indexer
    ).addRoutes(to: router)
    PresentationController(root: settings.root, site: policy, images: images, budget: budget, work: work)
        .addRoutes(to: router)
    ViewController(settings: settings, images: images.inOnePass, work: work, budget: budget, views: server.views)
        .addRoutes(to: router)
    PageController(root: settings.root, maxScale: settings.viewerMaxScale, work: work, budget: budget)
        .addRoutes(to: router)
    return router
}
