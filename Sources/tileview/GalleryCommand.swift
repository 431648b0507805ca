import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCLI
import TileViewCore
import TileViewGallery
import TileViewPaging

/// `tileview gallery`: pages through images as a phone's viewer does and writes one frame per step.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Page through images the way a phone's photo viewer does and write one frame per step.",
        discussion: """
            Pages come from FILES (in that order), --dir (its .png/.jpg/.jpeg files in natural name order, \
            img2 before img10; named by file name) or --map (a text grid, one row per line, cells separated \
            by white space, '.' a hole, other cells page paths relative to the map file). Steps come from \
            --moves (next, prev, left, right, up, down, goto N, separated by commas) or --script (one step per line, \
            '#' comments): a move, a zoom gesture on the current page ("double-tap X,Y", "two-finger-tap", \
            "pinch F X,Y", "pan DX,DY", "zoom-to X,Y,W,H"; points in frame pixels) or "drag DX,DY velocity \
            VX,VY" (finger motion in pixels, release velocity in points per millisecond). Linear lists stop at \
            their ends; --circular wraps. At most three pages are resident; each keeps its zoom while \
            resident and starts at fit when it comes back. One frame per step, the initial view included \
            (OUTDIR/frame-0000.png onward); --transition-frames N adds N eased frames between pages. \
            --shard K/N (K from 0) plans every step but renders only frames whose index i has i mod N = K, \
            so shards 0/N to N-1/N together give exactly the unsharded frames and JSON steps. Usage errors \
            (exit 64) and unreadable map, script or page headers (exit 1) are reported before any frame.
            """
    )

    @Argument(help: "Image files, one page each, in page order.")
    var files: [String] = []

    @Option(help: ArgumentHelp("A folder of pages: its image files in natural order.", valueName: "DIR"))
    var dir: String?

    @Option(help: ArgumentHelp("A page map file: a grid of page paths, '.' for a hole.", valueName: "FILE"))
    var map: String?

    @Option(help: "Viewport (frame) size in pixels, WxH (default: 1024x768).", transform: ViewportSize.parse)
    var viewport = ViewportSize(width: 1024, height: 768)

    @Option(help: ArgumentHelp("Moves separated by commas, e.g. \"next,next,prev,goto 5\".", valueName: "MOVES"))
    var moves: String?

    @Option(help: ArgumentHelp("A script file: one move, gesture or drag per line.", valueName: "FILE"))
    var script: String?

    @Flag(help: "Wrap around: next from the last page goes to the first (lists only).")
    var circular = false

    @Option(
        help: ArgumentHelp("The first page: a page as written in the list or map, or an index from 0.", valueName: "P"))
    var start: String?

    @Option(help: ArgumentHelp("Pixels of each neighbour that show at the sides.", valueName: "P"))
    var peek: Int = 0

    @Option(help: ArgumentHelp("Pixels between neighbouring pages.", valueName: "G"))
    var gap: Int = 0

    @Option(
        name: .customLong("transition-frames"), help: ArgumentHelp("Eased frames between two pages.", valueName: "N"))
    var transitionFrames: Int = 0

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder the frames are written to.", valueName: "OUTDIR"))
    var output: String

    @Flag(help: "Print one JSON object with a record per frame (steps) and a summary.")
    var json = false

    @OptionGroup var sharding: ShardOptions

    @Option(help: "Background colour of margins and gaps, RRGGBB or RRGGBBAA.")
    var background = RGBA8.black

    @Option(name: .customLong("max-scale"), help: "Maximum zoom scale of every page (viewport pixels per image pixel).")
    var maxScale: Double = 1.0

    @OptionGroup var resuming: ResumeOptions

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        let sources = [!files.isEmpty, dir != nil, map != nil].filter { $0 }.count
        guard sources == 1 else {
            throw ValidationError("give the pages one way: FILES..., --dir DIR or --map FILE")
        }
        guard moves == nil || script == nil else { throw ValidationError("give --moves or --script, not both") }
        if circular && map != nil { throw ValidationError("--circular applies to lists of pages, not to --map") }
        guard peek >= 0 else { throw ValidationError("--peek must be a whole number of pixels, 0 or more") }
        guard gap >= 0 else { throw ValidationError("--gap must be a whole number of pixels, 0 or more") }
        guard (0...1000).contains(transitionFrames) else {
            throw ValidationError("--transition-frames must be 0 to 1000")
        }
        guard maxScale.isFinite, maxScale > 0 else { throw ValidationError("--max-scale must be a positive number") }
        _ = try moveList()
    }

    /// The `--moves` steps, or nil without `--moves`.
    func moveList() throws -> GalleryScript? {
        guard let moves else { return nil }
        do {
            return GalleryScript(moves: try PageMoveList(parsing: moves))
        } catch {
            throw ValidationError("--moves: \(error)")
        }
    }

    func run() throws {
        // From here SIGINT and SIGTERM stop the run between frames (exit 130 or 143), never mid-file.
        Interrupts.install()
        Report.verbose = decoding.verbose
        Allocator.returnLargeBlocksToTheSystem()
        try Report.failures {
            let memory = GalleryJob.memory(viewport: viewport.pixelSize)
            try decoding.requireRoom(
                for: memory, frameBytes: memory.bytes, viewport: viewport.pixelSize, job: "a gallery")
            let pages: GalleryPages
            if let dir {
                pages = try GalleryPages.reading(folder: dir, circular: circular)
            } else if let map {
                pages = try GalleryPages.reading(mapFile: map)
            } else {
                pages = GalleryPages(files: files, circular: circular)
            }
            var startPosition: PageMap.Cell? = nil
            if let start {
                guard let position = pages.position(forStart: start) else {
                    // A usage error (exit 64) that needed the pages to be read; nothing is written yet.
                    Self.exit(
                        withError: ValidationError("--start " + pages.startProblem(start))
                    )
                }
                startPosition = position
            }
            let steps =
                try script.map { try GalleryScript.reading(file: $0) } ?? moveList() ?? GalleryScript(actions: [])
            let job = GalleryJob(
                pages: pages,
                settings: GallerySettings(
                    viewport: viewport.pixelSize, peek: peek, gap: gap, transitionFrames: transitionFrames,
                    maximumScale: maxScale),
                start: startPosition, script: steps, options: decoding.decodeOptions(leaving: memory),
                background: background)
            let progress = ProgressLine(total: 0, label: "frame")
            let result = try job.run(
                into: output, shard: try sharding.resolve(), resume: resuming.resume, clean: resuming.clean,
                onStart: { run in
                    Report.staleFrames(run.output, clean: resuming.clean)
                    progress.total = run.total - run.reusedCount
                }, onFrame: { _, _ in progress.advance() })
            progress.finish()
            for warning in result.warnings { Report.warning("\(warning.path): \(warning.message)") }
            let summary = result.summary
            if json {
                let steps = result.frames.map {
                    GalleryStepRecord(
                        $0, pages: pages, framePath: FrameWriter.framePath(folder: output, index: $0.index))
                }
                print(
                    try Report.json(GalleryReport(steps: steps, summary: summary)))
            } else {
                Report.framesWritten(summary.frames, into: output, reused: summary.reused)
            }
        }
    }
}
