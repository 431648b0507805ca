import FoundationEssentials
import Hummingbird
import NIOCore
import TileView
import TileViewIIIF

/// The image routes: IIIF Image API 3.0 (`/iiif/3/{id}`, its `info.json` and its image requests) and Deep Zoom
/// (`/dzi/{name}.dzi` and its tiles), answered from the shared caches or rendered within the work budget.
struct ImageController: Sendable {
    let settings: ServeSettings
    let site: SitePolicy
    let images: ServedImages
    let responses: ResponseCache
    let coalescer: RequestCoalescer<Result<EncodedImage, ServeError>>
    let work: BlockingWork
    let budget: WorkBudget
    let metrics: ServerMetrics
    let indexer: CoarseLevelIndexer?

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.get("/iiif/3/:id", use: redirect)
        router.get("/iiif/3/:id/info.json", use: info)
        router.get("/iiif/3/:id/:region/:size/:rotation/:quality", use: iiifImage)
        router.get("/dzi/:name", use: deepZoomDescriptor)
        router.get("/dzi/:name/:level/:tile", use: deepZoomTile)
        router.get("/api/images/:id/preview.jpg", use: preview)
        router.get("/api/images/:id/info", use: imageInfo)
        router.get("/api/images/:id/file", use: original)
    }

    /// `answer` with the file the request's `id` names and its open descriptor; instead 404 when there is no such
    /// file, 304 when the client's copy is current.
    func withOpenedFile(
        _ request: Request, _ context: ServeRequestContext,
        _ answer: (ServedFile, OpenDescriptor) async throws -> Response
    ) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let file = settings.root.file(forIdentifier: id), let descriptor = file.descriptor else {
            return TileServer.notFound
        }
        if let unchanged = TileServer.notModified(request, file) { return unchanged }
        return try await answer(file, descriptor)
    }

    /// How much of a file one read of `original` holds.
    static let originalChunkBytes = 256 << 10

    /// `/api/images/{id}/file`: the file itself, as stored (the viewer's download, a manifest's `rendering`), read
    /// through the descriptor the request resolved and streamed a chunk at a time (a large file is never held
    /// whole; the chunk counts in the work budget), with the file's entity tag and an attachment name. A file that
    /// shrinks while it is sent ends the connection rather than pass a short body as whole.
    @Sendable func original(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await withOpenedFile(request, context) { file, descriptor in
            let name = ViewAnswer.name(of: file.identifier)
            var headers: HTTPFields = [.contentType: Self.mediaType(ofFileNamed: name)]
            headers[.eTag] = file.entityTag
            headers[.cacheControl] = "public, max-age=86400"
            headers[.contentDisposition] = Self.attachment(name)
            // The chunk in flight counts in the work budget until the file has been sent: many slow downloads wait for
            // their share, or get 503, instead of growing the memory.
            let held: HeldBytes
            do throws(WorkBudget.Refusal) {
                held = try await budget.hold(bytes: Self.originalChunkBytes)
            } catch {
                return ServeError.refused(error, nil).response
            }
            let size = file.size
            let body = ResponseBody(contentLength: size) { writer in
                defer { held.release() }
                var offset = 0
                while offset < size {
                    let count = min(Self.originalChunkBytes, size - offset)
                    let start = offset
                    let chunk = await BlockingWork.onWorkerThread { descriptor.bytes(at: start, count: count) }.get()
                    guard chunk.count == count else {
                        throw TileViewError(.read, path: file.identifier, reason: "the file shrank while it was sent")
                    }
                    try await TileServer.writePaced(ByteBuffer(bytes: chunk), to: &writer, loop: context.eventLoop)
                    offset += count
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    /// The media type of an image file, by its name's extension (the formats `ImageFolder` lists).
    static func mediaType(ofFileNamed name: String) -> String {
        let types = [
            "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp", "gif": "image/gif",
            "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
        ]
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return types[ext] ?? "application/octet-stream"
    }

    /// `Content-Disposition` naming the file: a plain ASCII `filename` (others replaced by `_`) and the exact
    /// name as RFC 8187 `filename*`.
    static func attachment(_ name: String) -> String {
        let plain = String(
            name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" }
        )
        let exact = name.utf8.map { byte -> String in
            let c = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c))
                ? String(c) : String(format: "%%%02X", byte)
        }.joined()
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(exact)"
    }

    /// `/api/images/{id}/info`: what `tileview info --json` says of the image, from its header (no pixel is
    /// decoded): format, sizes, colour space, levels and, when the file has them, the EXIF fields (camera, lens,
    /// exposure, aperture, ISO, focal length, date taken, GPS). The viewer's info panel shows it.
    @Sendable func imageInfo(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let file = settings.root.file(forIdentifier: id) else { return TileServer.notFound }
        if let unchanged = TileServer.notModified(request, file) { return unchanged }
        let info: ImageInfo
        do throws(ServeError) {
            info = try await work.run { () throws(ServeError) in
                ImageInfo(file: ViewAnswer.name(of: file.identifier), header: try open(file).header)
            }
        } catch {
            return error.response
        }
        return TileServer.bytes(try TileServer.json(info), type: "application/json", file: file)
    }

    /// The most of a file read to find its EXIF thumbnail: the segments before the first scan (an APP1 segment is
    /// at most 64 KiB; cameras put it first).
    static let previewSearchBytes = 256 << 10

    /// `/api/images/{id}/preview.jpg` (docs/design.md section 16): the JPEG thumbnail the camera embedded in the
    /// file's EXIF, as stored (no decode), with the image's orientation added so that a browser turns it; 404
    /// when the file has none. A viewer paints it while the tiles come.
    @Sendable func preview(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await withOpenedFile(request, context) { file, descriptor in
            let head = await BlockingWork.onWorkerThread { descriptor.prefix(Self.previewSearchBytes) }.get()
            guard let thumbnail = ExifThumbnail.jpeg(inJPEG: head) else {
                return TileServer.text(.notFound, "\(file.identifier) has no embedded preview")
            }
            let orientation =
                settings.options.applyOrientation ? (ExifOrientationParser.exifValue(inJPEG: head) ?? 1) : 1
            return TileServer.bytes(
                ExifThumbnail.oriented(thumbnail, orientation: orientation), type: "image/jpeg", file: file)
        }
    }

    // MARK: - IIIF

    /// `/iiif/3/{id}`: 303 to its `info.json`, as the Image API asks.
    @Sendable func redirect(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard settings.root.file(forIdentifier: id) != nil else { return TileServer.notFound }
        let location = site.baseURI(request) + "/iiif/3/\(id)/info.json"
        return Response(status: .seeOther, headers: [.location: location] + TileServer.cors)
    }

    @Sendable func info(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let file = settings.root.file(forIdentifier: id) else { return TileServer.notFound }
        if let unchanged = TileServer.notModified(request, file) { return unchanged }
        // A viewer asks for info.json first: the image's coarse levels are written to disk next, if they are not.
        indexer?.requested(file)
        let size: PixelSize
        do throws(ServeError) {
            size = try await work.run { () throws(ServeError) in try open(file).imageSize }
        } catch {
            return error.response
        }
        let base = site.baseURI(request) + "/iiif/3/" + id
        let document = IIIFInfo(id: base, imageSize: size, limits: settings.limits)
        return TileServer.bytes(
            try TileServer.json(document),
            type: "application/ld+json;profile=\"http://iiif.io/api/image/3/context.json\"",
            file: file)
    }

    @Sendable func iiifImage(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let file = settings.root.file(forIdentifier: id) else { return TileServer.notFound }
        let parts = try ["region", "size", "rotation", "quality"].map { name in
            ServeRoot.percentDecoded(try context.parameters.require(name)) ?? ""
        }
        let parsed: IIIFImageRequest
        do {
            parsed = try IIIFImageRequest(
                region: parts[0], size: parts[1], rotation: parts[2], qualityAndFormat: parts[3])
        } catch {
            return TileServer.text(HTTPResponse.Status(code: error.status.rawValue), error.reason)
        }
        let limits = settings.limits
        return await answer(request, context, file: file, key: "iiif/" + parts.joined(separator: "/")) {
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

    @Sendable func deepZoomDescriptor(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let name = try context.parameters.require("name")
        guard name.hasSuffix(".dzi"), let file = settings.root.file(forIdentifier: String(name.dropLast(4))) else {
            return TileServer.notFound
        }
        if let unchanged = TileServer.notModified(request, file) { return unchanged }
        do throws(ServeError) {
            let size = try await work.run { () throws(ServeError) in try open(file).imageSize }
            let xml = DeepZoomImage(size: size).dziXML
            return TileServer.bytes(Array(xml.utf8), type: "application/xml", file: file)
        } catch {
            return error.response
        }
    }

    @Sendable func deepZoomTile(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let files = try context.parameters.require("name")
        guard files.hasSuffix("_files"), let file = settings.root.file(forIdentifier: String(files.dropLast(6)))
        else { return TileServer.notFound }
        let level = try context.parameters.require("level")
        let tile = try context.parameters.require("tile")
        return await answer(request, context, file: file, key: "dzi/\(level)/\(tile)") { imageSize throws(ServeError) in
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

    /// Opens `file` for a render; errors are the image's (422).
    func open(_ file: ServedFile) throws(ServeError) -> TiledImage {
        do throws(TileViewError) { return try images.open(file) } catch { throw .image(error) }
    }

    /// The answer to an image request: 304 when the client has this version, else the encoded image from the
    /// response cache, from an identical request in flight, or rendered on a worker thread.
    ///
    /// Admission (docs/design.md section 18): the header is read and `wanted` resolves the request against the image's
    /// size (400/501 for a bad one); then the render's plan is worked out before any pixel memory (`ImageRequestPlan`),
    /// and the render waits in `budget` until its bytes are free: a plan that can never fit is 400 with its parts, a
    /// full queue or a long wait 503 with `Retry-After`. An answer over `TileServer.writtenHoldBytes` keeps its bytes
    /// counted in the budget until it has been written (`TileServer.written`).
    func answer(
        _ request: Request, _ context: ServeRequestContext, file: ServedFile, key: String,
        _ wanted: @escaping @Sendable (PixelSize) throws(ServeError) -> ImageRequestPlan.Wanted
    ) async -> Response {
        if let unchanged = TileServer.notModified(request, file) { return unchanged }
        let cacheKey = file.version + "\u{0}" + key
        if let hit = responses.value(forKey: cacheKey) {
            return await written(hit, file: file, loop: context.eventLoop)
        }
        // After the render (which may have found the image's entry damaged or gone): its levels are written next.
        defer { indexer?.requested(file) }
        let result = await coalescer.run(cacheKey) { [self] () async -> Result<EncodedImage, ServeError> in
            do throws(ServeError) {
                let planned = try await work.run { () throws(ServeError) -> ImageRequestPlan in
                    let image = try open(file)
                    let request = try wanted(image.imageSize)
                    try ImageRequestPlan.checkEncodable(request)
                    return ImageRequestPlan(image: image, wanted: request)
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
                    case .refused(let refusal): throw .refused(refusal, planned.refused)
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
        case .success(let encoded): return await written(encoded, file: file, loop: context.eventLoop)
        case .failure(let error): return error.response
        }
    }

    /// The 200 answer of `encoded`, its bytes counted in the work budget until written (`TileServer.written`).
    func written(_ encoded: EncodedImage, file: ServedFile, loop: any EventLoop) async -> Response {
        await TileServer.written(encoded.bytes, budget: budget, loop: loop) { body in
            TileServer.bytes(body, type: encoded.mediaType, file: file)
        }
    }
}
