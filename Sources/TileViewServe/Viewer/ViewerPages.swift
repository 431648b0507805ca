import Hummingbird
import TileView

/// The viewer's pages (docs/design.md section 11): `/` lists the root's folders and images with IIIF thumbnails
/// (`/browse/{folder-id}` a sub-folder), `/view/{id}` zooms one image and `/gallery/{folder-id}` (`/gallery` for
/// the root) pages through a folder, with `?circular=1&peek=P&gap=G&start=P`. Plain HTML with the script and
/// style sheet under `/viewer/`, all shipped inside the binary.
extension TileServer {
    func addViewerPages(to router: Router<ServeRequestContext>) {
        router.get("/") { _, _ in listing(folderID: "") }
        router.get("/browse/:folder") { _, context in listing(folderID: context.parameters.get("folder") ?? "") }
        router.get("/view/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let file = settings.root.file(forIdentifier: id) else { return Self.notFound }
            let name = ViewAnswer.name(of: file.identifier)
            return Self.page(
                title: name,
                body: """
                    <div id="tileview-viewport" tabindex="0" role="img" aria-label="\(Self.escaped(name))" \
                    data-kind="image" data-id="\(Self.escaped(ServeRoot.percentEncoded(file.identifier)))"></div>
                    <nav class="bar"><a href="\(Self.escaped(Self.listingPath(ofFolderOf: file.identifier)))">back</a> \
                    <span>\(Self.escaped(name))</span> <span id="tileview-status" aria-live="polite"></span></nav>
                    <script src="/viewer/viewer.js"></script>
                    """)
        }
        router.get("/gallery") { request, _ in gallery(request, folderID: "") }
        router.get("/gallery/:folder") { request, context in
            gallery(request, folderID: context.parameters.get("folder") ?? "")
        }
        router.get("/viewer/viewer.js") { _, _ in
            Self.asset(ViewerScript.source, type: "text/javascript; charset=utf-8")
        }
        router.get("/viewer/viewer.css") { _, _ in
            Self.asset(Self.styleSheet, type: "text/css; charset=utf-8")
        }
    }

    func gallery(_ request: Request, folderID: String) -> Response {
        guard let folder = settings.root.folder(forIdentifier: folderID) else { return Self.notFound }
        let query = request.uri.queryParameters
        func value(_ key: String) -> String { query[key[...]].map { Self.escaped(String($0)) } ?? "" }
        let title = folder.identifier.isEmpty ? "all images" : folder.identifier
        return Self.page(
            title: title,
            body: """
                <div id="tileview-viewport" tabindex="0" role="img" aria-label="\(Self.escaped(title))" \
                data-kind="gallery" data-folder="\(Self.escaped(ServeRoot.percentEncoded(folder.identifier)))" \
                data-circular="\(value("circular"))" data-peek="\(value("peek"))" data-gap="\(value("gap"))" \
                data-start="\(value("start"))"></div>
                <nav class="bar"><a href="\(Self.escaped(Self.listingPath(of: folder.identifier)))">back</a> \
                <span id="tileview-status" aria-live="polite"></span></nav>
                <script src="/viewer/viewer.js"></script>
                """)
    }

    /// The listing of a folder: its sub-folders (each with a link to its gallery) and its images as thumbnails.
    func listing(folderID: String) -> Response {
        guard let folder = settings.root.folder(forIdentifier: folderID) else { return Self.notFound }
        let (folders, images) = settings.root.contents(of: folder)
        var html =
            "<main class=\"listing\">\n<h1>\(Self.escaped(folder.identifier.isEmpty ? "tileview" : folder.identifier))</h1>\n"
        if !folder.identifier.isEmpty {
            html += "<p><a href=\"\(Self.escaped(Self.listingPath(ofFolderOf: folder.identifier)))\">up</a></p>\n"
        }
        if !images.isEmpty {
            let galleryPath =
                folder.identifier.isEmpty ? "/gallery" : "/gallery/" + ServeRoot.percentEncoded(folder.identifier)
            html +=
                "<p><a class=\"gallery\" href=\"\(Self.escaped(galleryPath))\">page through these \(images.count) images</a></p>\n"
        }
        if !folders.isEmpty {
            html += "<h2>Folders</h2>\n<ul class=\"folders\">\n"
            for sub in folders {
                let encoded = ServeRoot.percentEncoded(sub.identifier)
                html += "<li><a href=\"/browse/\(Self.escaped(encoded))\">\(Self.escaped(sub.name))</a> "
                html += "(<a href=\"/gallery/\(Self.escaped(encoded))\">gallery</a>)</li>\n"
            }
            html += "</ul>\n"
        }
        if !images.isEmpty {
            html += "<h2>Images</h2>\n<ul class=\"images\">\n"
            for file in images {
                let encoded = Self.escaped(ServeRoot.percentEncoded(file.identifier))
                let name = Self.escaped(ViewAnswer.name(of: file.identifier))
                html += "<li><a href=\"/view/\(encoded)\"><img loading=\"lazy\" alt=\"\(name)\" "
                html += "src=\"/iiif/3/\(encoded)/full/!240,240/0/default.jpg\"><span>\(name)</span></a></li>\n"
            }
            html += "</ul>\n"
        }
        if folders.isEmpty && images.isEmpty { html += "<p>No image files here.</p>\n" }
        html += "</main>"
        return Self.page(title: folder.identifier.isEmpty ? "tileview" : folder.identifier, body: html)
    }

    /// The listing that holds `identifier` (an image's or a folder's).
    static func listingPath(ofFolderOf identifier: String) -> String {
        guard let slash = identifier.lastIndex(of: "/") else { return "/" }
        return listingPath(of: String(identifier[..<slash]))
    }

    static func listingPath(of folder: String) -> String {
        folder.isEmpty ? "/" : "/browse/" + ServeRoot.percentEncoded(folder)
    }

    /// An HTML page around `body`.
    static func page(title: String, body: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
            <title>\(escaped(title)) - tileview</title>
            <link rel="stylesheet" href="/viewer/viewer.css">
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
        return asset(html, type: "text/html; charset=utf-8")
    }

    static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `text` safe inside HTML text and double-quoted attributes.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    static let styleSheet = """
        html, body { margin: 0; height: 100%; background: #000; color: #eee; font: 15px/1.4 system-ui, sans-serif; }
        a { color: #9cf; }
        #tileview-viewport { position: fixed; inset: 0; overflow: hidden; touch-action: none; cursor: grab;
          outline: none; user-select: none; -webkit-user-select: none; }
        #tileview-viewport:focus-visible { box-shadow: inset 0 0 0 2px #9cf; }
        #tileview-viewport canvas { display: block; }
        .bar { position: fixed; left: 8px; top: 8px; padding: 4px 10px; border-radius: 6px;
          background: rgba(0, 0, 0, 0.55); pointer-events: auto; }
        .bar span { margin-left: 8px; }
        .listing { max-width: 1100px; margin: 0 auto; padding: 16px; }
        .images { list-style: none; padding: 0; display: grid; gap: 12px;
          grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); }
        .images a { display: flex; flex-direction: column; align-items: center; text-decoration: none; }
        .images img { max-width: 100%; height: 180px; object-fit: contain; background: #111; }
        .images span { margin-top: 4px; word-break: break-all; }
        """
}
