import FoundationEssentials
import Hummingbird
import TileView

/// The view API of docs/design.md section 11 (`/api/views`): views of an image or a folder, driven by the command
/// line's gestures and moves, whose frames are byte for byte what `tileview zoom` and `tileview gallery` write.
/// Each answer is the view's state as JSON (`ViewAnswer`), or the error's status and line (`ViewError`).
struct ViewController: Sendable {
    let settings: ServeSettings
    let images: ServedImages
    let work: BlockingWork
    let budget: WorkBudget
    let views: ViewStore

    /// The largest viewport side a view takes (its area is also bounded by `--max-area`).
    static let maxViewportSide = 4096

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.post("/api/views", use: create)
        router.get("/api/views/:vid", use: show)
        router.post("/api/views/:vid/gestures", use: gesture)
        router.post("/api/views/:vid/moves", use: move)
        router.get("/api/views/:vid/frame.png", use: frame)
        router.delete("/api/views/:vid", use: remove)
    }

    /// `POST /api/views`: opens the view the body asks for (201).
    @Sendable func create(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer(status: .created) { () async throws(ViewError) in
            try await createView(try await ViewRequest.decodeBody(ViewRequest.CreateView.self, request))
        }
    }

    /// `GET /api/views/{vid}`: the view's state.
    @Sendable func show(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer { () async throws(ViewError) in
            let (id, view) = try findView(context)
            return try await work.run { () throws(ViewError) in
                view.withContent { ViewAnswer(view: id, content: $0) }
            }
        }
    }

    /// `POST /api/views/{vid}/gestures`: one gesture in the command line's words, applied to the image or to the
    /// gallery's current page.
    @Sendable func gesture(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        await viewAnswer { () async throws(ViewError) in
            let (id, view) = try findView(context)
            let gesture = try Self.viewGesture(try await ViewRequest.decodeBody(ViewRequest.GestureBody.self, request))
            return try await work.run { () throws(ViewError) in
                try view.withContent { (content) throws(ViewError) in
                    do throws(TileViewError) {
                        switch content {
                        case .image(let session, _): try session.apply(gesture)
                        case .gallery(let session, _, _): try session.apply(.gesture(gesture))
                        }
                    } catch {
                        throw .image(error)
                    }
                    return ViewAnswer(view: id, content: content)
                }
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
            let (id, view) = try findView(context)
            let action = try ViewRequest.parseMove(
                try await ViewRequest.decodeBody(ViewRequest.MoveBody.self, request).text)
            return try await work.run { () throws(ViewError) in
                try view.withContent { (content) throws(ViewError) in
                    guard case .gallery(let session, _, _) = content else {
                        throw .conflict("moves apply to gallery views; this view shows one image")
                    }
                    do throws(TileViewError) {
                        try session.apply(action)
                    } catch {
                        // A goto past the last page is the request's fault; anything else is the image's.
                        throw error.kind == .input ? .badRequest(error.description) : .image(error)
                    }
                    return ViewAnswer(view: id, content: content)
                }
            }
        }
    }

    /// `GET /api/views/{vid}/frame.png`: the frame the view shows now, rendered within the work budget.
    @Sendable func frame(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        do throws(ViewError) {
            let (_, view) = try findView(context)
            let bytes: [UInt8]
            do throws(WorkError<ViewError>) {
                bytes = try await budget.run(bytes: LiveView.frameBytes(view.viewport)) { () throws(ViewError) in
                    try Self.renderPNG(view)
                }
            } catch {
                switch error {
                case .refused(let refusal): return ServeError.refused(refusal, nil).response
                case .failed(let failure): throw failure
                }
            }
            var headers = HTTPFields()
            headers[.contentType] = "image/png"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        } catch {
            return error.response
        }
    }

    static func renderPNG(_ view: LiveView) throws(ViewError) -> [UInt8] {
        try view.withContent { (content) throws(ViewError) -> [UInt8] in
            do throws(TileViewError) {
                switch content {
                case .image(let session, _): return try session.renderPNG()
                case .gallery(let session, _, _): return try session.renderPNG()
                }
            } catch {
                throw .image(error)
            }
        }
    }

    /// `DELETE /api/views/{vid}`: 204, or 404 for a view unknown or expired.
    @Sendable func remove(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("vid")
        guard views.remove(id) else { return TileServer.text(.notFound, "no view \(id) (unknown or expired)") }
        return Response(status: .noContent)
    }

    /// Runs a view request and answers its JSON, or the error's status and line.
    func viewAnswer(
        status: HTTPResponse.Status = .ok, _ body: () async throws(ViewError) -> ViewAnswer
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

    func findView(_ context: ServeRequestContext) throws(ViewError) -> (String, LiveView) {
        let id = context.parameters.get("vid") ?? ""
        guard let view = views.view(id) else { throw .notFound("no view \(id) (unknown or expired)") }
        return (id, view)
    }

    /// Opens the view `body` asks for.
    func createView(_ body: ViewRequest.CreateView) async throws(ViewError) -> ViewAnswer {
        let viewport = PixelSize(width: body.viewport.width, height: body.viewport.height)
        guard (1...Self.maxViewportSide).contains(viewport.width), (1...Self.maxViewportSide).contains(viewport.height)
        else {
            throw .badRequest("the viewport must be 1 to \(Self.maxViewportSide) pixels on each side, got \(viewport)")
        }
        guard viewport.pixelCount <= settings.maxArea else {
            throw .badRequest("the viewport \(viewport) has more pixels than the limit of \(settings.maxArea)")
        }
        let frameBytes = LiveView.frameBytes(viewport)
        guard frameBytes <= budget.capacity(of: budget.lane(for: frameBytes)) else {
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
            guard let file = settings.root.file(forIdentifier: image) else {
                throw .notFound("no image \(image)")
            }
            let view = try await work.run { () throws(ViewError) -> LiveView in
                do throws(TileViewError) {
                    let session = ZoomSession(
                        image: try images.open(file),
                        view: ViewSettings(viewport: viewport, maximumScale: maxScale, options: settings.options))
                    return LiveView(.image(session, identifier: file.identifier))
                } catch {
                    throw .image(error)
                }
            }
            return answer(forNew: view)
        case (nil, let folderID?):
            guard let folder = settings.root.folder(forIdentifier: folderID) else {
                throw .notFound("no folder \(folderID)")
            }
            let peek = body.peek ?? 0
            let gap = body.gap ?? 0
            guard (0...Self.maxViewportSide).contains(peek), (0...Self.maxViewportSide).contains(gap) else {
                throw .badRequest("peek and gap must be whole numbers of pixels from 0 to \(Self.maxViewportSide)")
            }
            let settings = GallerySettings(viewport: viewport, peek: peek, gap: gap, maximumScale: maxScale)
            let view = try await work.run { () throws(ViewError) -> LiveView in
                LiveView(
                    try openGallery(
                        folder, settings: settings, circular: body.circular ?? false, start: body.start?.text))
            }
            return answer(forNew: view)
        default:
            throw .badRequest("give \"image\" or \"folder\", one of them")
        }
    }

    private func answer(forNew view: LiveView) -> ViewAnswer {
        let id = views.insert(view)
        return view.withContent { ViewAnswer(view: id, content: $0) }
    }

    /// A gallery of the images of `folder` in natural order (those the server serves), over the shared tiles.
    func openGallery(_ folder: ServedFolder, settings gallery: GallerySettings, circular: Bool, start: String?)
        throws(ViewError) -> LiveView.Content
    {
        let images = settings.root.contents(of: folder).images
        guard !images.isEmpty else { throw .notFound("the folder \(folder.identifier) has no image files") }
        let names = images.map { ViewAnswer.name(of: $0.identifier) }
        let pages = GalleryPages(
            layout: circular ? .circular(images.count) : .linear(images.count), names: names,
            paths: images.map(\.identifier))
        var startPosition: PageMap.Cell? = nil
        if let start {
            guard let position = pages.position(forStart: start) else {
                throw .notFound("start " + pages.startProblem(start))
            }
            startPosition = position
        }
        var job = GalleryJob(
            pages: pages, settings: gallery, start: startPosition, script: GalleryScript(actions: []),
            options: settings.options)
        // A page's "path" is its identifier, resolved beneath the root again at every open.
        job.opener = self.images.opener
        do throws(TileViewError) {
            let session = try GallerySession(job: job)
            return .gallery(session, folder: folder, identifiers: images.map(\.identifier))
        } catch {
            throw .image(error)
        }
    }
}
