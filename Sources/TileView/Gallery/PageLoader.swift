import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewRender
import TileViewTiling

/// Owns the tiled images of a gallery's resident pages: opens pages entering the resident set, evicts pages
/// leaving it (every decoded byte freed), and decodes, on a worker thread, the level pixels a frame needs.
///
/// Model: at most three pages are resident (the pager's plan, `makeResident`). A resident page is an open
/// `TiledImage` (its header read), or a scene (`SceneImage`), which the worker renders whole at the page's zoom
/// state; a page turned by its zoom state's rotation is drawn from its image turned by as many quarter turns,
/// opened when first drawn and kept while the page is resident. Decoded pixels are held only for frames being
/// made:
/// - `startDecoding` decodes the regions one frame draws (`PageRegionRequest`) on a worker and
///   `finishDecoding` hands them over as `DecodedPageRegion`s, which the renderer reads directly;
/// - a page the frame after shows too keeps its tiles in its cache (`keepingTiles`, budget
///   `pageCacheBudgetBytes`), so a transition, a peek or a zoom gesture does not decode it again; any other page
///   keeps none (its decoded block is the region itself, with no tile copies), and `trim(keeping:)` releases
///   the tiles of pages the next frame does not show;
/// - given the draws' renderers, the worker renders the part of a page that keeps no tiles straight from the
///   decoder's rows instead (a ring of rows, no region), when the part is worth the threads.
/// So the decoded bytes at any time are those of at most two frames' pages (the frame being rendered and the one
/// being decoded) plus the cached tiles of pages both show, whatever the gallery's length; a page outside the
/// resident set holds none. Zoom states live in the plan (`PageZoomStates`), which forgets an evicted page's
/// state, so a page that comes back starts at fit.
///
/// Between `startDecoding` and `finishDecoding` the worker owns the images and the loader must not be used
/// (the decoded regions of the frame before, being plain buffers, may be rendered meanwhile). Not thread-safe
/// otherwise: one loader is used from one thread.
public final class PageLoader {
    public typealias Cell = PageMap.Cell

    /// The most pages a gallery keeps resident: current, previous and next.
    public static let maximumResident = 3

    /// What `makeResident` did: pages opened, pages evicted and the decoded bytes that eviction freed.
    public struct Change: Hashable, Sendable {
        public let loaded: [Cell]
        public let evicted: [Cell]
        public let freedBytes: Int
    }

    private struct Entry {
        /// The page upright: an image or a scene.
        let content: any ZoomContent
        /// Whether its tile cache has a budget (the next frame shows the page too).
        var keepsTiles: Bool
        /// The page's image turned by 1, 2 or 3 clockwise quarter turns, opened when first drawn.
        var turned: [Int: TiledImage] = [:]

        /// The upright content and the turned images.
        var all: [any ZoomContent] { [content] + turned.keys.sorted().map { turned[$0]! } }
    }

    public let pages: GalleryPages
    public let options: DecodeOptions
    public let tileSize: Int
    /// The tile cache budget of a page that keeps its tiles (see `pageCacheBudget(viewport:tileSize:)`).
    public let pageCacheBudgetBytes: Int
    private var entries: [Cell: Entry] = [:]
    private var job: PageDecodeJob?
    /// Decoder warnings of pages (lenient mode; libpng's benign ones), by file, each once.
    public private(set) var warnings: [(path: String, message: String)] = []
    /// Pages opened and evicted so far.
    public private(set) var loadCount = 0
    public private(set) var evictionCount = 0
    /// Decoding passes and decoded bytes of images this loader no longer holds.
    private var retiredPasses = 0
    private var retiredBytesDecoded = 0

    /// Headers of page files read so far (shared with planning), so a page reopened is not read again.
    public let headers: PageHeaders

    /// Names the shared tile cache entry of a page file (by its path), or nil to give that page its own cache.
    public typealias SharedTilesNamer = @Sendable (String) -> TiledImage.SharedTiles?
    /// Where pages keep their tiles when they are shared with other images (a server's cache); nil: each page
    /// has its own cache, as above.
    public let sharedTiles: SharedTilesNamer?

    /// Opens a page by the name the gallery gives it (its path) with a tile cache budget, in place of
    /// `ZoomContentFiles.open`: a server resolves the name beneath its root again at every open, and reads the
    /// descriptor it checked (`ServedImages.opener`).
    public typealias PageOpener =
        @Sendable (_ path: String, _ cacheBudgetBytes: Int) throws(TileViewError) -> any ZoomContent
    /// nil: pages are opened by path (`ZoomContentFiles.open`).
    public var opener: PageOpener?

