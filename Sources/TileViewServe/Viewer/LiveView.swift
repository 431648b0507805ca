import Hummingbird
import TileView

/// One view a browser (or any client) drives: an image or a scene (`ZoomSession`) or a folder's gallery
/// (`GallerySession`), the same sessions `tileview zoom` and `tileview gallery` run, so a frame the server returns
/// is the file the command writes after the same steps. Every operation holds the view's lock: one step at a time.
final class LiveView: Sendable {
    enum Content {
        /// The session and the image's identifier.
        case image(ZoomSession, identifier: String)
        /// The session (its pages' paths are their identifiers) and the folder.
        case gallery(GallerySession, folder: ServedFolder)

        /// What decoding for the frame holds at its peak (`ZoomSession.frameDecodePeakBytes`: a turned image's
        /// block; `GallerySession.decodePeakBytes`).
        var decodePeakBytes: Int {
            switch self {
            case .image(let session, _): session.frameDecodePeakBytes
            case .gallery(let session, _): session.decodePeakBytes
            }
        }

        /// The level pixels the frame reads at once, where the frame says (`ZoomSession.frameSourceBytes`); nil for
        /// a gallery (its pages' draws: the bound from the viewport).
        var frameSourceBytes: Int? {
            switch self {
            case .image(let session, _): session.frameSourceBytes
            case .gallery: nil
            }
        }
    }

    private let content: Locked<Content>
    /// What it shows and how: what its tokens say besides where it is.
    let source: ViewSource
    /// About what it holds while it is kept (`ViewStore` keeps views within a number of bytes): an image's or a
    /// scene's session, its header and pyramid, at most `imageViewBytes` (its tiles are in the shared cache); a
    /// gallery's list of pages, each page's name and identifier (`pagesBytes`: packed, about 64 bytes a page beside
    /// its identifier twice).
    let retainedBytes: Int
    /// The viewport its frames have.
    var viewport: PixelSize { source.viewport }

    init(_ content: Content, source: ViewSource) {
        self.content = Locked(content)
        self.source = source
        switch content {
        case .image: retainedBytes = Self.imageViewBytes
        case .gallery(let session, _):
            // The packed paths' bytes (their UTF-8 and ends) stand for the identifiers, of which names are parts.
            let pages = session.job.pages
            retainedBytes = Self.pagesBytes(pages.count, identifierBytes: pages.paths.byteCount)
        }
    }

    /// What a gallery's list of `pages` holds, their identifiers `identifierBytes` together: each page's name (at
    /// most its identifier) and identifier, packed.
    static func pagesBytes(_ pages: Int, identifierBytes: Int) -> Int {
        pages * galleryPageBytes + 2 * identifierBytes
    }

    /// What opening a gallery of a folder of `size` holds at its peak: the folder's contents, its pages' names and
    /// identifiers as lists of strings (`listedPageBytes` a page and four times its identifier), and the pages
    /// packed.
    static func openingBytes(_ size: FolderSize) -> Int {
        size.contentsBytes + size.entries * listedPageBytes + 4 * size.identifierBytes
            + pagesBytes(size.entries, identifierBytes: size.identifierBytes)
    }

    /// What an image's or a scene's view holds at most, beside its tiles (measured: about 180 KB a view of a 36 MP
    /// JPEG).
    static let imageViewBytes = 256 << 10
    /// What each page of a kept gallery holds beside its packed name and identifier.
    static let galleryPageBytes = 64
    /// What each page's name and identifier hold as strings in lists, beside their UTF-8, while a gallery opens.
    static let listedPageBytes = 160

