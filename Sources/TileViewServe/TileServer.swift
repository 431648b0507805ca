import FoundationEssentials
import Hummingbird
import NIOCore
import TileView
import TileViewIIIF

/// What every route of `tileview serve` shares: the settings, the caches, the work budget, the connections and the
/// views. `buildApplication(_:)` makes the router and the application from it; each controller holds the parts
/// it needs (`ImageController` the caches and the budget, `ViewController` the views, and so on).
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
    /// Writes coarse levels to the disk cache in the background (with `settings.levelStore` and index workers).
    let indexer: CoarseLevelIndexer?

    /// The server's state; `warn` says what goes wrong with the disk cache (once each), for the server's log.
    public init(settings: ServeSettings, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.settings = settings
        tiles = SharedTileCache(budgetBytes: settings.tileCacheBytes, levelStore: settings.levelStore)
        responses = ResponseCache(budgetBytes: settings.responseCacheBytes)
        work = BlockingWork(limit: settings.maxConcurrentRenders)
        budget = WorkBudget(budgetBytes: settings.workBytes, processors: settings.maxConcurrentRenders)
        connections = ConnectionRegistry(limit: settings.maxConnections)
        views = ViewStore(
            maxViews: settings.maxViews, maxBytes: settings.viewMaxBytes, idleSeconds: settings.viewIdleSeconds,
            now: settings.viewClock)
        let images = ServedImages(root: settings.root, tiles: tiles, options: settings.options)
        if let store = settings.levelStore, settings.indexWorkers > 0 {
            indexer = CoarseLevelIndexer(
                images: images, store: store, budget: budget, workers: settings.indexWorkers, warn: warn)
        } else {
            indexer = nil
        }
    }

    /// How the routes open the root's images: over the shared tiles, from checked descriptors.
    var images: ServedImages { ServedImages(root: settings.root, tiles: tiles, options: settings.options) }
}

/// Opens the images under the root over the shared tile cache (their tiles are named by each file's `version`), for
/// IIIF and Deep Zoom answers and for views alike (a gallery's pages through `opener`): an image is read from the
/// descriptor `ServeRoot` opened and checked, never by its path again, and errors name it by its identifier.
struct ServedImages: Sendable {
    let root: ServeRoot
    let tiles: SharedTileCache
    let options: DecodeOptions
    /// Whether a level read whole is decoded on every processor (`TiledImage.decodesInParts`): for answers whose
    /// plans count the parts (IIIF, Deep Zoom), not for views, whose frames reserve a plan made from the viewport.
    var decodesInParts = true

    /// The same opener for views: every decode in one pass.
    var inOnePass: ServedImages {
        var images = self
        images.decodesInParts = false
        return images
    }

    /// `file` from its descriptor; a listing's entry, which holds none, is resolved beneath the root again first.
    func open(_ file: ServedFile) throws(TileViewError) -> TiledImage {
        guard let descriptor = file.descriptor else { return try open(identifier: file.identifier) }
        let known = tiles.header(ofImage: file.version)
        let image = try TiledImage(
            source: .descriptor(descriptor), name: file.identifier, header: known,
            sharedTiles: TiledImage.SharedTiles(cache: tiles, image: file.version), options: options)
        if known == nil { tiles.keepHeader(image.header, ofImage: file.version) }
        if !decodesInParts { image.decodesInParts = false }
        return image
    }

    /// The image `identifier` names, resolved beneath the root now (the file may have changed or gone since it was
    /// listed).
    func open(identifier: String) throws(TileViewError) -> TiledImage {
        guard let file = root.file(forIdentifier: ServeRoot.percentEncoded(identifier)), file.descriptor != nil else {
            throw TileViewError(.read, path: identifier, reason: "is no longer there")
        }
        return try open(file)
    }

    /// The most layers one served scene may have: each is drawn over the whole frame at worst, so they bound a
    /// frame's work, and the images it opens (each holds a descriptor while the view lives).
    static let mostSceneLayers = 256