    public init(
        pages: GalleryPages, pageCacheBudgetBytes: Int, tileSize: Int = TileGrid.defaultTileSize,
        options: DecodeOptions = DecodeOptions(), headers: PageHeaders = PageHeaders(),
        sharedTiles: SharedTilesNamer? = nil
    ) {
        self.headers = headers
        self.sharedTiles = sharedTiles
        self.pages = pages
        self.pageCacheBudgetBytes = pageCacheBudgetBytes
        self.tileSize = tileSize
        self.options = options
    }

    /// A page cache budget that holds every tile any single view of a page needs in a frame of `viewport`, so a
    /// frame never decodes a tile twice: the level drawn at scale s has 2^L <= 1/s, so the visible part of it is
    /// under twice the frame on each axis; with the resampling filter's reach and tile rounding that is at most
    /// (2w + 2T + 8) x (2h + 2T + 8) pixels of 4 bytes (T the tile size). 21 MB for 1024x768 and 256-pixel tiles.
    public static func pageCacheBudget(viewport: PixelSize, tileSize: Int = TileGrid.defaultTileSize) -> Int {
        let t = max(1, tileSize)
        return (2 * max(1, viewport.width) + 2 * t + 8) * (2 * max(1, viewport.height) + 2 * t + 8) * 4
    }

    /// The resident pages, in page order.
    public var residentPositions: [Cell] {
        checkIdle()
        return entries.keys.sorted()
    }

    /// The open image of a resident page (nil for a scene), turned by `turns` clockwise quarter turns; a turned
    /// image is opened (its header is known) the first time it is asked for.
    public func image(at position: Cell, turns: Int = 0) -> TiledImage? {
        checkIdle()
        guard let entry = entries[position], let image = entry.content as? TiledImage else { return nil }
        let quarter = normalizedQuarterTurns(turns)
        if quarter == 0 { return image }
        if let turned = entry.turned[quarter] { return turned }
        // The header is known and was accepted upright: turning it cannot fail on anything but the same checks.
        guard let turned = try? image.turned(by: quarter) else { return nil }
        entries[position]?.turned[quarter] = turned
        return turned
    }

    /// What a resident page shows, upright: its image or its scene.
    public func content(at position: Cell) -> (any ZoomContent)? {
        checkIdle()
        return entries[position]?.content
    }

    /// Whether a resident page keeps its decoded tiles between frames.
    public func keepsTiles(at position: Cell) -> Bool {
        checkIdle()
        return entries[position]?.keepsTiles ?? false
    }

    /// Decoded bytes held in the resident pages' tile caches (the regions handed out are counted by their holder).
    public var residentBytes: Int {
        checkIdle()
        return entries.values.reduce(0) { total, entry in total + entry.all.reduce(0) { $0 + $1.residentBytes } }
    }

    /// Decoded bytes held in one page's tile cache (0 when it is not resident).
    public func residentBytes(at position: Cell) -> Int {
        checkIdle()
        return entries[position]?.all.reduce(0) { $0 + $1.residentBytes } ?? 0
    }

    /// Decoding passes over page files so far, evicted pages included.
    public var decodePasses: Int {
        checkIdle()
        return retiredPasses
            + entries.values.reduce(0) { total, entry in total + entry.all.reduce(0) { $0 + $1.decodePasses } }
    }

    /// Bytes of level pixels decoded so far, evicted pages included.
    public var bytesDecoded: Int {
        checkIdle()
        return retiredBytesDecoded
            + entries.values.reduce(0) { total, entry in total + entry.all.reduce(0) { $0 + $1.bytesDecoded } }
    }

    /// Makes `positions` (at most three pages) the resident set: evicts the others first, freeing every byte
    /// they decoded, then opens the entering pages (header only). Pages in `keepingTiles` get a tile cache of
    /// `pageCacheBudgetBytes`, the others none (a resident page whose need changed gets the other budget in
    /// place; that is not a load). Throws, naming the file, when a page cannot be opened.
    @discardableResult
    public func makeResident(_ positions: [Cell], keepingTiles: Set<Cell> = []) throws(TileViewError) -> Change {
        checkIdle()
        let wanted = Set(positions)
        precondition(wanted.count <= Self.maximumResident, "\(wanted.count) pages asked to be resident")
        var evicted: [Cell] = []
        var freed = 0
        for (position, entry) in entries where !wanted.contains(position) {
            for content in entry.all {
                freed += content.residentBytes
                retire(content)
            }
            entries[position] = nil
            evicted.append(position)
        }
        var loaded: [Cell] = []
        for position in wanted.sorted() {
            let keeps = keepingTiles.contains(position)
            if let entry = entries[position] {
                guard entry.keepsTiles != keeps else { continue }
                // Same page, new need: change its cache budget in place (dropping to 0 frees its tiles).
                for content in entry.all { content.setCacheBudget(bytes: keeps ? pageCacheBudgetBytes : 0) }
                entries[position]?.keepsTiles = keeps
            } else {
                loaded.append(position)
                entries[position] = Entry(content: try open(position, keepingTiles: keeps), keepsTiles: keeps)
            }
        }
        loadCount += loaded.count
        evictionCount += evicted.count
        return Change(loaded: loaded, evicted: evicted.sorted(), freedBytes: freed)
    }

