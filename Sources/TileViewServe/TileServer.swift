import FoundationEssentials
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import TileView
import TileViewIIIF

/// What `tileview serve` is configured with (docs/design.md section 10).
public struct ServeSettings: Sendable {
    public var root: ServeRoot
    public var host: String
    public var port: Int
    /// `--max-area`: the largest response in pixels (width * height), refused before any decoding.
    public var maxArea: Int
    /// Decodes and encodes running at once (each holds one band of rows and one response).
    public var maxConcurrentRenders: Int
    /// `--cache-mb`: the bytes of the caches together: three quarters for decoded tiles (shared by every image),
    /// one quarter for encoded answers.
    public var cacheBytes: Int
    /// `--work-mb`: the bytes renders hold at once (plans, docs/design.md section 18), beside the caches.
    public var workBytes: Int
    /// `--max-connections`: connections open at once (see `ConnectionRegistry`).
    public var maxConnections = 1024
    /// `--drain-seconds`: how long SIGTERM waits for answers in flight to be written whole.
    public var drainSeconds: Int64 = 30
    /// `--tls-cert` and `--tls-key`: HTTPS instead of HTTP.
    public var tls: TLSFiles?
    public var options: DecodeOptions
    /// Views (docs/design.md section 11) open at most, and the seconds an idle view lives.
    public var maxViews: Int
    public var viewIdleSeconds: Double
    /// The time views' idleness is measured by: the continuous clock, or a test's own, to expire views without
    /// waiting.
    public var viewClock: @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    /// `--public-url` and `--allowed-hosts` (docs/design.md section 18): the `Host` names accepted and the base of ids.
    public var site = SiteRules()
    /// `--users`, `--tokens`, `--session-key` and `--sign-key` (docs/design.md section 18): nil lets every request in.
    public var access: AccessRules?

    /// Seconds a connection may stay idle before it is closed (slow and half-sent requests are reaped by it).
    public var idleTimeoutSeconds: Int64 = 30
    /// The largest request body accepted (the view API's JSON; a bigger body is refused with 413).
    public static let maxRequestBodyBytes = 64 << 10
    /// The largest header line and the largest header block accepted.
    public static let maxHeaderFieldBytes = 8 << 10
    public static let maxHeaderBytes = 32 << 10

    public init(
        root: ServeRoot, host: String = "127.0.0.1", port: Int = 8080, maxArea: Int = 4096 * 4096,
        maxConcurrentRenders: Int = SystemInfo.availableProcessors, cacheBytes: Int = 256 << 20,
        workBytes: Int = 128 << 20,
        options: DecodeOptions = DecodeOptions(), maxViews: Int = 64, viewIdleSeconds: Double = 900
    ) {
        self.maxViews = maxViews
        self.viewIdleSeconds = viewIdleSeconds
        self.root = root
        self.host = host
        self.port = port
        self.maxArea = maxArea
        self.maxConcurrentRenders = maxConcurrentRenders
        self.cacheBytes = cacheBytes
        self.workBytes = workBytes
        self.options = options
    }

    /// The tile cache's share of `cacheBytes`.
    public var tileCacheBytes: Int { cacheBytes - responseCacheBytes }
    /// The encoded answers' share of `cacheBytes`.
    public var responseCacheBytes: Int { cacheBytes / 4 }

    /// The largest answer in pixels that the work budget can render, `maxArea` when that is smaller: what info.json
    /// advertises, so that `max` and `^max` are always answers the server can give. A turned or gray PNG plans about
    /// 16 bytes a pixel (the frame, its turned copy, the encoder's rows and output), and 16 MiB more covers the
    /// filter, the source and the decoder; the large lane holds three quarters of `--work-mb`.
    public var effectiveMaxArea: Int {
        let lane = workBytes - workBytes / 4 - (16 << 20)
        return min(maxArea, max(256 * 256, lane / 16))
    }

    public var limits: IIIFLimits { IIIFLimits(maxArea: effectiveMaxArea) }
}

