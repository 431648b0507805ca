import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewTiling

/// A whole gallery job: the pages, how they are shown, where to start and the steps, planned and rendered.
///
/// `plan()` reads only headers (one per page that becomes resident), so every usage and file error that does
/// not need pixels comes before any frame; `render` then draws the planned frames (see `GalleryRun`).
public struct GalleryJob: Sendable {
    public typealias Cell = PageMap.Cell

    public let pages: GalleryPages
    public let settings: GallerySettings
    /// The first page; nil for the first page in page order.
    public let start: Cell?
    public let script: GalleryScript
    public let options: DecodeOptions
    public let background: RGBA8
    public let tileSize: Int
    /// Page headers read while planning, handed to the loader (each page file's header is read once).
    public let headers = PageHeaders()
    /// Opens pages for planning and loading in place of `ZoomContentFiles.open` (see `PageLoader.opener`).
    public var opener: PageLoader.PageOpener?

    public init(
        pages: GalleryPages, settings: GallerySettings, start: Cell? = nil, script: GalleryScript,
        options: DecodeOptions = DecodeOptions(), background: RGBA8 = .black, tileSize: Int = TileGrid.defaultTileSize
    ) {
        self.pages = pages
        self.settings = settings
        self.start = start
        self.script = script
        self.options = options
        self.background = background
        self.tileSize = tileSize
    }

    /// Viewport-sized buffers a gallery run holds at its peak: the frame being rendered and its parts, the next
    /// frame's decoded regions, and the frames the writer encodes meanwhile with their encodings (measured 3.1 V
    /// at 4096x4096 with peeking transitions; V a frame's bytes).
    public static let frameCopies = 5

    /// What a gallery run holds at its peak: `frameCopies` frames of `viewport`.
    public static func memory(viewport: PixelSize) -> MemoryEstimate {
        .frames(viewport, copies: frameCopies)
    }

    /// Every frame of the walk, planned; reads the header of each page that becomes resident.
    public func plan() throws(TileViewError) -> [GalleryFramePlan] {
        var planner = try makePlanner()
        for action in script.actions { try planner.apply(action) }
        return planner.frames
    }

    /// A planner at the job's start with its initial frame planned, reading page sizes as `plan()` does; more
    /// steps can be applied to it one at a time (a gallery being looked at).
    public func makePlanner() throws(TileViewError) -> GalleryPlanner {
        try GalleryPlanner(layout: pages.layout, start: start, settings: settings, imageSize: imageSizeReader)
    }

    /// How the planner reads a page's size: opening applies the pixel limit and the orientation exactly as the
    /// loader will; a scene page is as large as its container.
    public var imageSizeReader: GalleryPlanner.ImageSizeReader {
        let pages = self.pages
        let options = self.options
        let headers = self.headers
        let opener = self.opener
        return { (position: Cell) throws(TileViewError) -> Size in
            if let opener { return try opener(pages.path(at: position), 0).contentSize }
            return try ZoomContentFiles.open(
                pages.path(at: position), cacheBudgetBytes: 0, options: options, headers: headers
            ).contentSize
        }
    }

    /// With `--color keep`, the colour description every page the frames show shares (its profile goes into the
    /// frames' PNGs, docs/design.md section 14); nil when frames are sRGB or the pages differ.
    public func keptColor(of frames: [GalleryFramePlan]) -> ColorDescription? {
        guard options.color == .keep else { return nil }
        let shown = Set(frames.flatMap { $0.placements.map(\.position) })
        return ColorDescription.shared(
            shown.sorted().map {
                headers.known(pages.path(at: $0))?.color
            })
    }

    /// A loader for this job's pages with the per-page budget of its viewport; with `sharedTiles`, pages keep
    /// their tiles in that cache instead (a server's).
    public func makeLoader(sharedTiles: PageLoader.SharedTilesNamer? = nil) -> PageLoader {
        let loader = PageLoader(
            pages: pages,
            pageCacheBudgetBytes: PageLoader.pageCacheBudget(viewport: settings.viewport, tileSize: tileSize),
            tileSize: tileSize, options: options, headers: headers, sharedTiles: sharedTiles)
        loader.opener = opener
        return loader
    }

    /// The job's name in a frame journal (`FrameJournal`): a digest of everything its frames depend on: each
    /// page's name, file, size and modification time, the layout, the settings, the start, the steps, the decode
    /// options, the background and the tile size. A resumed run reuses only frames journaled under this name.
    public var journalName: String {
        var text = "gallery\n\(pages.layout)\n"
        for (name, path) in zip(pages.names, pages.paths) { text += name + "\t" + FrameJournal.describing(input: path) }
        text += "\(settings)\n\(String(describing: start))\n\(script.actions.map(\.description))\n"
        text += "\(options)\n\(background)\n\(tileSize)\n"
        return FrameJournal.jobName(describing: text)
    }

    /// Plans the frames and renders those of `shard` into `folder` (nil: rendered, not written), as `tileview
    /// gallery` does: `resume` keeps the frames an interrupted run of the same job finished, `clean` removes
    /// frames past the last one, `stop` says when to stop starting frames. `onStart` sees the run once the folder
    /// is prepared, before any frame; `onFrame` each frame after its render.
    public func run(
        into folder: String?, shard: GalleryShard = .whole, resume: Bool = false, clean: Bool = false,
        stop: FrameRunStop = .onSignals, onStart: (FrameRun) -> Void = { _ in },
        onFrame: (GalleryFramePlan, GalleryRun.FrameSample) -> Void = { _, _ in }
    ) throws(TileViewError) -> GalleryJobResult {
        let frames = try plan()
        let ours = frames.filter { shard.contains(frame: $0.index) }
        let run = try FrameRun(
            .numbered(
                folder: folder, indices: ours.map(\.index), of: frames.count, job: journalName, shard: shard,
                resume: resume, clean: clean,
                pngOptions: keptColor(of: frames)?.embedding(in: PNGEncodeOptions()) ?? PNGEncodeOptions()),
            stop: stop)
        onStart(run)
        let loader = makeLoader()
        let summary = try GalleryRun.render(frames, run: run, loader: loader, compositor: compositor, onFrame: onFrame)
        return GalleryJobResult(frames: ours, summary: summary, output: run.output, warnings: loader.warnings)
    }

    /// The compositor for this job's viewport and background.
    public var compositor: GalleryCompositor {
        GalleryCompositor(viewport: settings.viewport, background: background, filter: .automatic)
    }
}

/// What `GalleryJob.run` did: the frames of its shard as planned, the summary, the output folder as the run found it
/// (frames kept, stale frames) and the decoders' warnings, each naming its page file.
public struct GalleryJobResult {
    public let frames: [GalleryFramePlan]
    public let summary: GallerySummaryRecord
    public let output: FrameOutput?
    public let warnings: [(path: String, message: String)]
}