    /// Releases the decoded tiles of resident pages outside `visible` (they stay open with their headers).
    /// Returns the bytes freed.
    @discardableResult
    public func trim(keeping visible: Set<Cell>) -> Int {
        checkIdle()
        var freed = 0
        for (position, entry) in entries where !visible.contains(position) {
            for content in entry.all where content.residentBytes > 0 {
                freed += content.residentBytes
                content.releaseAll()
            }
        }
        return freed
    }

    /// Decodes `requests` now; one result per request, nil for a page that is not resident or a rect that
    /// misses its level.
    public func decode(_ requests: [PageRegionRequest]) throws(TileViewError) -> [DecodedPageRegion?] {
        startDecoding(requests)
        return try finishDecoding()
    }

    /// Starts decoding `requests` on a worker thread. Until `finishDecoding` returns, the worker owns the
    /// images and the loader must not be used.
    ///
    /// `renderers`, when given, holds the renderer of each request's draw (in the same order): a request whose
    /// page keeps no tiles and whose part is worth the threads (`FramePipeline.pays`) is then rendered on the
    /// worker straight from the decoder's rows, its decoder on a thread of its own, and comes back as that part
    /// (`DecodedPageRegion.isRenderedPart`): the page's region is never held, and the frame's bytes are the same.
    public func startDecoding(_ requests: [PageRegionRequest], renderers: [FrameRenderer?] = []) {
        checkIdle()
        precondition(renderers.isEmpty || renderers.count == requests.count, "one renderer per request")
        let job = PageDecodeJob(
            work: requests.indices.map { n in
                let request = requests[n]
                guard request.rendering == nil else {
                    return entries[request.position].map { PageDecodeJob.Work.render($0.content, request) }
                }
                guard let image = image(at: request.position, turns: request.turns) else { return nil }
                if n < renderers.count, let renderer = renderers[n], image.pixelSource == .decoder,
                    renderer.sourceRect == request.rect, FramePipeline.pays(frameSize: renderer.geometry.frameSize)
                {
                    return .stream(image, request, renderer)
                }
                return .decode(image, request)
            })
        self.job = job
        job.start()
    }

    /// Waits for the decoding `startDecoding` began and returns its regions (one per request); rethrows its
    /// first error, which names the file. Returns no regions when nothing was started.
    public func finishDecoding() throws(TileViewError) -> [DecodedPageRegion?] {
        guard let job else { return [] }
        self.job = nil
        return try job.wait()
    }

    /// Evicts every page (at the end of a run), keeping the counters and warnings.
    public func evictAll() {
        _ = try? finishDecoding()
        _ = try? makeResident([])
    }

    private func open(_ position: Cell, keepingTiles: Bool) throws(TileViewError) -> any ZoomContent {
        let path = pages.path(at: position)
        if let opener { return try opener(path, keepingTiles ? pageCacheBudgetBytes : 0) }
        return try ZoomContentFiles.open(
            path, cacheBudgetBytes: keepingTiles ? pageCacheBudgetBytes : 0, options: options, headers: headers,
            tileSize: tileSize, sharedTiles: sharedTiles?(path))
    }

    /// Frees a page's tiles and keeps its counters and warnings.
    private func retire(_ content: any ZoomContent) {
        content.releaseAll()
        retiredPasses += content.decodePasses
        retiredBytesDecoded += content.bytesDecoded
        // A page decoded again after a trim repeats its warnings: keep each once.
        for message in content.warnings where !warnings.contains(where: { $0 == (content.path, message) }) {
            warnings.append((content.path, message))
        }
    }

    private func checkIdle() {
        precondition(job == nil, "the loader is decoding in the background; call finishDecoding() first")
    }

    deinit {
        _ = try? job?.wait()
    }
}
