import FoundationEssentials
import Hummingbird
import TileView

/// The view API of docs/design.md section 11: views of an image or a folder, driven by the command line's gestures and
/// moves, whose frames are byte for byte what `tileview zoom` and `tileview gallery` write.
extension TileServer {
    /// What `POST /api/views` takes. Unknown keys are refused, as the OpenAPI document says.
    struct CreateView: Decodable {
        struct Viewport: Decodable {
            let width: Int
            let height: Int

            enum CodingKeys: String, CodingKey, CaseIterable { case width, height }

            init(from decoder: any Decoder) throws {
                try TileServer.refuseUnknownKeys(decoder, CodingKeys.self)
                let c = try decoder.container(keyedBy: CodingKeys.self)
                width = try c.decode(Int.self, forKey: .width)
                height = try c.decode(Int.self, forKey: .height)
            }
        }

        /// A page to start on: a name as listed, or an index from 0 (a number or a string).
        struct Start: Decodable {
            let text: String
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let index = try? c.decode(Int.self) {
                    text = String(index)
                } else if let number = try? c.decode(Double.self) {
                    text = String(number)  // not a page index (too large, or a fraction): "not found"
                } else {
                    text = try c.decode(String.self)
                }
            }
        }

        let image: String?
        let folder: String?
        let viewport: Viewport
        let circular: Bool?
        let peek: Int?
        let gap: Int?
        let start: Start?
        let maxScale: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case image, folder, viewport, circular, peek, gap, start, maxScale
        }

        init(from decoder: any Decoder) throws {
            try TileServer.refuseUnknownKeys(decoder, CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            // A key may be left out, but not given as null (the schema has no nulls).
            func optional<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
                c.contains(key) ? try c.decode(type, forKey: key) : nil
            }
            image = try optional(String.self, .image)
            folder = try optional(String.self, .folder)
            viewport = try c.decode(Viewport.self, forKey: .viewport)
            circular = try optional(Bool.self, .circular)
            peek = try optional(Int.self, .peek)
            gap = try optional(Int.self, .gap)
            start = try optional(Start.self, .start)
            maxScale = try optional(Double.self, .maxScale)
        }
    }

    /// `{"gesture": TEXT}`.
    struct GestureBody: Decodable {
        let gesture: String
        enum CodingKeys: String, CodingKey, CaseIterable { case gesture }
        init(from decoder: any Decoder) throws {
            try TileServer.refuseUnknownKeys(decoder, CodingKeys.self)
            gesture = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .gesture)
        }
    }

    /// `{"move": TEXT}`.
    struct MoveBody: Decodable {
        let move: String
        enum CodingKeys: String, CodingKey, CaseIterable { case move }
        init(from decoder: any Decoder) throws {
            try TileServer.refuseUnknownKeys(decoder, CodingKeys.self)
            move = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .move)
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws when the object being decoded has a key `Keys` does not list.
    static func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_ decoder: any Decoder, _ keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let c = try decoder.container(keyedBy: AnyKey.self)
        if let extra = c.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: c.codingPath + [extra], debugDescription: "is not a key this object takes"))
        }
    }

    /// The largest viewport side a view takes (its area is also bounded by `--max-area`).
    static let maxViewportSide = 4096

    func addViewRoutes(to router: Router<ServeRequestContext>) {
        router.post("/api/views") { request, context in
            await viewAnswer(status: .created) { () async throws(ViewError) in
                let body = try await Self.decodeBody(CreateView.self, request)
                return try await createView(body)
            }
        }
        router.get("/api/views/:vid") { _, context in
            await viewAnswer { () async throws(ViewError) in
                let (id, view) = try findView(context)
                return try await work.run { () throws(ViewError) in
                    view.withContent { ViewAnswer(view: id, content: $0) }
                }
            }
        }
        router.post("/api/views/:vid/gestures") { request, context in
            await viewAnswer { () async throws(ViewError) in
                let (id, view) = try findView(context)
                let body = try await Self.decodeBody(GestureBody.self, request)
                let gesture: ZoomGesture
                do throws(ZoomGestureParseError) {
                    gesture = try ZoomGesture(parsing: body.gesture)
                } catch {
                    throw .badRequest("\(error)")
                }
                switch gesture {
                case .rotate:
                    // A client draws a view from its placements' IIIF tiles, which carry no turn yet.
                    throw .badRequest("rotate is not available in views yet (tileview zoom takes it)")
                case .fling:
                    // A view has no clock to decelerate on: a client sends the pans it draws.
                    throw .badRequest("pan with a velocity is not available in views yet (tileview zoom takes it)")
                default: break
                }
                return try await work.run { () throws(ViewError) in
                    try view.withContent { (content) throws(ViewError) in
                        switch content {
                        case .image(let session, _):
                            do throws(TileViewError) { try session.apply(gesture) } catch { throw .image(error) }
                        case .gallery(let session, _, _):
                            do throws(TileViewError) { try session.apply(.gesture(gesture)) } catch {
                                throw .image(error)
                            }
                        }
                        return ViewAnswer(view: id, content: content)
                    }
                }
            }
        }
        router.post("/api/views/:vid/moves") { request, context in
            await viewAnswer { () async throws(ViewError) in
                let (id, view) = try findView(context)
                let action = try Self.parseMove(try await Self.decodeBody(MoveBody.self, request).move)
                return try await work.run { () throws(ViewError) in
                    try view.withContent { (content) throws(ViewError) in
                        guard case .gallery(let session, _, _) = content else {
                            throw .conflict("moves apply to gallery views; this view shows one image")
                        }
                        do throws(TileViewError) { try session.apply(action) } catch { throw .image(error) }
                        return ViewAnswer(view: id, content: content)
                    }
                }
            }
        }
        router.get("/api/views/:vid/frame.png") { _, context in
            do throws(ViewError) {
                let (_, view) = try findView(context)
                let bytes: [UInt8]
                do throws(WorkError<ViewError>) {
                    bytes = try await budget.run(bytes: LiveView.frameBytes(view.viewport)) {
                        () throws(ViewError) -> [UInt8] in
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
        router.delete("/api/views/:vid") { _, context in
            let id = try context.parameters.require("vid")
            guard views.remove(id) else { return Self.text(.notFound, "no view \(id) (unknown or expired)") }
            return Response(status: .noContent)
        }
        router.get("/api/openapi.json") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            return Response(
                status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: ViewerAPI.openAPIDocument)))
        }
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
            do { bytes = try Self.json(answer) } catch {
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

    /// The JSON body of a request as `T`; 400 with the decoder's reason when it is not.
    static func decodeBody<T: Decodable>(_ type: T.Type, _ request: Request) async throws(ViewError) -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: ServeSettings.maxRequestBodyBytes)
        } catch {
            throw .badRequest("the request body could not be read (at most \(ServeSettings.maxRequestBodyBytes) bytes)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .badRequest("the request body is not the JSON this route takes: \(Self.describe(error))")
        } catch {
            throw .badRequest("the request body is not JSON: \(error)")
        }
    }

    /// A decoding error in one line: what was wrong and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty
                ? "the body"
                : "\"" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) must be of type \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be of type \(type), not null"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// A move (`next`, `prev`, `left`, `right`, `up`, `down`) or a drag between pages (`drag DX,DY velocity
    /// VX,VY`); 400 with the command line's message for anything else.
    static func parseMove(_ text: String) throws(ViewError) -> GalleryAction {
        let trimmed = text.drop(while: \.isWhitespace)
        if trimmed.hasPrefix("drag") {
            do throws(GalleryActionParseError) {
                return try GalleryAction(parsing: text)
            } catch {
                throw .badRequest("\(error)")
            }
        }
        let moves: PageMoveList
        do throws(PageMoveError) {
            moves = try PageMoveList(parsing: text)
        } catch {
            throw .badRequest("\(error)")
        }
        guard moves.count == 1, let move = moves.first else {
            throw .badRequest("give one move per request, got \(moves.count)")
        }
        return .move(move)
    }

    /// Opens the view `body` asks for.
    func createView(_ body: CreateView) async throws(ViewError) -> ViewAnswer {
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
                do throws(ServeError) {
                    let session = ZoomSession(
                        image: try open(file),
                        view: ViewSettings(viewport: viewport, maximumScale: maxScale, options: settings.options))
                    return LiveView(.image(session, identifier: file.identifier))
                } catch {
                    guard case .image(let error) = error else { throw .badRequest("\(error)") }
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
        // A page's "path" is its identifier: every time a page is opened (planned or made resident, now or after
        // the files changed), it is resolved beneath the root again and read from the descriptor that was checked.
        let (root, tiles, options) = (settings.root, self.tiles, settings.options)
        job.opener = { identifier, _ throws(TileViewError) -> any ZoomContent in
            guard let file = root.file(forIdentifier: ServeRoot.percentEncoded(identifier)),
                let descriptor = file.descriptor
            else { throw TileViewError(.read, path: identifier, reason: "is no longer there") }
            return try TiledImage(
                source: .descriptor(descriptor), name: identifier,
                sharedTiles: TiledImage.SharedTiles(cache: tiles, image: file.version), options: options)
        }
        do throws(TileViewError) {
            let session = try GallerySession(job: job)
            return .gallery(session, folder: folder, identifiers: images.map(\.identifier))
        } catch {
            throw .image(error)
        }
    }
}