    /// Where `content` is now: what its token says besides the source.
    static func place(of content: Content) -> ViewPlace {
        switch content {
        case .image(let session, _):
            return .image(session.state.place)
        case .gallery(let session, _):
            let frame = session.current
            let planner = session.state
            // The set before the frame: the pages it did not load, and those it evicted.
            let before = Set(frame.resident).subtracting(frame.loaded).union(frame.evicted).sorted()
            var zooms: [Int: ZoomPlace] = [:]
            for cell in planner.zoomStates.storedPositions {
                if let state = planner.zoomStates.stored(at: cell) { zooms[cell.column] = state.place }
            }
            return .gallery(
                GalleryPlace(
                    page: frame.position.column, frameIndex: frame.index, action: frame.action?.description,
                    residentBefore: before.map(\.column), zooms: zooms))
        }
    }

    /// What drawing one frame of a view of `viewport` holds at its peak (docs/design.md section 18): the frame (4
    /// bytes a pixel), the level pixels under it from the tiles (`source`, the frame's own region where the content
    /// says, `ZoomContent.frameSourceBytes(for:)`; else the bound from the viewport, up to twice its pixels on each
    /// axis: 16 bytes a viewport pixel), the PNG encoder's rows and output (8), and what decoding missing tiles
    /// holds: `decoding` (the content's `decodePeakBytes`: a band of the widest level, the decoder's rows and its
    /// working memory, every coefficient of a progressive JPEG; for an image view, the frame's own: a turned image's
    /// block under the rows of tiles the frame touches, stored and turned), at least `bandSlackBytes` (a view's
    /// images decode in one pass, `ServedImages.inOnePass`, so no decode in parts). A scene draws its layers one at
    /// a time onto one frame, and keeps one more copy of it while a layer is cut to its clip
    /// (`SceneImage.drawImage`). A scene view's creation checks its viewport against the least a frame holds
    /// (`source` 0).
    static func framePlan(_ viewport: PixelSize, scene: Bool, decoding: Int = 0, source: Int? = nil) -> MemoryEstimate {
        guard let source else {
            var plan = MemoryEstimate.frames(viewport, copies: scene ? 8 : 7)
            plan.add("decoding", bytes: max(bandSlackBytes, decoding))
            return plan
        }
        var plan = MemoryEstimate.frames(viewport, copies: scene ? 4 : 3)
        plan.add("level pixels", bytes: source)
        plan.add("decoding", bytes: max(bandSlackBytes, decoding))
        return plan
    }

    static let bandSlackBytes = 16 << 20

    /// Runs `body` with the view's content, holding its lock.
    func withContent<T, E: Error>(_ body: (Content) throws(E) -> T) throws(E) -> T {
        try content.withLock { (value: inout Content) throws(E) -> T in try body(value) }
    }
}

/// Why a view request failed: not found (404), a bad request (400, with the message the command line prints for
/// the same text), a share link that does not reach what the view shows (403), a step the view does not take (409:
/// a move on an image view), an image that could not be read (422), or a gallery's opening the work budget did not
/// admit (400 when it can never fit, 503 when busy).
enum ViewError: Error, Sendable {
    case notFound(String)
    case badRequest(String)
    case forbidden(String)
    case conflict(String)
    case image(TileViewError)
    case refused(WorkBudget.Refusal, String)

    var response: Response {
        switch self {
        case .notFound(let why): TileServer.text(.notFound, why)
        case .badRequest(let why): TileServer.text(.badRequest, why)
        case .forbidden(let why): TileServer.text(.forbidden, why)
        case .conflict(let why): TileServer.text(.conflict, why)
        case .image(let error): TileServer.unprocessable(error)
        case .refused(let refusal, let what): TileServer.folderRefused(refusal, what, "open")
        }
    }
}