/// The routes of the server: IIIF Image API 3.0, Deep Zoom and `/healthz`, over `ServeRoot` and the library.
///
/// Every answer that is not an image is one line of plain text. Unknown or refused identifiers are 404 whether
/// the file exists or not; a bad request part is 400, a valid one not offered 501 (`ImageRequestError`), an
/// unreadable or damaged image 422 with the decoder's reason, and the server goes on serving.
public struct TileServer: Sendable {
    public let settings: ServeSettings
    public let metrics = ServerMetrics()
    /// Decoded tiles of every image, shared by all requests.
    public let tiles: SharedTileCache
    /// Encoded answers to image requests.
    public let responses: ResponseCache
    let coalescer = RequestCoalescer<Result<EncodedImage, ServeError>>()
    let work: BlockingWork
    /// The open connections (`--max-connections`).
    public let connections: ConnectionRegistry
    /// The memory and threads renders share (`--work-mb`).
    public let budget: WorkBudget
    /// The views browsers drive (docs/design.md section 11).
    public let views: ViewStore

    public init(settings: ServeSettings) {
        self.settings = settings
        tiles = SharedTileCache(budgetBytes: settings.tileCacheBytes)
        responses = ResponseCache(budgetBytes: settings.responseCacheBytes)
        work = BlockingWork(limit: settings.maxConcurrentRenders)
        budget = WorkBudget(budgetBytes: settings.workBytes, processors: settings.maxConcurrentRenders)
        connections = ConnectionRegistry(limit: settings.maxConnections)
        views = ViewStore(maxViews: settings.maxViews, idleSeconds: settings.viewIdleSeconds, now: settings.viewClock)
    }

