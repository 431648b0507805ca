import Hummingbird
import TileView
import TileViewIIIF

/// IIIF Presentation API 3.0 for the served folders (docs/design.md section 17): a folder's images as a Manifest
/// that Mirador or the Universal Viewer pages through, and its sub-folders as a Collection.
///
/// `/iiif/presentation/3/manifest.json` is the root folder's manifest, `/iiif/presentation/3/{folder-id}/manifest.json`
/// another's (`?paged=1` adds `behavior: ["paged"]`); `collection.json` in the same places lists the sub-folders'
/// collections and the folder's own manifest. Images are in the listing's natural order, each a Canvas of its
/// oriented size painted by its Image API service. 404 for a folder that is not served, or a manifest of a folder
/// without images. A manifest is built within the work budget, as a render is (docs/design.md section 18): the
/// images opened, their canvases, the JSON and the answer's copy of it hold about five times the JSON (a folder of
/// 5,000 images: 11 MB of JSON, the server's peak 57 MB higher), so a folder too large for `--work-mb` is 400 naming
/// the `--work-mb` that would build it, and many at once wait or get 503.
struct PresentationController: Sendable {
    let root: ServeRoot
    let site: SitePolicy
    /// Reads each image's header for its canvas size.
    let images: ServedImages
    /// The bytes and the threads manifests are built with, beside the renders.
    let budget: WorkBudget
    /// The threads folders are read on, away from the event loops.
    let work: BlockingWork

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.get("/iiif/presentation/3/manifest.json", use: rootManifest)
        router.get("/iiif/presentation/3/collection.json", use: rootCollection)
        router.get("/iiif/presentation/3/:folder/manifest.json", use: folderManifest)
        router.get("/iiif/presentation/3/:folder/collection.json", use: folderCollection)
    }

    @Sendable func rootManifest(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await manifest(request, context, folderID: "")
    }

    @Sendable func folderManifest(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await manifest(request, context, folderID: try context.parameters.require("folder"))
    }

    @Sendable func rootCollection(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await collection(request, context, folderID: "")
    }

    @Sendable func folderCollection(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await collection(request, context, folderID: try context.parameters.require("folder"))
    }

    /// The URL of a folder's Presentation document `name` (`manifest.json` or `collection.json`).
    static func documentURL(base: String, folder: String, _ name: String) -> String {
        base + "/iiif/presentation/3/" + (folder.isEmpty ? "" : ServeRoot.percentEncoded(folder) + "/") + name
    }

    /// What a folder is called in its documents: its identifier, or the served folder's own name for the root.
    func label(of folder: ServedFolder) -> String {
        folder.identifier.isEmpty
            ? root.name : folder.identifier
    }

    func manifest(_ request: Request, _ context: ServeRequestContext, folderID: String) async throws -> Response {
        guard let (folder, size) = await root.sizedFolder(forIdentifier: folderID, on: work) else {
            return TileServer.notFound
        }
        let root = self.root
        let base = site.baseURI(request)
        let images = self.images
        let id = Self.documentURL(base: base, folder: folder.identifier, "manifest.json")
        let (label, paged) = (label(of: folder), request.uri.queryParameters["paged"] == "1")
        return try await TileServer.folderDocument(
            "a manifest of the \(size.entries) entries of \(label)",
            planned: size.contentsBytes + Self.manifestBytes(base: base, size: size), budget: budget,
            loop: context.eventLoop, absent: TileServer.text(.notFound, "the folder \(label) has no image files"),
            {
                let files = root.contents(of: folder).images
                guard !files.isEmpty else { return nil }
                // Each image's size from its header (no pixel is decoded); an image that cannot be read is left out.
                let members = files.compactMap { file -> IIIFPresentation.Image? in
                    guard let image = try? images.open(file) else { return nil }
                    let encoded = ServeRoot.percentEncoded(file.identifier)
                    let name = ViewAnswer.name(of: file.identifier)
                    return IIIFPresentation.Image(
                        label: name, size: image.imageSize, service: base + "/iiif/3/" + encoded,
                        original: (
                            base + "/api/images/" + encoded + "/file", ImageController.mediaType(ofFileNamed: name)
                        ))
                }
                let document = IIIFPresentation.Manifest(
                    id: id, label: label, canvasBase: String(id.dropLast("manifest.json".count)) + "canvas",
                    images: members, paged: paged)
                return try TileServer.json(document)
            }, answer: Self.document)
    }

    /// What building the manifest of a folder of `size` holds at its peak beside the folder's contents: the images
    /// opened, their canvases as values, the JSON and the answer's copy of it, five times the JSON, which is about
    /// 1.6 KB a canvas beside ten of its URLs (each the base, and the image's identifier percent-encoded: up to
    /// three bytes a byte).
    static func manifestBytes(base: String, size: FolderSize) -> Int {
        let urls = 10 * (size.entries * (base.utf8.count + 48) + 3 * size.identifierBytes)
        return 5 * (size.entries * 1600 + urls)
    }

    func collection(_ request: Request, _ context: ServeRequestContext, folderID: String) async throws -> Response {
        guard let (folder, size) = await root.sizedFolder(forIdentifier: folderID, on: work) else {
            return TileServer.notFound
        }
        let root = self.root
        let base = site.baseURI(request)
        let label = label(of: folder)
        // Its members are the folder's sub-folders and its own manifest: at most one an entry, each about 128 bytes
        // beside its URL (the base and its identifier percent-encoded) and its label, held as a value, as JSON and as
        // the answer's copy.
        let memberBytes = 3 * (size.entries * (128 + base.utf8.count) + 4 * size.identifierBytes)
        return try await TileServer.folderDocument(
            "a collection of the \(size.entries) entries of \(label)", planned: size.contentsBytes + memberBytes,
            budget: budget, loop: context.eventLoop,
            {
                let contents = root.contents(of: folder)
                var members = contents.folders.map { sub in
                    IIIFPresentation.Collection.Member(
                        id: Self.documentURL(base: base, folder: sub.identifier, "collection.json"), manifest: false,
                        label: sub.identifier)
                }
                if !contents.images.isEmpty {
                    members.append(
                        IIIFPresentation.Collection.Member(
                            id: Self.documentURL(base: base, folder: folder.identifier, "manifest.json"),
                            manifest: true, label: label))
                }
                let document = IIIFPresentation.Collection(
                    id: Self.documentURL(base: base, folder: folder.identifier, "collection.json"), label: label,
                    members: members)
                return try TileServer.json(document)
            }, answer: Self.document)
    }

    /// A Presentation document: JSON-LD with the Presentation 3 profile, revalidated on every use (a folder's
    /// contents change without its files' entity tags changing).
    static func document(_ body: ResponseBody) -> Response {
        let headers: HTTPFields = [
            .contentType: "application/ld+json;profile=\"http://iiif.io/api/presentation/3/context.json\"",
            .cacheControl: "no-cache",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }
}
