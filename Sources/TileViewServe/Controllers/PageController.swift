import Hummingbird
import TileView

/// The viewer's pages (docs/design.md section 11): `/` lists the root's folders and images with IIIF thumbnails
/// (`/browse/{folder-id}` a sub-folder), `/view/{id}` zooms one image and `/gallery/{folder-id}` (`/gallery` for
/// the root) pages through a folder, with `?circular=1&peek=P&gap=G&start=P`. Plain HTML with the script and
/// style sheet under `/viewer/`, and the view API's OpenAPI document, all shipped inside the binary (the files in
/// `Resources/`).
struct PageController: Sendable {
    let root: ServeRoot
    /// `--max-scale`: the largest zoom the pages' views allow (screen pixels per image pixel).
    let maxScale: Double
    /// The threads folders are counted on, away from the event loops.
    let work: BlockingWork
    /// The bytes a folder's page is built within, beside the renders.
    let budget: WorkBudget

    /// The page for something that is not there (404): what was asked for, and a way back to the listing.
    func notFoundPage(_ what: String) -> Response {
        var response = HTMLPage.response(
            title: "not found",
            body: """
                <main class="listing">
                <h1>Not found</h1>
                <p>\(HTMLPage.escaped(what)) is not here (it may have been moved or removed).</p>
                <p><a href="/">Back to \(HTMLPage.escaped(root.name))</a></p>
                </main>
                """)
        response.status = .notFound
        return response
    }

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.get("/", use: rootListing)
        router.get("/browse/:folder", use: folderListing)
        router.get("/view/:id", use: imagePage)
        router.get("/gallery", use: rootGallery)
        router.get("/gallery/:folder", use: folderGallery)
        router.get("/viewer/viewer.js", use: script)
        router.get("/viewer/viewer.css", use: styleSheet)
        router.get("/api/openapi.json", use: openAPI)
    }

    @Sendable func rootListing(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await listingPage(request, context, folderID: "")
    }

    @Sendable func folderListing(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await listingPage(request, context, folderID: context.parameters.get("folder") ?? "")
    }

    /// Entries a listing shows at most (its folders, then its images, then its scenes): `?page=N` shows the Nth
    /// part (from 1), with links to the parts before and after. A thousand thumbnails are a page a browser scrolls;
    /// the whole of a folder of 50,000 was 12 MB of HTML, and over `--work-mb` (400) to build.
    static let listingPartEntries = 1000

    /// A folder's listing, the part `?page=N` asks for (the first for none, or for anything but a whole number
    /// from 1).
    func listingPage(_ request: Request, _ context: ServeRequestContext, folderID: String) async throws -> Response {
        let asked = request.uri.queryParameters["page"].flatMap { Int(String($0)) } ?? 1
        let part = max(1, asked)
        return try await folderPage(
            context, folderID: folderID, "the listing", scenes: true, showing: Self.listingPartEntries
        ) { listing($0, $1, part: part) }
    }

    /// `/view/{id}`: the page that zooms one image, or a scene (a `.json` identifier), which it draws from the
    /// view's `frame.png` (a scene has no IIIF tiles, no file to download and no EXIF).
    @Sendable func imagePage(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        guard let file = root.viewable(forIdentifier: id) else {
            return notFoundPage("The image " + (ServeRoot.percentDecoded(id) ?? id))
        }
        let scene = ServeRoot.isSceneName(file.identifier)
        let name = ViewAnswer.name(of: file.identifier)
        return HTMLPage.response(
            title: name,
            body: """
                <div id="tileview-viewport" tabindex="0" role="img" aria-label="\(HTMLPage.escaped(name))" \
                data-kind="\(scene ? "scene" : "image")" data-id="\(HTMLPage.escaped(ServeRoot.percentEncoded(file.identifier)))" \
                data-max-scale="\(maxScale)"></div>
                <nav class="bar"><a href="\(HTMLPage.escaped(Self.listingPath(ofFolderOf: file.identifier)))">back</a> \
                <span>\(HTMLPage.escaped(name))</span> <span id="tileview-status" aria-live="polite"></span></nav>
                \(Self.toolbar(gallery: false, image: !scene))
                <script src="/viewer/viewer.js"></script>
                """)
    }

    @Sendable func rootGallery(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await galleryPage(request, context, folderID: "")
    }

    @Sendable func folderGallery(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        try await galleryPage(request, context, folderID: context.parameters.get("folder") ?? "")
    }

    /// A folder's gallery page, with the thumbnail strip of all its images when the page with it fits one answer of
    /// `--work-mb`; without it otherwise (the folder is then not read here: the view reads it), so that a folder
    /// the view API pages through is paged through in a browser too, where its page was 400 (a folder of 50,000
    /// images under the default 128).
    func galleryPage(_ request: Request, _ context: ServeRequestContext, folderID: String) async throws -> Response {
        try await folderPage(context, folderID: folderID, "the gallery page", unreadOverBudget: true) {
            gallery(request, $0, $1)
        }
    }

    /// A folder's listing or gallery page, its title and body made by `page`: the folder counted on the
    /// blocking-work threads (`ServeRoot.size(of:)`), then read and the page built within the work budget, as a
    /// manifest is (`pageBytes`, for at most `showing` entries when the page shows no more), and counted until
    /// written. A folder whose page is too large for `--work-mb` is 400 naming the `--work-mb` that builds it, or,
    /// with `unreadOverBudget`, made from no contents (the folder not read).
    func folderPage(
        _ context: ServeRequestContext, folderID: String, _ what: String, scenes: Bool = false, showing: Int? = nil,
        unreadOverBudget: Bool = false,
        _ page: @escaping @Sendable (ServedFolder, FolderContents) -> (title: String, body: String)
    ) async throws -> Response {
        let root = self.root
        guard let (folder, size) = await root.sizedFolder(forIdentifier: folderID, on: work) else {
            return notFoundPage("The folder " + (ServeRoot.percentDecoded(folderID) ?? folderID))
        }
        let title = folder.identifier.isEmpty ? root.name : folder.identifier
        let whole = size.contentsBytes + Self.pageBytes(showing.map { size.shown($0) } ?? size)
        let read = !unreadOverBudget || whole <= budget.capacity(of: .large)
        return try await TileServer.folderDocument(
            "\(what) of the \(size.entries) entries of \(title)",
            planned: read ? whole : Self.pageBytes(FolderSize.empty),
            budget: budget, loop: context.eventLoop,
            {
                let (title, body) = page(folder, read ? root.contents(of: folder, scenes: scenes) : FolderContents())
                return Array(HTMLPage.document(title: title, body: body).utf8)
            }, answer: HTMLPage.response)
    }

    /// What building a folder's page holds at its peak beside the folder's contents: the page's lines, the page and
    /// the answer's copy of it, counted as five times the page, at most 256 bytes an entry beside its identifier up
    /// to eight times (twice percent-encoded, up to three bytes a byte, and twice escaped as its name). A folder of
    /// 20,000 images named `image-N.png` made 3.6 MB of listing and raised a debug server's peak by 19 MB.
    static func pageBytes(_ size: FolderSize) -> Int {
        64 << 10 + 5 * (size.entries * 256 + 8 * size.identifierBytes)
    }

    @Sendable func script(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        Self.asset(PackageResources.viewer_js, type: "text/javascript; charset=utf-8")
    }

    @Sendable func styleSheet(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        Self.asset(PackageResources.viewer_css, type: "text/css; charset=utf-8")
    }

    /// `/api/openapi.json`: the view API's OpenAPI 3.1 document.
    @Sendable func openAPI(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        Self.asset(PackageResources.openapi_json, type: "application/json")
    }

    /// The viewer's toolbar (docs/design.md section 17): each button is found by its `data-action` and labelled
    /// for screen readers; the script maps it to the engine's gesture (zoom-in = `pinch 1.5` about the centre,
    /// fit and one-to-one = `zoom-to`, rotate = `rotate 90`), opens fullscreen, or downloads the image shown.
    /// Galleries add the slideshow, its interval, and the thumbnail strip. With it come the information panel,
    /// the navigator and the help overlay. Without `image` (a scene) there is no information or download.
    static func toolbar(gallery: Bool, image: Bool = true) -> String {
        var buttons: [(action: String, label: String, key: String, face: String)] = [
            ("zoom-in", "Zoom in", "+", "+"), ("zoom-out", "Zoom out", "-", "&minus;"),
            ("fit", "Fit", "0", icon("M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5")),
            ("one-to-one", "One to one", "1", "1:1"),
            ("rotate", "Rotate", "r", icon("M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7")),
        ]
        if gallery { buttons.append(("slideshow", "Play a slideshow", "space", icon("M8 5v14l11-7z"))) }
        buttons.append(("fullscreen", "Fullscreen", "f", icon("M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5")))
        if image {
            buttons.append(
                ("info", "Information", "i", icon("M12 11v6M12 7v.01M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18")))
        }
        buttons += [
            (
                "copy-link", "Copy the link to this view", "c",
                icon("M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1" + "M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1")
            ),
            ("help", "Keys and gestures", "?", "?"),
        ]
        var html = buttons.map { button in
            let pressed = button.action == "slideshow" ? " aria-pressed=\"false\"" : ""
            return "<button type=\"button\" data-action=\"\(button.action)\" aria-label=\"\(button.label)\"\(pressed) "
                + "title=\"\(button.label) (\(button.key))\">\(button.face)</button>"
        }
        if gallery {
            let choices = [2, 4, 8, 15].map { "<option value=\"\($0)\"\($0 == 4 ? " selected" : "")>\($0) s</option>" }
            let select =
                "<select data-setting=\"interval\" aria-label=\"Slideshow interval\" title=\"Slideshow interval\">"
            html.insert(select + choices.joined() + "</select>", at: html.firstIndex { $0.contains("slideshow") }! + 1)
        }
        let download =
            "<a data-action=\"download\" aria-label=\"Download the original\" title=\"Download the original\" "
            + "download href=\"#\">&#x2193;</a>"
        return "<div id=\"tileview-toolbar\" role=\"toolbar\" aria-label=\"View\">" + html.joined()
            + (image ? download : "")
            + "</div>\n<aside id=\"tileview-info\" aria-label=\"Information\" hidden><dl></dl></aside>"
            + "\n<canvas id=\"tileview-navigator\" role=\"img\" aria-label=\"Where the view is in the image\" hidden>"
            + "</canvas>\n" + help(gallery: gallery)
    }

    /// The help overlay (`?`): every key and gesture the page takes.
    static func help(gallery: Bool) -> String {
        var rows: [(String, String)] = [
            ("double click, double tap", "zoom in 1.5x about the point (shift: zoom out)"),
            ("wheel, pinch", "zoom about the pointer"), ("drag", "pan" + (gallery ? "; at fit, turn the page" : "")),
            ("+ / &minus;", "zoom in / out about the centre"), ("0, Esc", "fit the whole image"),
            ("1", "one image pixel per screen pixel"), ("r / R", "rotate clockwise / anticlockwise"),
        ]
        rows +=
            gallery
            ? [
                ("&larr; &rarr;, Page Up/Down", "previous / next page (on a map: &uarr; &darr; too)"),
                ("Home / End", "first / last page"), ("space", "play / pause the slideshow"),
            ] : [("arrow keys", "pan")]
        rows += [
            ("f", "fullscreen"), ("i", "information about the image"), ("c", "copy the link to this view"),
            ("?", "this help"),
        ]
        let body = rows.map { "<tr><th scope=\"row\"><kbd>\($0.0)</kbd></th><td>\($0.1)</td></tr>" }.joined()
        return "<div id=\"tileview-help\" role=\"dialog\" aria-label=\"Keys and gestures\" hidden>"
            + "<div class=\"help-card\"><h2>Keys and gestures</h2><table>\(body)</table>"
            + "<button type=\"button\">Close</button></div></div>"
    }

    /// A gallery's thumbnail strip: one lazily loaded IIIF thumbnail per page, in page order, numbered from 1.
    static func strip(_ images: [ServedFile]) -> String {
        var html = "<nav id=\"tileview-strip\" aria-label=\"Pages\">"
        for (index, file) in images.enumerated() {
            let name = HTMLPage.escaped(ViewAnswer.name(of: file.identifier))
            let encoded = HTMLPage.escaped(ServeRoot.percentEncoded(file.identifier))
            html += "<button type=\"button\" data-page=\"\(index + 1)\" aria-label=\"\(index + 1): \(name)\" "
            html += "title=\"\(name)\"><img loading=\"lazy\" alt=\"\" "
            html += "src=\"/iiif/3/\(encoded)/full/!96,96/0/default.jpg\"></button>"
        }
        return html + "</nav>"
    }

    /// The strip of a gallery whose page does not list its pages: the script fills it with the pages around the one
    /// shown (`GET /api/views/{vid}/pages`).
    static let lazyStrip = "<nav id=\"tileview-strip\" aria-label=\"Pages\" data-lazy=\"1\"></nav>"

    /// A line icon drawn from `path` (no font needed: a symbol a system lacks would show as a box).
    static func icon(_ path: String) -> String {
        "<svg viewBox=\"0 0 24 24\" width=\"18\" height=\"18\" aria-hidden=\"true\"><path d=\"\(path)\" "
            + "fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"/></svg>"
    }

    static func asset(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A folder's gallery page: the viewer paging through its images, with their thumbnail strip.
    func gallery(_ request: Request, _ folder: ServedFolder, _ contents: FolderContents) -> (
        title: String, body: String
    ) {
        let query = request.uri.queryParameters
        func value(_ key: String) -> String { query[key[...]].map { HTMLPage.escaped(String($0)) } ?? "" }
        let title = folder.identifier.isEmpty ? "all images" : folder.identifier
        return (
            title,
            """
            <div id="tileview-viewport" tabindex="0" role="img" aria-label="\(HTMLPage.escaped(title))" \
            data-kind="gallery" data-folder="\(HTMLPage.escaped(ServeRoot.percentEncoded(folder.identifier)))" \
            data-circular="\(value("circular"))" data-peek="\(value("peek"))" data-gap="\(value("gap"))" \
            data-start="\(value("start"))" data-interval="\(value("interval"))" data-max-scale="\(maxScale)"></div>
            <nav class="bar"><a href="\(HTMLPage.escaped(Self.listingPath(of: folder.identifier)))">back</a> \
            <span id="tileview-status" aria-live="polite"></span></nav>
            \(Self.toolbar(gallery: true))
            \(contents.images.isEmpty ? Self.lazyStrip : Self.strip(contents.images))
            <script src="/viewer/viewer.js"></script>
            """
        )
    }

    /// The listing of a folder: its sub-folders (each with a link to its gallery), its images as thumbnails, and its
    /// scenes by name; of these, in that order, the `listingPartEntries` of part `part` (the last when there are
    /// fewer parts).
    func listing(_ folder: ServedFolder, _ contents: FolderContents, part: Int = 1) -> (title: String, body: String) {
        let total = contents.folders.count + contents.images.count + contents.scenes.count
        let parts = max(1, (total + Self.listingPartEntries - 1) / Self.listingPartEntries)
        let part = min(part, parts)
        let shown = (part - 1) * Self.listingPartEntries..<min(total, part * Self.listingPartEntries)
        /// The entries of `list` (starting at `offset` in the listing's order) this part shows.
        func slice<T>(_ list: [T], from offset: Int) -> ArraySlice<T> {
            let lower = min(max(shown.lowerBound - offset, 0), list.count)
            let upper = min(max(shown.upperBound - offset, 0), list.count)
            return list[lower..<upper]
        }
        let folders = slice(contents.folders, from: 0)
        let images = slice(contents.images, from: contents.folders.count)
        let scenes = slice(contents.scenes, from: contents.folders.count + contents.images.count)
        let title = folder.identifier.isEmpty ? root.name : folder.identifier
        var html = "<main class=\"listing\">\n<h1>\(HTMLPage.escaped(title))</h1>\n"
        if !folder.identifier.isEmpty {
            html += "<p><a href=\"\(HTMLPage.escaped(Self.listingPath(ofFolderOf: folder.identifier)))\">up</a></p>\n"
        }
        if parts > 1 {
            let path = Self.listingPath(of: folder.identifier)
            var links = "entries \(shown.lowerBound + 1) to \(shown.upperBound) of \(total)"
            if part > 1 { links += " <a rel=\"prev\" href=\"\(HTMLPage.escaped(path))?page=\(part - 1)\">previous</a>" }
            if part < parts { links += " <a rel=\"next\" href=\"\(HTMLPage.escaped(path))?page=\(part + 1)\">next</a>" }
            html += "<p class=\"parts\">\(links)</p>\n"
        }
        if !contents.images.isEmpty {
            // The same folder in any IIIF viewer (Mirador, the Universal Viewer): its Presentation manifest.
            let manifest = PresentationController.documentURL(base: "", folder: folder.identifier, "manifest.json")
            html +=
                "<p><a class=\"manifest\" href=\"\(HTMLPage.escaped(manifest))\">IIIF manifest</a> (open it in a IIIF viewer)</p>\n"
            let galleryPath =
                folder.identifier.isEmpty ? "/gallery" : "/gallery/" + ServeRoot.percentEncoded(folder.identifier)
            html +=
                "<p><a class=\"gallery\" href=\"\(HTMLPage.escaped(galleryPath))\">page through these \(contents.images.count) images</a></p>\n"
        }
        html += Self.list(
            "Folders",
            folders.map { sub in
                let encoded = HTMLPage.escaped(ServeRoot.percentEncoded(sub.identifier))
                return "<a href=\"/browse/\(encoded)\">\(HTMLPage.escaped(sub.name))</a> "
                    + "(<a href=\"/gallery/\(encoded)\">gallery</a>)"
            })
        html += Self.list(
            "Images",
            images.map { file in
                let encoded = HTMLPage.escaped(ServeRoot.percentEncoded(file.identifier))
                return Self.viewLink(file) { name in
                    "<img loading=\"lazy\" alt=\"\(name)\" src=\"/iiif/3/\(encoded)/full/!240,240/0/default.jpg\"><span>\(name)</span>"
                }
            })
        // A scene has no IIIF tiles to make a thumbnail of: its name links to its view.
        html += Self.list("Scenes", scenes.map { Self.viewLink($0) { name in name } })
        if total == 0 { html += "<p>No image files here.</p>\n" }
        html += "</main>"
        return (title, html)
    }

    /// A link to the file's page (`/view/{id}`), around `content` made from its escaped name.
    static func viewLink(_ file: ServedFile, _ content: (String) -> String) -> String {
        "<a href=\"/view/\(HTMLPage.escaped(ServeRoot.percentEncoded(file.identifier)))\">"
            + content(HTMLPage.escaped(ViewAnswer.name(of: file.identifier))) + "</a>"
    }

    /// A listing's section: its heading and a list (class: the heading in lower case) of `items` (HTML), or
    /// nothing when there are none.
    static func list(_ heading: String, _ items: [String]) -> String {
        guard !items.isEmpty else { return "" }
        return "<h2>\(heading)</h2>\n<ul class=\"\(heading.lowercased())\">\n"
            + items.map { "<li>\($0)</li>\n" }.joined() + "</ul>\n"
    }

    /// The listing that holds `identifier` (an image's or a folder's).
    static func listingPath(ofFolderOf identifier: String) -> String {
        guard let slash = identifier.lastIndex(of: "/") else { return "/" }
        return listingPath(of: String(identifier[..<slash]))
    }

    static func listingPath(of folder: String) -> String {
        folder.isEmpty ? "/" : "/browse/" + ServeRoot.percentEncoded(folder)
    }
}