    /// The router with every route.
    public func router() -> Router<ServeRequestContext> {
        // HEAD answers as GET would, without the body (Hummingbird makes the HEAD routes from the GET ones).
        let router = Router(context: ServeRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: AccessLog(metrics: metrics))
        // nosniff on every answer, the page headers on HTML, CORS `*` on IIIF and Deep Zoom GETs only.
        router.add(middleware: SecurityHeaders())
        router.add(middleware: BodyLimit(maxBytes: ServeSettings.maxRequestBodyBytes))
        // A Host that does not name the server is 400; another site's API or state-changing request 403.
        let policy = SitePolicy(settings: settings)
        router.add(middleware: HostCheck(policy: policy))
        router.add(middleware: CrossSite(policy: policy))
        // Under --users or --tokens: a session, a bearer token or a share link, else 303 to /login or 401.
        if let access = settings.access {
            router.add(middleware: AccessControl(rules: access, settings: settings, views: views))
        }
        router.add(middleware: MethodNotAllowed())
        router.get("/healthz") { _, _ in Self.text(.ok, "ok") }
        addLoginRoutes(to: router)
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: await metricsText())))
        }
        router.get("/iiif/3/:id") { request, context in
            let id = try context.parameters.require("id")
            guard settings.root.file(forIdentifier: id) != nil else { return Self.notFound }
            let location = Self.baseURI(request, settings) + "/iiif/3/\(id)/info.json"
            return Response(status: .seeOther, headers: [.location: location] + Self.cors)
        }
        router.get("/iiif/3/:id/info.json") { request, context in
            try await info(request, context)
        }
        router.get("/iiif/3/:id/:region/:size/:rotation/:quality") { request, context in
            try await iiifImage(request, context)
        }
        router.get("/dzi/:name") { request, context in
            try await deepZoomDescriptor(request, context)
        }
        router.get("/dzi/:name/:level/:tile") { request, context in
            try await deepZoomTile(request, context)
        }
        addViewRoutes(to: router)
        addViewerPages(to: router)
        return router
    }

    /// The application on `settings.host` and `settings.port`.
    /// The application; `onListening` is called with the port once the socket is bound (the actual port when
    /// `--port 0` asked for any), so that the start-up lines announce only a server that listens.
    /// `onStopping` is called once when SIGTERM or SIGINT begins the drain.
    public func application(
        onListening: @escaping @Sendable (Int) async -> Void = { _ in },
        onStopping: @escaping @Sendable () -> Void = {}
    ) throws -> some ApplicationProtocol {
        let channel: @Sendable (@escaping HTTPChannelHandler.Responder) -> ServeChannel = { [connections] responder in
            ServeChannel(
                responder: responder, registry: connections, idleTimeout: .seconds(settings.idleTimeoutSeconds),
                drainSeconds: settings.drainSeconds, maxHeaderFieldBytes: ServeSettings.maxHeaderFieldBytes,
                maxHeaderBytes: ServeSettings.maxHeaderBytes)
        }
        let server: HTTPServerBuilder
        if let tls = settings.tls {
            let configuration = try tls.configuration()
            server = HTTPServerBuilder { responder in
                try TLSChannel(channel(responder), tlsConfiguration: configuration)
            }
        } else {
            server = HTTPServerBuilder { responder in channel(responder) }
        }
        let port = settings.port
        // One voice at start-up: tileview's own lines say where it serves; the framework's notices stay below
        // warnings (LOG_LEVEL=info or debug brings them back).
        var logger = Logger(label: "tileview")
        logger.logLevel = Environment().get("LOG_LEVEL").flatMap { Logger.Level(rawValue: $0) } ?? .warning
        return Application(
            router: router(), server: server,
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "tileview"),
            services: [ShutdownNotice(say: onStopping)],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// `/metrics`: the request figures, then the caches'.
    func metricsText() async -> String {
        metrics.text()
            + ServerMetrics.cacheText(
                name: "tileview_tile_cache", what: "decoded tiles shared by all images", budget: tiles.budgetBytes,
                statistics: tiles.statistics)
            + ServerMetrics.counterText(
                "tileview_tile_bands_decoded_total", "Bands of tiles decoded (one row of tiles across a level).",
                tiles.bandsDecoded)
            + ServerMetrics.counterText(
                "tileview_tile_index_decodes_total",
                "Rects of tiles decoded alone through a JPEG's entropy index (levels larger than half the tile cache).",
                tiles.indexedDecodes)
            + ServerMetrics.counterText(
                "tileview_jpeg_lossless_crops_total",
                "JPEG answers cut from a file's own coefficients, without decoding (a region on the MCU grid at its own size).",
                tiles.losslessCrops)
            + ServerMetrics.counterText(
                "tileview_tile_band_waits_total", "Times a request waited for a band another request was decoding.",
                tiles.coalescedWaits)
            + ServerMetrics.cacheText(
                name: "tileview_response_cache", what: "encoded image answers", budget: responses.budgetBytes,
                statistics: responses.statistics)
            + ServerMetrics.counterText(
                "tileview_requests_coalesced_total",
                "Image requests answered by an identical request in flight.", await coalescer.joined)
            + workText()
            + ServerMetrics.gaugeText("tileview_views_open", "Views open (image and gallery).", views.count)
            + ServerMetrics.counterText("tileview_views_created_total", "Views made.", views.counters.created)
            + ServerMetrics.counterText(
                "tileview_views_expired_total", "Views let go after being idle too long.", views.counters.expired)
            + ServerMetrics.counterText(
                "tileview_views_dropped_total", "Views dropped, idle longest first, to keep their number bounded.",
                views.counters.dropped)
    }

    /// The 200 answer of `encoded`. An answer of more than `writtenHoldBytes` keeps its bytes counted in the work
    /// budget until it has been written (a slow reader holds its copy that long), so many slow readers of large
    /// answers, cached or not, wait for their share or get 503 instead of growing the memory.
    func written(_ encoded: EncodedImage, file: ServedFile) async -> Response {
        guard encoded.bytes.count > Self.writtenHoldBytes else {
            return Self.bytes(encoded.bytes, type: encoded.mediaType, file: file)
        }
        do throws(WorkBudget.Refusal) {
            let held = try await budget.hold(bytes: encoded.bytes.count)
            return Self.bytes(encoded.bytes, type: encoded.mediaType, file: file, held: held)
        } catch {
            return ServeError.refused(error, nil).response
        }
    }

    /// Answers up to this size are written without holding budget: the socket's buffer takes them at once.
    static let writtenHoldBytes = 256 << 10

    /// `/metrics`: the work budget's and the connections' figures.
    func workText() -> String {
        let work = budget.figures
        let open = connections.figures
        return ServerMetrics.gaugeText(
            "tileview_work_budget_bytes", "The bytes renders may hold (--work-mb).", budget.budgetBytes)
            + ServerMetrics.gaugeText(
                "tileview_work_bytes", "Bytes renders and answers being written hold now.", work.used)
            + ServerMetrics.gaugeText(
                "tileview_work_peak_bytes", "The most bytes renders have held at once.", work.peak)
            + ServerMetrics.gaugeText("tileview_work_queued", "Renders waiting for their bytes.", work.queued)
            + ServerMetrics.counterText(
                "tileview_work_refused_busy_total", "Renders refused with 503: a full queue or a long wait.", work.busy)
            + ServerMetrics.counterText(
                "tileview_work_refused_too_large_total", "Renders refused with 400: a plan larger than its lane.",
                work.neverFits)
            + ServerMetrics.gaugeText("tileview_connections_open", "Connections open.", open.open)
            + ServerMetrics.counterText(
                "tileview_connections_shed_total", "Connections closed to make room (--max-connections).", open.shed)
            + ServerMetrics.counterText(
                "tileview_connections_refused_total", "Connections closed at once: every one was being answered.",
                open.refused)
    }

    // MARK: - IIIF

    func info(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let file = settings.root.file(forIdentifier: id) else { return Self.notFound }
        if let unchanged = Self.notModified(request, file) { return unchanged }
        let size: PixelSize
        do throws(ServeError) {
            size = try await work.run { () throws(ServeError) in try open(file).imageSize }
        } catch {
            return error.response
        }
        let base = Self.baseURI(request, settings) + "/iiif/3/" + id
        let document = IIIFInfo(id: base, imageSize: size, limits: settings.limits)
        return Self.bytes(
            try Self.json(document), type: "application/ld+json;profile=\"http://iiif.io/api/image/3/context.json\"",
            file: file)
    }

    func iiifImage(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let file = settings.root.file(forIdentifier: id) else { return Self.notFound }
        let parts = try ["region", "size", "rotation", "quality"].map { name in
            ServeRoot.percentDecoded(try context.parameters.require(name)) ?? ""
        }
        let parsed: IIIFImageRequest
        do {
            parsed = try IIIFImageRequest(
                region: parts[0], size: parts[1], rotation: parts[2], qualityAndFormat: parts[3])
        } catch {
            return Self.text(HTTPResponse.Status(code: error.status.rawValue), error.reason)
        }
        let limits = settings.limits
        return await answer(request, file: file, key: "iiif/" + parts.joined(separator: "/")) {
            imageSize throws(ServeError) in
            let resolved: IIIFResolved
            do throws(ImageRequestError) {
                resolved = try parsed.resolve(imageSize: imageSize, limits: limits)
            } catch {
                throw .request(error)
            }
            let output = ImageOutput(
                quarterTurns: resolved.rotationDegrees / 90, mirrored: resolved.mirrored,
                gray: resolved.quality == .gray, format: ImageOutput.Format(rawValue: resolved.format.rawValue) ?? .jpg)
            return ImageRequestPlan.Wanted(region: resolved.region, size: resolved.scaledSize, output: output)
        }
    }

    // MARK: - Deep Zoom

    func deepZoomDescriptor(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard name.hasSuffix(".dzi"), let file = settings.root.file(forIdentifier: String(name.dropLast(4))) else {
            return Self.notFound
        }
        if let unchanged = Self.notModified(request, file) { return unchanged }
        do throws(ServeError) {
            let size = try await work.run { () throws(ServeError) in try open(file).imageSize }
            let xml = DeepZoomImage(size: size).dziXML
            return Self.bytes(Array(xml.utf8), type: "application/xml", file: file)
        } catch {
            return error.response
        }
    }

    func deepZoomTile(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let files = try context.parameters.require("name")
        guard files.hasSuffix("_files"), let file = settings.root.file(forIdentifier: String(files.dropLast(6)))
        else { return Self.notFound }
        let level = try context.parameters.require("level")
        let tile = try context.parameters.require("tile")
        return await answer(request, file: file, key: "dzi/\(level)/\(tile)") { imageSize throws(ServeError) in
            let dzi = DeepZoomImage(size: imageSize)
            let levelRect: PixelRect
            let path: DeepZoomTilePath
            do throws(ImageRequestError) {
                path = try DeepZoomTilePath(parsing: "\(level)/\(tile)")
                levelRect = try dzi.tileRect(for: path)
            } catch {
                throw .request(error)
            }
            // Level L is the image scaled by 1 / 2^(maxLevel - L) (sizes rounded up): its pixels come from that
            // rect of the image, clipped at the right and bottom edges.
            let factor = 1 << (dzi.maxLevel - path.level)
            let region = PixelRect(
                x: levelRect.x * factor, y: levelRect.y * factor, width: levelRect.width * factor,
                height: levelRect.height * factor
            ).intersection(PixelRect(size: imageSize))!
            return ImageRequestPlan.Wanted(region: region, size: levelRect.size, output: ImageOutput(format: .jpg))
        }
    }

    // MARK: - Rendering

    /// Opens `file` over the shared tile cache (its tiles are named by the file's `version`): the image is read
    /// from the descriptor `ServeRoot` opened and checked (never by its path again), and errors name the file by
    /// its identifier. A listing's entry, which holds no descriptor, is resolved again first.
    func open(_ file: ServedFile) throws(ServeError) -> TiledImage {
        guard let descriptor = file.descriptor else {
            guard let opened = settings.root.file(forIdentifier: ServeRoot.percentEncoded(file.identifier)),
                opened.descriptor != nil
            else {
                throw .image(TileViewError(.read, path: file.identifier, reason: "is no longer there"))
            }
            return try open(opened)
        }
        do throws(TileViewError) {
            return try TiledImage(
                source: .descriptor(descriptor), name: file.identifier,
                sharedTiles: TiledImage.SharedTiles(cache: tiles, image: file.version), options: settings.options)
        } catch {
            throw .image(error)
        }
    }

    /// The answer to an image request: 304 when the client has this version, else the encoded image from the
    /// response cache, from an identical request in flight, or rendered on a worker thread.
    ///
    /// Admission (docs/design.md section 18): the header is read and `wanted` resolves the request against the image's
    /// size (400/501 for a bad one); then the render's plan is worked out before any pixel memory (`ImageRequestPlan`),
    /// and the render waits in `budget` until its bytes are free: a plan that can never fit is 400 with its parts, a
    /// full queue or a long wait 503 with `Retry-After`. An answer too large for the response cache keeps its bytes
    /// counted in the budget until it has been written.
    func answer(
        _ request: Request, file: ServedFile, key: String,
        _ wanted: @escaping @Sendable (PixelSize) throws(ServeError) -> ImageRequestPlan.Wanted
    ) async -> Response {
        if let unchanged = Self.notModified(request, file) { return unchanged }
        let cacheKey = file.version + "\u{0}" + key
        if let hit = responses.value(forKey: cacheKey) { return await written(hit, file: file) }
        let result = await coalescer.run(cacheKey) { [self] () async -> Result<EncodedImage, ServeError> in
            do throws(ServeError) {
                let planned = try await work.run { () throws(ServeError) -> ImageRequestPlan in
                    let image = try open(file)
                    let request = try wanted(image.imageSize)
                    try ImageRequestPlan.checkEncodable(request)
                    return ImageRequestPlan(image: image, wanted: request, fileBytes: file.size)
                }
                let encoded: EncodedImage
                do throws(WorkError<ServeError>) {
                    encoded = try await budget.run(bytes: planned.bytes) { () throws(ServeError) -> EncodedImage in
                        let encoded = try planned.render(identifier: file.identifier)
                        metrics.recordDecoded(bytes: planned.image.bytesDecoded)
                        return encoded
                    }
                } catch {
                    switch error {
                    case .refused(let refusal): throw .refused(refusal, planned.memory)
                    case .failed(let failure): throw failure
                    }
                }
                responses.insert(encoded, forKey: cacheKey)
                return .success(encoded)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let encoded): return await written(encoded, file: file)
        case .failure(let error): return error.response
        }
    }

    // MARK: - Responses

    /// CORS for everyone: `SecurityHeaders` sets it on IIIF and Deep Zoom GETs and removes it from anything else.
    static let cors: HTTPFields = [.accessControlAllowOrigin: "*"]

    static var notFound: Response { text(.notFound, "not found") }

    /// One line of plain text.
    static func text(_ status: HTTPResponse.Status, _ line: String) -> Response {
        let headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: line + "\n")))
    }

    /// An image file that could not be read or decoded: 422 with the reason (the file is named by its identifier).
    static func unprocessable(_ error: TileViewError) -> Response {
        text(.unprocessableContent, error.reason)
    }

    /// A 200 answer with the caching headers of `file`: its entity tag and a day of freshness.
    /// With `held`, the budget's bytes are given back once the body has been written (or the write failed).
    static func bytes(_ bytes: [UInt8], type: String, file: ServedFile, held: HeldBytes? = nil) -> Response {
        var headers: HTTPFields = [.contentType: type]
        headers[.eTag] = file.entityTag
        headers[.cacheControl] = "public, max-age=86400"
        let buffer = ByteBuffer(bytes: bytes)
        guard let held else { return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer)) }
        let body = ResponseBody(contentLength: buffer.readableBytes) { writer in
            defer { held.release() }
            try await writer.write(buffer)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// 304 when the request's `If-None-Match` names the file's current entity tag.
    static func notModified(_ request: Request, _ file: ServedFile) -> Response? {
        guard let tags = request.headers[.ifNoneMatch] else { return nil }
        let matches = tags.split(separator: ",").contains { raw in
            var tag = raw.drop(while: { $0 == " " })
            while tag.last == " " { tag = tag.dropLast() }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            return tag == file.entityTag || tag == "*"
        }
        guard matches else { return nil }
        return Response(status: .notModified, headers: [.eTag: file.entityTag])
    }

    /// Pretty JSON with sorted keys and unescaped slashes.
    static func json(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// The base of absolute URLs: `--public-url`, else `http://HOST` as the client addressed the server (a Host
    /// that `HostCheck` accepted, written back only as a host name and port).
    static func baseURI(_ request: Request, _ settings: ServeSettings) -> String {
        SitePolicy(settings: settings).baseURI(request)
    }
}

/// Why an image request failed inside the worker: the request (400/404/501) or the image (422).
enum ServeError: Error, Sendable {
    case request(ImageRequestError)
    case image(TileViewError)
    /// Not admitted by the work budget (with the plan's parts, when there was one).
    case refused(WorkBudget.Refusal, MemoryEstimate?)

    var response: Response {
        switch self {
        case .request(let error): TileServer.text(HTTPResponse.Status(code: error.status.rawValue), error.reason)
        case .image(let error): TileServer.unprocessable(error)
        case .refused(.neverFits(let needed, let lane), let plan):
            TileServer.text(
                .badRequest,
                "rendering this answer needs \(plan?.description ?? MemoryEstimate.mebibytes(needed)), over the "
                    + "\(MemoryEstimate.mebibytes(lane)) one render may hold (--work-mb); ask for a smaller size or region"
            )
        case .refused(.busy(let seconds), _):
            {
                var response = TileServer.text(.serviceUnavailable, "the server is busy rendering; try again shortly")
                response.headers[.retryAfter] = String(seconds)
                return response
            }()
        }
    }
}
