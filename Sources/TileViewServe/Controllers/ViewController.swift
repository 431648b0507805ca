import FoundationEssentials
import Hummingbird
import TileView

/// The view API of docs/design.md section 11 (`/api/views`): views of an image or a folder, driven by the command
/// line's gestures and moves, whose frames are byte for byte what `tileview zoom` and `tileview gallery` write.
/// Each answer is the view's state as JSON (`ViewAnswer`), or the error's status and line (`ViewError`).
struct ViewController: Sendable {
    let settings: ServeSettings
    /// Opens a view's images and scenes over the shared tiles, each decoded in one pass.
    let images: ServedImages
    /// The threads frames are rendered on, away from the event loops.
    let work: BlockingWork
    /// The bytes a frame reserves before it is rendered.
    let budget: WorkBudget
    /// The views held live, by token.
    let views: ViewStore

    /// The largest viewport side a view takes (its area is also bounded by `--max-area`).
    static let maxViewportSide = 4096

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.post("/api/views", use: create)
        router.get("/api/views/:vid", use: show)
        router.post("/api/views/:vid/gestures", use: gesture)
        router.post("/api/views/:vid/moves", use: move)
        router.get("/api/views/:vid/frame.png", use: frame)
        router.get("/api/views/:vid/pages", use: pages)
        router.delete("/api/views/:vid", use: remove)
    }

    /// `POST /api/views`: opens the view the body asks for (201).
    @Sendable func create(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer(status: .created) { () async throws(ViewError) in
            let view = try await createView(
                try await ViewRequest.decodeBody(ViewRequest.CreateView.self, request), grant: context.shareGrant)
            let session = ViewStore.newSession()
            views.keep(view, as: session, rebuilt: false)
            return view.withContent { answer(session, view, $0) }
        }
    }

    /// `GET /api/views/{vid}`: the view's state.
    @Sendable func show(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer { () async throws(ViewError) in
            try await onView(context) { (session, view, content) throws(ViewError) in answer(session, view, content) }
        }
    }

    /// `POST /api/views/{vid}/gestures`: one gesture in the command line's words, applied to the image or to the
    /// gallery's current page.
    @Sendable func gesture(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer { () async throws(ViewError) in
            let gesture = try Self.viewGesture(try await ViewRequest.decodeBody(ViewRequest.GestureBody.self, request))
            return try await onView(context) { (session, view, content) throws(ViewError) in
                do throws(TileViewError) {
                    switch content {
                    case .image(let zoom, _): try zoom.apply(gesture)
                    case .gallery(let gallery, _): try gallery.apply(.gesture(gesture))
                    }
                } catch {
                    throw .image(error)
                }
                return answer(session, view, content)
            }
        }
    }

    /// The gesture a body gives, when views take it: 400 for text that is no gesture, and for a fling (a view has
    /// no clock to decelerate on: a client sends the pans it draws). A turn is taken: the placements' states carry
    /// `rotation`, and a client draws them from IIIF tiles requested with that rotation.
    static func viewGesture(_ body: ViewRequest.GestureBody) throws(ViewError) -> ZoomGesture {
        let gesture: ZoomGesture
        do throws(ZoomGestureParseError) {
            gesture = try ZoomGesture(parsing: body.text)
        } catch {
            throw .badRequest("\(error)")
        }
        switch gesture {
        case .fling: throw .badRequest("pan with a velocity is not available in views yet (tileview zoom takes it)")
        default: return gesture
        }
    }

    /// `POST /api/views/{vid}/moves`: one move between a gallery's pages (409 on an image's view).
    @Sendable func move(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer { () async throws(ViewError) in
            let action = try ViewRequest.parseMove(
                try await ViewRequest.decodeBody(ViewRequest.MoveBody.self, request).text)
            return try await onView(context) { (session, view, content) throws(ViewError) in
                guard case .gallery(let gallery, _) = content else {
                    throw .conflict("moves apply to gallery views; this view shows one image")
                }
                do throws(TileViewError) {
                    try gallery.apply(action)
                } catch {
                    // A goto past the last page asks for what this gallery does not have; anything else is the
                    // image's fault.
                    throw error.kind == .input ? .conflict(error.description) : .image(error)
                }
                return answer(session, view, content)
            }
        }
    }

    /// The most pages one `pages` answer names.
    static let pagesPerAnswer = 500

    /// `GET /api/views/{vid}/pages?from=K&count=N`: the identifiers and names of a gallery's pages K to K+N-1 (from 0,
    /// in page order; N 1 to 500, 100 by default; fewer past the last page), for the thumbnail strip of a folder too
    /// large to list in its page. 400 for another range, 409 on an image's view.
    @Sendable func pages(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer { () async throws(ViewError) in
            let query = request.uri.queryParameters
            // A number of pages past any gallery's is past its last page, however many digits it has.
            let fromText = String(query["from"] ?? "0")
            let past = !fromText.isEmpty && fromText.utf8.allSatisfy { (48...57).contains($0) } ? Int.max : nil
            guard let from = Int(fromText) ?? past, from >= 0,
                let count = Int(String(query["count"] ?? "100")), (1...Self.pagesPerAnswer).contains(count)
            else {
                throw .badRequest("from must be a page index from 0, and count 1 to \(Self.pagesPerAnswer)")
            }
            return try await onView(context) { (_, _, content) throws(ViewError) -> PageList in
                guard case .gallery(let gallery, _) = content else {
                    throw .conflict("pages belong to gallery views; this view shows one image")
                }
                let pages = gallery.job.pages
                let start = min(from, pages.count)
                let range = start..<min(start + count, pages.count)
                return PageList(
                    from: start, total: pages.count,
                    ids: range.map { ServeRoot.percentEncoded(pages.paths[$0]) }, names: range.map { pages.names[$0] })
            }
        }
    }

    /// What `pages` answers: the index of the first page named, the gallery's pages, and the pages' IIIF identifiers
    /// (percent-encoded, as in `/iiif/3/{id}`) and file names, in page order.
    struct PageList: Encodable, Sendable {
        let from: Int
        let total: Int
        let ids: [String]
        let names: [String]
    }

    /// `GET /api/views/{vid}/frame.png`: the frame the view shows now, rendered within the work budget.
    @Sendable func frame(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        do throws(ViewError) {
            let token = try readToken(context)
            let grant = context.shareGrant
            // The frame's plan first, from the view's images as they are open (headers only), then its render
            // within the budget, with what rebuilding the view holds when it has not been kept since.
            var plan = try await onView(token, grant: grant) { (_, _, content) throws(ViewError) in
                LiveView.framePlan(
                    token.source.viewport, scene: token.source.isScene, decoding: content.decodePeakBytes,
                    source: content.frameSourceBytes)
            }
            if let (bytes, _) = await rebuilding(token) { plan.add("reopening the gallery", bytes: bytes) }
            let bytes: [UInt8]
            do throws(WorkError<ViewError>) {
                bytes = try await budget.run(bytes: plan.bytes) { () throws(ViewError) in
                    try onView(token, grant: grant) { (_, _, content) throws(ViewError) in
                        try Self.renderPNG(content)
                    }
                }
            } catch {
                switch error {
                case .refused(let refusal): return ServeError.refused(refusal, RefusedPlan(memory: plan)).response
                case .failed(let failure): throw failure
                }
            }
            var headers = HTTPFields()
            headers[.contentType] = "image/png"
            headers[.cacheControl] = "no-store"
            // A large frame stays counted until written, as a large image answer does.
            return await TileServer.written(bytes, budget: budget, loop: context.eventLoop) { body in
                Response(status: .ok, headers: headers, body: body)
            }
        } catch {
            return error.response
        }
    }

    static func renderPNG(_ content: LiveView.Content) throws(ViewError) -> [UInt8] {
        do throws(TileViewError) {
            switch content {
            case .image(let session, _): return try session.renderPNG()
            case .gallery(let session, _): return try session.renderPNG()
            }
        } catch {
            throw .image(error)
        }
    }

    /// `DELETE /api/views/{vid}`: 204, the view closed on this server (its live copy let go, its session refused
    /// here until its tokens would have expired), or the token's refusal. Other servers with the key know nothing of
    /// it and go on answering its tokens until they expire.
    @Sendable func remove(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        do throws(ViewError) {
            let token = try readToken(context)
            views.close(token.session, until: Double(token.expires))
            return Response(status: .noContent)
        } catch {
            return error.response
        }
    }

    /// Runs a view request and answers its JSON (a `ViewAnswer`, or a `PageList`), or the error's status and line.
    func viewAnswer<Answer: Encodable>(
        status: HTTPResponse.Status = .ok, _ body: () async throws(ViewError) -> Answer
    ) async -> Response {
        do throws(ViewError) {
            let answer = try await body()
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            headers[.cacheControl] = "no-store"
            let bytes: [UInt8]
            do { bytes = try TileServer.json(answer) } catch {
                throw .badRequest("the answer could not be encoded: \(error)")
            }
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        } catch {
            return error.response
        }
    }

    /// The answer describing `content` of `view` now, with its new token.
    func answer(_ session: UInt64, _ view: LiveView, _ content: LiveView.Content) -> ViewAnswer {
        let token = ViewTokens(settings: settings).token(
            session: session, source: view.source, place: LiveView.place(of: content))
        return ViewAnswer(view: token, content: content)
    }

    /// The token of the request's path; 404 with the reason when it names no view (malformed, not signed with this
    /// server's key, or expired), so that a client makes a new view as it does for one that expired.
    func readToken(_ context: ServeRequestContext) throws(ViewError) -> ViewToken {
        let token: ViewToken
        do throws(ViewToken.Problem) {
            token = try ViewTokens(settings: settings).read((context.parameters.get("vid") ?? "")[...])
        } catch {
            throw .notFound(error.description)
        }
        guard !views.isClosed(token.session) else { throw .notFound("the view was closed (DELETE)") }
        return token
    }

    /// Runs `body` as blocking work on the view the request's token names, at the place the token says.
    func onView<T: Sendable>(
        _ context: ServeRequestContext,
        _ body: @escaping @Sendable (UInt64, LiveView, LiveView.Content) throws(ViewError) -> T
    ) async throws(ViewError) -> T {
        try await onView(try readToken(context), grant: context.shareGrant, body)
    }

    /// Runs `body` on the view `token` names as blocking work: within the work budget when the view is a gallery to
    /// be rebuilt from its folder (`rebuilding`), else on the blocking-work threads.
    func onView<T: Sendable>(
        _ token: ViewToken, grant: ShareScope?,
        _ body: @escaping @Sendable (UInt64, LiveView, LiveView.Content) throws(ViewError) -> T
    ) async throws(ViewError) -> T {
        let run: @Sendable () throws(ViewError) -> T = { () throws(ViewError) -> T in
            try onView(token, grant: grant, body)
        }
        guard let (bytes, what) = await rebuilding(token) else { return try await work.run(run) }
        return try await withinBudget(bytes, what, run)
    }

    /// What rebuilding the view `token` names holds, and what to call it, when it is a gallery not live at the
    /// token's place: its folder read and its pages (`LiveView.openingBytes`, counted from the folder as it is
    /// now); nil otherwise (an image's or a scene's rebuild holds its header and pyramid, within every plan's
    /// slack; a folder gone is the rebuild's 404).
    func rebuilding(_ token: ViewToken) async -> (bytes: Int, what: String)? {
        guard case .gallery(let folderID, _, _, _, _) = token.source.content else { return nil }
        if let live = views.view(token.session), live.source == token.source,
            live.withContent({ LiveView.place(of: $0) == token.place })
        {
            return nil
        }
        guard
            let (_, size) = await settings.root.sizedFolder(forIdentifier: ServeRoot.percentEncoded(folderID), on: work)
        else { return nil }
        return (LiveView.openingBytes(size), "reopening the gallery of the \(size.entries) entries of \(folderID)")
    }

    /// `body`'s value, computed on a worker thread once `bytes` are free in the work budget; a refusal is
    /// `ViewError.refused`, naming `what`.
    func withinBudget<T: Sendable>(
        _ bytes: Int, _ what: String, _ body: @escaping @Sendable () throws(ViewError) -> T
    ) async throws(ViewError) -> T {
        do throws(WorkError<ViewError>) {
            return try await budget.run(bytes: bytes, body)
        } catch {
            switch error {
            case .refused(let refusal): throw .refused(refusal, what)
            case .failed(let failure): throw failure
            }
        }
    }

    /// Runs `body` on the view `token` names, at the place it says, holding the view's lock: on the live copy when
    /// it is there, else on a copy rebuilt from the token (then kept as the live one). A token of an earlier place
    /// (a second tab, a retried request) is rebuilt too: each answer is the step applied to the place its token says.
    /// A request let through by a share link (`grant`) must be granted every file the view shows.
    func onView<T>(
        _ token: ViewToken, grant: ShareScope?, _ body: (UInt64, LiveView, LiveView.Content) throws(ViewError) -> T
    ) throws(ViewError) -> T {
        if let live = views.view(token.session), live.source == token.source {
            let result = try live.withContent { (content) throws(ViewError) -> T? in
                guard LiveView.place(of: content) == token.place else { return nil }
                try Self.check(grant, reaches: content)
                return try body(token.session, live, content)
            }
            if let result { return result }
        }
        let rebuilt = try rebuild(token)
        views.keep(rebuilt, as: token.session, rebuilt: true)
        return try rebuilt.withContent { (content) throws(ViewError) -> T in
            try Self.check(grant, reaches: content)
            return try body(token.session, rebuilt, content)
        }
    }

    /// 403 when a share grant does not reach every image `content` shows. The middleware checked the view's own
    /// image or folder; a scene also shows its layers, which may lie elsewhere under the root. A link to the scene
    /// itself shares what it shows; a folder's link reaches only the layers inside that folder.
    static func check(_ grant: ShareScope?, reaches content: LiveView.Content) throws(ViewError) {
        guard let grant, case .image(let session, let identifier) = content,
            let scene = session.image as? SceneImage, grant != .image(identifier)
        else { return }
        for image in scene.images where !grant.covers(.image(image.path)) {
            throw .forbidden("the share link does not reach \(image.path), an image of the scene \(identifier)")
        }
    }

    /// The view `token` describes, opened again and moved to its place: 404 when its image or folder is gone or
    /// changed since the view was made (a new view is the way on).
    func rebuild(_ token: ViewToken) throws(ViewError) -> LiveView {
        let source = token.source
        switch (source.content, token.place) {
        case (.image(let identifier), .image(let place)):
            let encoded = ServeRoot.percentEncoded(identifier)
            guard let file = settings.root.viewable(forIdentifier: encoded) else {
                throw .notFound("the view's image \(identifier) is no longer there")
            }
            let changed = ViewError.notFound(
                "the view's image \(identifier) changed since the view was made: open it again")
            // An image is compared before it is opened; a scene's version covers its layers, known once it is open.
            let scene = source.isScene
            guard scene || ViewSource.version(of: file) == source.version else { throw changed }
            let (view, files) = try openImage(file, viewport: source.viewport, maxScale: source.maxScale)
            guard !scene || ViewSource.version(of: files) == source.version else { throw changed }
            try view.withContent { (content) throws(ViewError) in
                guard case .image(let session, _) = content else { return }
                do throws(TileViewError) { try session.restore(place) } catch { throw .image(error) }
            }
            return view
        case (.gallery(let folderID, _, let circular, _, _), .gallery(let place)):
            guard let folder = settings.root.folder(forIdentifier: ServeRoot.percentEncoded(folderID)) else {
                throw .notFound("the view's folder \(folderID) is no longer there")
            }
            let images = settings.root.contents(of: folder).images
            guard !images.isEmpty, ViewSource.version(of: images) == source.version else {
                throw .notFound("the folder \(folderID) changed since the view was made: open it again")
            }
            var action: GalleryAction? = nil
            if let text = place.action {
                do throws(GalleryActionParseError) {
                    action = try GalleryAction(parsing: text)
                } catch {
                    throw .badRequest("the view token's step \(text) is no step: \(error)")
                }
            }
            let job = try galleryJob(images, source: source, circular: circular, start: nil)
            let cell = { (page: Int) in PageMap.Cell(column: page, row: 0) }
            do throws(TileViewError) {
                let planner = try GalleryPlanner(
                    restoring: job.pages.layout, position: cell(place.page), settings: job.settings,
                    zoomPlaces: Dictionary(uniqueKeysWithValues: place.zooms.map { (cell($0.key), $0.value) }),
                    frameIndex: place.frameIndex, action: action, residentBefore: place.residentBefore.map(cell),
                    imageSize: job.imageSizeReader)
                let session = try GallerySession(job: job, restoring: planner)
                return LiveView(
                    .gallery(session, folder: folder), source: source)
            } catch {
                throw .image(error)
            }
        default:
            throw .badRequest("the view token's place is not its kind's")
        }
    }

    /// Opens the view `body` asks for.
    func createView(_ body: ViewRequest.CreateView, grant: ShareScope?) async throws(ViewError) -> LiveView {
        let viewport = PixelSize(width: body.viewport.width, height: body.viewport.height)
        guard (1...Self.maxViewportSide).contains(viewport.width), (1...Self.maxViewportSide).contains(viewport.height)
        else {
            throw .badRequest("the viewport must be 1 to \(Self.maxViewportSide) pixels on each side, got \(viewport)")
        }
        guard viewport.pixelCount <= settings.maxArea else {
            throw .badRequest("the viewport \(viewport) has more pixels than the limit of \(settings.maxArea)")
        }
        let scene = body.image.flatMap(ServeRoot.percentDecoded).map(ServeRoot.isSceneName) ?? false
        // A scene's client draws its frame.png, so a scene's view over the least any frame of the viewport holds
        // (its copies, a band's decoding, no level pixels) could never be shown. An image's or a folder's client
        // draws IIIF tiles: its view opens at any viewport (a 4K window under the default --work-mb), and each
        // frame.png is admitted or refused by its own plan.
        let frameBytes = LiveView.framePlan(viewport, scene: scene, source: 0).bytes
        guard !scene || frameBytes <= budget.capacity(of: budget.lane(for: frameBytes)) else {
            throw .badRequest(
                "a frame of the viewport \(viewport) needs about \(MemoryEstimate.mebibytes(frameBytes)), over the "
                    + "\(MemoryEstimate.mebibytes(budget.capacity(of: .large))) one render may hold (--work-mb)")
        }
        let maxScale = body.maxScale ?? 1
        guard maxScale.isFinite, maxScale > 0, maxScale <= 64 else {
            throw .badRequest("maxScale must be a number above 0 and at most 64")
        }
        switch (body.image, body.folder) {
        case (let image?, nil):
            guard body.circular == nil, body.peek == nil, body.gap == nil, body.start == nil else {
                throw .badRequest("circular, peek, gap and start apply to folder views")
            }
            guard let file = settings.root.viewable(forIdentifier: image) else {
                throw .notFound("no image \(image)")
            }
            return try await work.run { () throws(ViewError) -> LiveView in
                let view = try openImage(file, viewport: viewport, maxScale: maxScale).view
                try view.withContent { (content) throws(ViewError) in try Self.check(grant, reaches: content) }
                return view
            }
        case (nil, let folderID?):
            guard let folder = settings.root.folder(forIdentifier: folderID) else {
                throw .notFound("no folder \(folderID)")
            }
            let peek = body.peek ?? 0
            let gap = body.gap ?? 0
            guard (0...Self.maxViewportSide).contains(peek), (0...Self.maxViewportSide).contains(gap) else {
                throw .badRequest("peek and gap must be whole numbers of pixels from 0 to \(Self.maxViewportSide)")
            }
            let circular = body.circular ?? false
            let start = body.start?.text
            let root = settings.root
            guard let size = await work.run({ root.size(of: folder) }) else { throw .notFound("no folder \(folderID)") }
            let what = "a gallery of the \(size.entries) entries of \(folder.identifier)"
            return try await withinBudget(LiveView.openingBytes(size), what) { () throws(ViewError) -> LiveView in
                let images = root.contents(of: folder).images
                guard !images.isEmpty else { throw .notFound("the folder \(folder.identifier) has no image files") }
                let source = ViewSource(
                    content: .gallery(
                        folder: folder.identifier, pages: images.count, circular: circular, peek: peek, gap: gap),
                    version: ViewSource.version(of: images), viewport: viewport, maxScale: maxScale)
                let job = try galleryJob(images, source: source, circular: circular, start: start)
                do throws(TileViewError) {
                    let session = try GallerySession(job: job)
                    return LiveView(
                        .gallery(session, folder: folder), source: source)
                } catch {
                    throw .image(error)
                }
            }
        default:
            throw .badRequest("give \"image\" or \"folder\", one of them")
        }
    }

    /// A view of `file` at fit: an image, or a scene (a `.json` identifier) with its layers; with the files it
    /// shows, whose version its tokens carry.
    func openImage(_ file: ServedFile, viewport: PixelSize, maxScale: Double) throws(ViewError)
        -> (view: LiveView, files: [ServedFile])
    {
        do throws(TileViewError) {
            let content: any ZoomContent
            var files = [file]
            if ServeRoot.isSceneName(file.identifier) {
                (content, files) = try images.openScene(file)
            } else {
                content = try images.open(file)
            }
            let session = ZoomSession(
                image: content,
                view: ViewSettings(viewport: viewport, maximumScale: maxScale, options: settings.options))
            let source = ViewSource(
                content: .image(identifier: file.identifier), version: ViewSource.version(of: files),
                viewport: viewport, maxScale: maxScale)
            return (LiveView(.image(session, identifier: file.identifier), source: source), files)
        } catch {
            throw .image(error)
        }
    }

    /// The gallery of `images` (a folder's, in natural order) as `source` says, over the shared tiles, on the page
    /// `start` names (a name as listed, or an index from 0; 404 for neither).
    func galleryJob(_ images: [ServedFile], source: ViewSource, circular: Bool, start: String?) throws(ViewError)
        -> GalleryJob
    {
        var peek = 0
        var gap = 0
        if case .gallery(_, _, _, let p, let g) = source.content { (peek, gap) = (p, g) }
        let pages = GalleryPages(
            layout: circular ? .circular(images.count) : .linear(images.count),
            names: images.map { ViewAnswer.name(of: $0.identifier) }, paths: images.map(\.identifier))
        var startPosition: PageMap.Cell? = nil
        if let start {
            guard let position = pages.position(forStart: start) else {
                throw .notFound("start " + pages.startProblem(start))
            }
            startPosition = position
        }
        var job = GalleryJob(
            pages: pages,
            settings: GallerySettings(viewport: source.viewport, peek: peek, gap: gap, maximumScale: source.maxScale),
            start: startPosition, script: GalleryScript(actions: []), options: settings.options)
        // A page's "path" is its identifier, resolved beneath the root again at every open.
        job.opener = self.images.opener
        return job
    }
}