/// What every view request answers (docs/design.md section 11): the view, its kind (`image`, `scene` or `gallery`),
/// the current page's zoom state (section 3's keys), the step record of a gallery (section 9; null for an image or
/// a scene), and what a client needs to draw the frame from IIIF tiles: each visible page with its identifier, its
/// frame in the viewport, its zoom state and the level the server draws it from (none for a scene, which a client
/// draws from `frame.png`).
struct ViewAnswer: Encodable, Sendable {
    struct Placement: Encodable, Sendable {
        /// The page's IIIF identifier (percent-encoded, as in `/iiif/3/{id}`).
        let id: String
        /// The file's name, for captions.
        let name: String
        /// Where the page lies in the viewport, in viewport pixels (it may reach outside).
        let frame: PixelRect
        /// The page's own zoom state, its viewport being `frame`'s size.
        let state: ZoomSnapshot
        /// The pyramid level the server draws the page from (0 is full size).
        let level: Int
    }

    /// The view's identifier: its token, which rebuilds it on any server that shares the key.
    let view: String
    /// `image`, `scene` or `gallery`.
    let kind: String
    let state: ZoomSnapshot
    /// The level the current page is drawn from (0 for a scene).
    let level: Int
    let page: GalleryStepRecord?
    let pages: Int?
    /// The current page's index in page order, from 0.
    let pageIndex: Int?
    let map: Bool?
    /// The pages the gallery holds open now (never more than three).
    let loaded: [String]?
    let placements: [Placement]

    enum CodingKeys: String, CodingKey {
        case view, kind, state, level, page, pages, pageIndex, map, loaded, placements
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(view, forKey: .view)
        try c.encode(kind, forKey: .kind)
        try c.encode(state, forKey: .state)
        try c.encode(level, forKey: .level)
        try c.encode(page, forKey: .page)  // null for an image view
        try c.encodeIfPresent(pages, forKey: .pages)
        try c.encodeIfPresent(pageIndex, forKey: .pageIndex)
        try c.encodeIfPresent(map, forKey: .map)
        try c.encodeIfPresent(loaded, forKey: .loaded)
        try c.encode(placements, forKey: .placements)
    }

    /// The answer describing `content` now.
    init(view: String, content: LiveView.Content) {
        self.view = view
        switch content {
        case .image(let session, let identifier):
            // A scene has no IIIF tiles: a client draws its frame.png.
            let scene = session.image is SceneImage
            kind = scene ? "scene" : "image"
            state = session.state.snapshot
            level = session.level
            page = nil
            pages = nil
            pageIndex = nil
            map = nil
            loaded = nil
            placements =
                scene
                ? []
                : [
                    Placement(
                        id: ServeRoot.percentEncoded(identifier), name: Self.name(of: identifier),
                        frame: PixelRect(size: PixelSize(truncating: session.state.viewportSize)), state: state,
                        level: level)
                ]
        case .gallery(let session, _):
            let pagesOf = session.job.pages
            let frame = session.current
            kind = "gallery"
            state = frame.zoom.snapshot
            level = Self.level(of: frame.zoom)
            page = session.record
            pages = pagesOf.count
            pageIndex = pagesOf.layout.pageIndex(at: frame.position)
            map = pagesOf.layout.isMap
            loaded = session.loadedPages.map { pagesOf.name(at: $0) }
            placements = frame.placements.compactMap { placement in
                guard let index = pagesOf.layout.pageIndex(at: placement.position) else { return nil }
                return Placement(
                    id: ServeRoot.percentEncoded(pagesOf.paths[index]), name: pagesOf.names[index],
                    frame: placement.frame, state: placement.zoom.snapshot,
                    level: Self.level(of: placement.zoom))
            }
        }
    }

    /// The level a zoom state is drawn from (docs/design.md section 7).
    static func level(of zoom: ZoomState) -> Int {
        LevelPyramid(imageSize: PixelSize(truncating: zoom.imageSize)).level(forZoomScale: zoom.zoomScale)
    }

    static func name(of identifier: String) -> String {
        guard let slash = identifier.utf8.lastIndex(of: UInt8(ascii: "/")) else { return identifier }
        let name = identifier[identifier.utf8.index(after: slash)...]
        return name.isEmpty ? identifier : String(name)
    }
}
