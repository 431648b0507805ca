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
/// without images.
struct PresentationController: Sendable {
    let root: ServeRoot
    let site: SitePolicy
    /// Reads each image's header for its canvas size.
    let images: ServedImages
    /// The threads headers are read on, away from the event loops.
    let work: BlockingWork

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.get("/iiif/presentation/3/manifest.json", use: rootManifest)
        router.get("/iiif/presentation/3/collection.json", use: rootCollection)
        router.get("/iiif/presentation/3/:folder/manifest.json", use: folderManifest)
        router.get("/iiif/presentation/3/:folder/collection.json", use: folderCollection)
    }

    @Sendable func rootManifest(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await manifest(request, folderID: "")
    }

    @Sendable func folderManifest(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await manifest(request, folderID: try context.parameters.require("folder"))
    }

    @Sendable func rootCollection(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try collection(request, folderID: "")
    }

    @Sendable func folderCollection(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try collection(request, folderID: try context.parameters.require("folder"))
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

    func manifest(_ request: Request, folderID: String) async throws -> Response {
        guard let folder = root.folder(forIdentifier: folderID) else { return TileServer.notFound }
        let files = root.contents(of: folder).images
        guard !files.isEmpty else {
            return TileServer.text(.notFound, "the folder \(label(of: folder)) has no image files")
        }
        let base = site.baseURI(request)
        let images = self.images
        // Each image's size from its header (no pixel is decoded); an image that cannot be read is left out.
        let members = await work.run { () -> [IIIFPresentation.Image] in
            files.compactMap { file in
                guard let image = try? images.open(file) else { return nil }
                let encoded = ServeRoot.percentEncoded(file.identifier)
                let name = ViewAnswer.name(of: file.identifier)
                return IIIFPresentation.Image(
                    label: name, size: image.imageSize, service: base + "/iiif/3/" + encoded,
                    original: (base + "/api/images/" + encoded + "/file", ImageController.mediaType(ofFileNamed: name)))
            }
        }
        let id = Self.documentURL(base: base, folder: folder.identifier, "manifest.json")
        let document = IIIFPresentation.Manifest(
            id: id, label: label(of: folder), canvasBase: String(id.dropLast("manifest.json".count)) + "canvas",
            images: members, paged: request.uri.queryParameters["paged"] == "1")
        return Self.document(try TileServer.json(document))
    }

    func collection(_ request: Request, folderID: String) throws -> Response {
        guard let folder = root.folder(forIdentifier: folderID) else { return TileServer.notFound }
        let contents = root.contents(of: folder)
        let base = site.baseURI(request)
        var members = contents.folders.map { sub in
            IIIFPresentation.Collection.Member(
                id: Self.documentURL(base: base, folder: sub.identifier, "collection.json"), manifest: false,
                label: sub.identifier)
        }
        if !contents.images.isEmpty {
            members.append(
                IIIFPresentation.Collection.Member(
                    id: Self.documentURL(base: base, folder: folder.identifier, "manifest.json"), manifest: true,
                    label: label(of: folder)))
        }
        let document = IIIFPresentation.Collection(
            id: Self.documentURL(base: base, folder: folder.identifier, "collection.json"), label: label(of: folder),
            members: members)
        return Self.document(try TileServer.json(document))
    }

    /// A Presentation document: JSON-LD with the Presentation 3 profile, revalidated on every use (a folder's
    /// contents change without its files' entity tags changing).
    static func document(_ bytes: [UInt8]) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "application/ld+json;profile=\"http://iiif.io/api/presentation/3/context.json\"",
                .cacheControl: "no-cache",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
