import FoundationEssentials
import Hummingbird
import TileView
import TileViewIIIF

/// What `tileview serve` is configured with (DESIGN section 10).
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
    public var options: DecodeOptions
    /// Views (DESIGN section 11) open at most, and the seconds an idle view lives.
    public var maxViews: Int
    public var viewIdleSeconds: Double

    /// Seconds a connection may stay idle before it is closed.
    public static let idleTimeoutSeconds: Int64 = 30
    /// The largest request body accepted (the view API's JSON; a bigger body is refused with 413).
    public static let maxRequestBodyBytes = 64 << 10
    /// The largest header line and the largest header block accepted.
    public static let maxHeaderFieldBytes = 8 << 10
    public static let maxHeaderBytes = 32 << 10

    public init(
        root: ServeRoot, host: String = "127.0.0.1", port: Int = 8080, maxArea: Int = 4096 * 4096,
        maxConcurrentRenders: Int = SystemInfo.availableProcessors, cacheBytes: Int = 256 << 20,
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
        self.options = options
    }

    /// The tile cache's share of `cacheBytes`.
    public var tileCacheBytes: Int { cacheBytes - responseCacheBytes }
    /// The encoded answers' share of `cacheBytes`.
    public var responseCacheBytes: Int { cacheBytes / 4 }

    public var limits: IIIFLimits { IIIFLimits(maxArea: maxArea) }
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
    /// The views browsers drive (DESIGN section 11).
    public let views: ViewStore

    public init(settings: ServeSettings) {
        self.settings = settings
        tiles = SharedTileCache(budgetBytes: settings.tileCacheBytes)
        responses = ResponseCache(budgetBytes: settings.responseCacheBytes)
        work = BlockingWork(limit: settings.maxConcurrentRenders)
        views = ViewStore(maxViews: settings.maxViews, idleSeconds: settings.viewIdleSeconds)
    }

    /// The router with every route.
    public func router() -> Router<BasicRequestContext> {
        // HEAD answers as GET would, without the body (Hummingbird makes the HEAD routes from the GET ones).
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: AccessLog(metrics: metrics))
        router.add(middleware: BodyLimit(maxBytes: ServeSettings.maxRequestBodyBytes))
        // Preflight (OPTIONS) and the CORS headers of every answer: any origin may read images and info.
        router.add(
            middleware: CORSMiddleware(
                allowOrigin: .all, allowHeaders: [.ifNoneMatch, .contentType],
                allowMethods: [.get, .head, .post, .delete]))
        router.add(middleware: MethodNotAllowed())
        router.get("/healthz") { _, _ in Self.text(.ok, "ok") }
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
    public func application() -> some ApplicationProtocol {
        Application(
            router: router(),
            server: .http1(
                configuration: .init(
                    idleTimeout: .seconds(ServeSettings.idleTimeoutSeconds),
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: ServeSettings.maxHeaderFieldBytes,
                        maxHeaderListSize: ServeSettings.maxHeaderBytes, maxHeaderFieldCount: 100))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "tileview"))
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
            + ServerMetrics.gaugeText("tileview_views_open", "Views open (image and gallery).", views.count)
            + ServerMetrics.counterText("tileview_views_created_total", "Views made.", views.counters.created)
            + ServerMetrics.counterText(
                "tileview_views_expired_total", "Views let go after being idle too long.", views.counters.expired)
            + ServerMetrics.counterText(
                "tileview_views_dropped_total", "Views dropped, idle longest first, to keep their number bounded.",
                views.counters.dropped)
    }

    // MARK: - IIIF

    func info(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
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

    func iiifImage(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
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
            image throws(ServeError) in
            let resolved: IIIFResolved
            do throws(ImageRequestError) {
                resolved = try parsed.resolve(imageSize: image.imageSize, limits: limits)
            } catch {
                throw .request(error)
            }
            let output = ImageOutput(
                quarterTurns: resolved.rotationDegrees / 90, mirrored: resolved.mirrored,
                gray: resolved.quality == .gray, format: resolved.format == .png ? .png : .jpg)
            return try Self.render(image, file, region: resolved.region, size: resolved.scaledSize, output: output)
        }
    }

    // MARK: - Deep Zoom

    func deepZoomDescriptor(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
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

    func deepZoomTile(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let files = try context.parameters.require("name")
        guard files.hasSuffix("_files"), let file = settings.root.file(forIdentifier: String(files.dropLast(6)))
        else { return Self.notFound }
        let level = try context.parameters.require("level")
        let tile = try context.parameters.require("tile")
        return await answer(request, file: file, key: "dzi/\(level)/\(tile)") { image throws(ServeError) in
            let dzi = DeepZoomImage(size: image.imageSize)
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
            ).intersection(PixelRect(size: image.imageSize))!
            return try Self.render(image, file, region: region, size: levelRect.size, output: ImageOutput(format: .jpg))
        }
    }

    // MARK: - Rendering

    /// Opens `file` over the shared tile cache (its tiles are named by the file's `version`).
    func open(_ file: ServedFile) throws(ServeError) -> TiledImage {
        do throws(TileViewError) {
            return try TiledImage(
                path: file.path, sharedTiles: TiledImage.SharedTiles(cache: tiles, image: file.version),
                options: settings.options)
        } catch {
            throw .image(error)
        }
    }

    /// The answer to an image request: 304 when the client has this version, else the encoded image from the
    /// response cache, from an identical request in flight, or rendered by `render` on a worker thread.
    func answer(
        _ request: Request, file: ServedFile, key: String,
        _ render: @escaping @Sendable (TiledImage) throws(ServeError) -> EncodedImage
    ) async -> Response {
        if let unchanged = Self.notModified(request, file) { return unchanged }
        let cacheKey = file.version + "\u{0}" + key
        if let hit = responses.value(forKey: cacheKey) { return Self.bytes(hit.bytes, type: hit.mediaType, file: file) }
        let result = await coalescer.run(cacheKey) { [self] in
            do throws(ServeError) {
                let encoded = try await work.run { () throws(ServeError) -> EncodedImage in
                    let image = try open(file)
                    let encoded = try render(image)
                    metrics.recordDecoded(bytes: image.bytesDecoded)
                    return encoded
                }
                responses.insert(encoded, forKey: cacheKey)
                return .success(encoded)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let encoded): return Self.bytes(encoded.bytes, type: encoded.mediaType, file: file)
        case .failure(let error): return error.response
        }
    }

    /// `region` of `image` at `size`, turned and encoded as `output` says.
    static func render(
        _ image: TiledImage, _ file: ServedFile, region: PixelRect, size: PixelSize, output: ImageOutput
    ) throws(ServeError) -> EncodedImage {
        do throws(TileViewError) {
            let bytes = try ImageResponse.render(
                image, identifier: file.identifier, region: region, size: size, output: output)
            return EncodedImage(bytes: bytes, mediaType: output.mediaType)
        } catch {
            throw .image(error)
        }
    }

    // MARK: - Responses

    static let cors: HTTPFields = [.accessControlAllowOrigin: "*"]

    static var notFound: Response { text(.notFound, "not found") }

    /// One line of plain text (CORS allowed).
    static func text(_ status: HTTPResponse.Status, _ line: String) -> Response {
        var headers = cors
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: line + "\n")))
    }

    /// An image file that could not be read or decoded: 422 with the reason (the file is named by its identifier).
    static func unprocessable(_ error: TileViewError) -> Response {
        text(.unprocessableContent, error.reason)
    }

    /// A 200 answer with the caching headers of `file`: its entity tag and a day of freshness.
    static func bytes(_ bytes: [UInt8], type: String, file: ServedFile) -> Response {
        var headers = cors
        headers[.contentType] = type
        headers[.eTag] = file.entityTag
        headers[.cacheControl] = "public, max-age=86400"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
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
        var headers = cors
        headers[.eTag] = file.entityTag
        return Response(status: .notModified, headers: headers)
    }

    /// Pretty JSON with sorted keys and unescaped slashes.
    static func json(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// `http://HOST` as the client addressed the server.
    static func baseURI(_ request: Request, _ settings: ServeSettings) -> String {
        let host = request.head.authority ?? "\(settings.host):\(settings.port)"
        return "http://\(host)"
    }
}

/// Why an image request failed inside the worker: the request (400/404/501) or the image (422).
enum ServeError: Error, Sendable {
    case request(ImageRequestError)
    case image(TileViewError)

    var response: Response {
        switch self {
        case .request(let error): TileServer.text(HTTPResponse.Status(code: error.status.rawValue), error.reason)
        case .image(let error): TileServer.unprocessable(error)
        }
    }
}