    /// The scene `file` holds (read from its descriptor), its image layers resolved beneath the root
    /// (`ServeRoot.layerIdentifier`: relative to the scene's folder, never above the root, links followed only
    /// while they stay beneath it) and opened over the shared tiles; with the files it read, the scene's first.
    /// Errors name the scene by its identifier.
    func openScene(_ file: ServedFile) throws(TileViewError) -> (scene: SceneImage, files: [ServedFile]) {
        guard let descriptor = file.descriptor else {
            throw TileViewError(.read, path: file.identifier, reason: "is no longer there")
        }
        guard file.size <= Scene.largestFileBytes else {
            throw TileViewError(
                .input, path: file.identifier, reason: "is over \(Scene.largestFileBytes >> 20) MiB: not a scene")
        }
        let bytes = descriptor.prefix(file.size)
        guard bytes.count == file.size else {
            throw TileViewError(.read, path: file.identifier, reason: "could not be read whole")
        }
        var files = [file]
        let scene = try SceneImage(name: file.identifier, bytes: bytes, mostLayers: Self.mostSceneLayers) {
            (_, name) throws(TileViewError) in
            guard let identifier = ServeRoot.layerIdentifier(name, ofScene: file.identifier),
                let layer = root.file(forIdentifier: ServeRoot.percentEncoded(identifier))
            else {
                throw TileViewError(.read, path: name, reason: "is no image file beneath the served folder")
            }
            files.append(layer)
            return try open(layer)
        }
        return (scene, files)
    }

    /// A gallery's opener: every time a page is opened (planned or made resident, now or after the files changed),
    /// its identifier is resolved again.
    var opener: PageLoader.PageOpener {
        { identifier, _ throws(TileViewError) -> any ZoomContent in try open(identifier: identifier) }
    }
}

extension TileServer {
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

    /// A 200 answer of `bytes` with the caching headers of `file`: its entity tag and a day of freshness.
    static func bytes(_ bytes: [UInt8], type: String, file: ServedFile) -> Response {
        Self.bytes(ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)), type: type, file: file)
    }

    /// A 200 answer of `body` with the caching headers of `file`.
    static func bytes(_ body: ResponseBody, type: String, file: ServedFile) -> Response {
        var headers: HTTPFields = [.contentType: type]
        headers[.eTag] = file.entityTag
        headers[.cacheControl] = "public, max-age=86400"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Answers up to this size are written without holding budget: the socket's buffer takes them at once.
    static let writtenHoldBytes = 256 << 10

    /// The answer `make` builds around the body of `bytes` already made (an image, a manifest, a view's frame). One
    /// of more than `writtenHoldBytes` keeps its bytes counted in `budget` until it has been written (a slow reader
    /// holds its copy that long), so many slow readers of large answers, cached or not, wait for their share or get
    /// 503 instead of growing the memory. `loop` is the event loop of the request's connection.
    static func written(
        _ bytes: [UInt8], budget: WorkBudget, loop: any EventLoop, _ make: (ResponseBody) -> Response
    ) async -> Response {
        let buffer = ByteBuffer(bytes: bytes)
        guard buffer.readableBytes > writtenHoldBytes else { return make(ResponseBody(byteBuffer: buffer)) }
        let held: HeldBytes
        do throws(WorkBudget.Refusal) {
            held = try await budget.hold(bytes: buffer.readableBytes)
        } catch {
            return ServeError.refused(error, nil).response
        }
        return make(
            ResponseBody(contentLength: buffer.readableBytes) { writer in
                defer { held.release() }
                // Slice by slice (`writePaced`): the answer in one write was let go at once, to a reader that had
                // stopped too; so, it is let go when the reader has taken all but about a slice.
                var rest = buffer
                while rest.readableBytes > 0,
                    let slice = rest.readSlice(length: min(rest.readableBytes, writtenHoldBytes))
                {
                    try await writePaced(slice, to: &writer, loop: loop)
                }
                try await writer.finish(nil)
            })
    }

    /// A document made from a folder (a manifest, a collection, a listing, a gallery page): `make` reads the folder
    /// and makes it on a worker thread once `planned` bytes are free in `budget` (planned from the folder's size,
    /// `FolderSize`, before it is read), and what it makes stays counted until written (`written`), as a render
    /// does; `absent` answers when it makes nothing. One that can never fit is 400 naming `what`, what it needs
    /// and the `--work-mb` that would build it; a full queue or a long wait is 503.
    static func folderDocument(
        _ what: String, planned: Int, budget: WorkBudget, loop: any EventLoop, absent: Response = notFound,
        _ make: @escaping @Sendable () throws -> [UInt8]?, answer: (ResponseBody) -> Response
    ) async throws -> Response {
        let made: [UInt8]?
        do throws(WorkError<any Error>) {
            made = try await budget.run(bytes: planned) { () throws(any Error) -> [UInt8]? in try make() }
        } catch {
            switch error {
            case .refused(let refusal): return folderRefused(refusal, what, "build")
            case .failed(let failure): throw failure
            }
        }
        guard let made else { return absent }
        return await written(made, budget: budget, loop: loop, answer)
    }

    /// A folder's document or view the work budget did not admit: 400 for one that can never fit, naming `what`,
    /// what it needs to `verb` and the `--work-mb` that would; 503 when the budget is busy.
    static func folderRefused(_ refusal: WorkBudget.Refusal, _ what: String, _ verb: String) -> Response {
        guard case .neverFits(let needed, let lane) = refusal else { return ServeError.refused(refusal, nil).response }
        let raise = WorkBudget.budgetMiB(admitting: needed).map { "; --work-mb \($0) or more would \(verb) it" }
        return text(
            .badRequest,
            "\(what) needs about \(MemoryEstimate.mebibytes(needed)) to \(verb), over the "
                + "\(MemoryEstimate.mebibytes(lane)) one answer may hold (--work-mb)" + (raise ?? "")
                + ", or split the folder")
    }

    /// Writes `buffer` and returns once the connection's event loop has taken it. A write returns as soon as the
    /// connection has queued it, and waits only while the connection is not writable, which the connection learns
    /// on its event loop as it writes: without the wait, every write of a body could be queued before the first
    /// reached the socket, however slowly the client reads.
    static func writePaced(
        _ buffer: ByteBuffer, to writer: inout some ResponseBodyWriter, loop: any EventLoop
    ) async throws {
        try await writer.write(buffer)
        try await loop.submit {}.get()
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
}

/// A render the work budget can never admit, as its refusal describes it.
struct RefusedPlan: Sendable {
    /// The parts of what it would hold.
    var memory: MemoryEstimate
    /// The decoder's working memory among them, which no smaller answer reduces, and why the decoder holds it
    /// (`ImageHeader.decodeWorkingReason`).
    var decoderWorkingBytes = 0
    var decoderReason = ""
    /// Whether a client may ask for a smaller size or region instead (an image request's plan).
    var smallerHelps = false

    /// The refusal's line (400): what the answer needs, what one render may hold, and what would change that: a
    /// smaller answer, where one can fit, and the least `--work-mb` that would render this one.
    static func reason(_ plan: RefusedPlan?, needed: Int, lane: Int) -> String {
        let mebibytes = MemoryEstimate.mebibytes
        let over = "over the \(mebibytes(lane)) one render may hold (--work-mb)"
        let raise = WorkBudget.budgetMiB(admitting: needed).map { "--work-mb \($0) or more would render it" }
        guard let plan else {
            return "rendering this answer needs about \(mebibytes(needed)), \(over)" + (raise.map { "; \($0)" } ?? "")
        }
        if plan.decoderWorkingBytes >= lane {
            return "decoding this image needs \(mebibytes(plan.decoderWorkingBytes)) at once whatever the size or "
                + "region (\(plan.decoderReason)), \(over); " + (raise ?? "no budget would render it")
        }
        let advice = [plan.smallerHelps ? "ask for a smaller size or region" : nil, raise].compactMap { $0 }
            .joined(separator: ", or ")
        return "rendering this answer needs \(plan.memory), \(over)" + (advice.isEmpty ? "" : "; \(advice)")
    }
}

/// Why an image request failed inside the worker: the request (400/404/501) or the image (422).
enum ServeError: Error, Sendable {
    case request(ImageRequestError)
    case image(TileViewError)
    /// Not admitted by the work budget (with the plan, when there was one).
    case refused(WorkBudget.Refusal, RefusedPlan?)

    var response: Response {
        switch self {
        case .request(let error): TileServer.text(HTTPResponse.Status(code: error.status.rawValue), error.reason)
        case .image(let error): TileServer.unprocessable(error)
        case .refused(.neverFits(let needed, let lane), let plan):
            TileServer.text(.badRequest, RefusedPlan.reason(plan, needed: needed, lane: lane))
        case .refused(.busy(let seconds), _):
            {
                var response = TileServer.text(.serviceUnavailable, "the server is busy rendering; try again shortly")
                response.headers[.retryAfter] = String(seconds)
                return response
            }()
        }
    }
}
