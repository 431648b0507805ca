import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCLI
import TileViewCore
import TileViewZoom

/// `tileview zoom FILE --tap X,Y`: the viewport after double taps and other gestures, as PNG and JSON.
struct ZoomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zoom",
        abstract: "Zoom into an image the way UIScrollView does and write what the viewport shows.",
        discussion: """
            The image starts at fit (the minimum scale). Gestures apply in the order given on the command \
            line; --tap X,Y is short for --gesture "double-tap X,Y". Gesture forms (viewport pixels unless \
            noted): "double-tap X,Y", "two-finger-tap", "pinch F X,Y", "pan DX,DY", "zoom-to X,Y,W,H" \
            (image pixels), "pan DX,DY velocity VX,VY" (a fling: the content keeps moving after the finger \
            lifts, VX,VY in points per millisecond, slowing by 0.998 per millisecond and stopping at the \
            edges) and "rotate 90|180|270|-90" (quarter turns about the viewport centre). With --frames and \
            --animate every frame of a motion is written at --fps: double taps, two-finger taps and zoom-to \
            take 0.3 s, a fling runs until it stops (--bounce: rubber-banding past an edge and springing back); \
            the final state is the same with or without --animate. Without -o, --json and --frames the frame goes to NAME.zoom.png in the current folder. \
            With --json and no -o only the header is read and nothing is decoded. A scene (a JSON file of \
            coloured rects and images, sniffed from the content; see docs/commands.md) zooms like an image of its \
            size in points; each of its images is decoded only in the part and at the level a frame needs.

            Batches: several FILEs or --dir DIR (its image files in natural order) with -o OUTDIR apply \
            the same gestures to every file and write OUTDIR/NAME.png each (NAME: the file's name without its \
            extension; two files with one NAME are a usage error). A file that cannot be decoded is reported and \
            the batch goes on (exit 1 at the end). --shard K/N (or auto) does the files whose index i has i mod N = K; \
            --resume keeps the frames an interrupted run of the same batch finished; SIGINT or SIGTERM stop \
            between files (exit 130 or 143). --json prints {"files": [a record per file], "summary": {...}}. \
            The same holds for --frames DIR: --resume keeps the frames an interrupted run finished, --clean \
            removes frames past its last one, and signals stop it between frames.
            """
    )

    @Argument(
        help: "An image file (PNG, JPEG, WebP, HEIC, AVIF, TIFF, GIF), or a scene (several, or --dir, for a batch).")
    var files: [String] = []

    @Option(help: ArgumentHelp("A batch of the folder's image files, in natural order.", valueName: "DIR"))
    var dir: String?

    @OptionGroup var sharding: ShardOptions

    @OptionGroup var resuming: ResumeOptions

    @Option(help: "Viewport size in pixels, WxH (default: 1024x768).", transform: ViewportSize.parse)
    var viewport = ViewportSize(width: 1024, height: 768)

    @Option(
        name: [.customLong("tap"), .customLong("gesture")],
        help: ArgumentHelp(
            "--tap X,Y: a double tap at a viewport point; --gesture GESTURE: a gesture (see above). Both keep the order given.",
            valueName: "X,Y | GESTURE"))
    var steps: [String] = []

    @Option(name: .customLong("max-scale"), help: "Maximum zoom scale (viewport pixels per image pixel).")
    var maxScale: Double = 1.0

    @Option(name: .customLong("double-tap-step"), help: "Scale factor of a double tap and a two-finger tap.")
    var doubleTapStep: Double = 1.5

    @Option(help: "Background colour of the margins, RRGGBB or RRGGBBAA.")
    var background = RGBA8.black

    @Option(help: "How image pixels are drawn: smooth, or nearest (sharp squares past 1:1; smooth below).")
    var filter: FrameFilter = .smooth

    @Flag(help: "With --frames: write every frame of animated zooms and flings, not one frame per gesture.")
    var animate = false

    @Option(help: "Frames per second of --animate (1 to 1000).")
    var fps: Double = 60

    @Flag(help: "With --animate: a fling rubber-bands past the content's edges and springs back.")
    var bounce = false

    @Option(name: .shortAndLong, help: "The PNG file to write the final frame to (a batch: the folder for the frames).")
    var output: String?

    @Option(help: "Write the frame before and after every gesture into this folder (frame-0000.png, ...).")
    var frames: String?

    @Flag(help: "Print the final zoom state as JSON on standard output.")
    var json = false

    @Flag(help: "Print decode and cache statistics to standard error.")
    var stats = false

    @OptionGroup var decoding: DecodeOptionGroup

    /// Several files, or a folder: a batch.
    var isBatch: Bool { files.count > 1 || dir != nil }

    func validate() throws {
        guard !files.isEmpty || dir != nil else { throw ValidationError("give a FILE, several FILEs, or --dir DIR") }
        guard files.isEmpty || dir == nil else { throw ValidationError("give FILEs or --dir DIR, not both") }
        if isBatch {
            guard output != nil else { throw ValidationError("a batch needs -o OUTDIR, the folder for its frames") }
            guard frames == nil else { throw ValidationError("--frames applies to one FILE, not to a batch") }
            guard !resuming.clean else { throw ValidationError("--clean applies to --frames, not to a batch") }
            if let clash = Self.clash(in: files) { throw clash }
        } else {
            if let output { try OutputNames.requirePNG(output) }
            guard !sharding.isGiven else { throw ValidationError("--shard applies to batches") }
            guard frames != nil || !(resuming.resume || resuming.clean) else {
                throw ValidationError("--resume and --clean apply to --frames and to batches")
            }
        }
        guard maxScale.isFinite, maxScale > 0 else { throw ValidationError("--max-scale must be a positive number") }
        if animate && frames == nil { throw ValidationError("--animate writes motion frames: give --frames DIR") }
        if bounce && !animate { throw ValidationError("--bounce shapes a fling's frames: give --animate and --frames") }
        guard fps.isFinite, (1...1000).contains(fps) else { throw ValidationError("--fps must be from 1 to 1000") }
        guard doubleTapStep.isFinite, doubleTapStep >= 1 else {
            throw ValidationError("--double-tap-step must be a number of at least 1")
        }
        _ = try orderedGestures()
    }

    /// Taps and gestures in command-line order (`--tap` and `--gesture` fill one list, so their order is kept):
    /// a value that starts with a number, what `--tap` takes, is a double tap there.
    func orderedGestures() throws -> [ZoomGesture] {
        try steps.map { text in
            let isPoint = text.first.map { $0.isNumber || "-+.".contains($0) } ?? false
            do {
                return try ZoomGesture(parsing: isPoint ? "double-tap \(text)" : text)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() throws {
        Report.verbose = decoding.verbose
        if isBatch { return try runBatch() }
        // A run of frames stops between frames on SIGINT and SIGTERM (exit 130 or 143), never mid-file.
        if frames != nil { Interrupts.install() }
        let file = files[0]
        try Report.failures {
            let memory = ZoomJob.memory(viewport: viewport.pixelSize, frames: frames != nil)
            try decoding.requireRoom(
                for: memory, frameBytes: memory.bytes - (frames != nil ? TiledImage.defaultCacheBudgetBytes : 0),
                viewport: viewport.pixelSize, job: "zoom")
            var job = ZoomJob(
                file: file, view: viewSettings(options: decoding.decodeOptions(leaving: memory)),
                gestures: try orderedGestures(),
                output: output ?? (json || frames != nil ? nil : Self.defaultOutput(for: file)), framesFolder: frames,
                animate: animate, framesPerSecond: fps, bounce: bounce)
            job.resume = resuming.resume
            job.clean = resuming.clean
            let result = try job.run()
            if let prepared = result.framesOutput { Report.staleFrames(prepared, clean: resuming.clean) }
            if output == nil, let written = result.output { print(written) }
            for warning in result.image.warnings { Report.warning("\(file): \(warning)") }
            // A gesture that leaves the view as it was says so, with what would make it move.
            for unchanged in result.unchangedGestures { Report.warning("\(file): \(unchanged)") }
            if json { print(try Report.json(ZoomReport(result))) }
            if stats { Report.statistics(of: result.image) }
        }
    }

    /// The view the options describe, decoding with `options`.
    func viewSettings(options: DecodeOptions) -> ViewSettings {
        ViewSettings(
            viewport: viewport.pixelSize, maximumScale: maxScale, doubleTapStep: doubleTapStep, background: background,
            filter: filter.resampleFilter, options: options)
    }

    /// A batch: every file with the same gestures, `OUTDIR/NAME.png` each.
    func runBatch() throws {
        Interrupts.install()
        var records: [BatchRecord] = []
        var finished: ZoomBatch.Summary?
        try Report.failures {
            var inputs = files
            if let dir {
                let folder = try ImageFolder(path: dir)
                inputs = folder.names.indices.map(folder.filePath(ofItem:))
                // A usage error (exit 64) that needed the folder to be listed; nothing is written yet.
                if let clash = Self.clash(in: inputs) { Self.exit(withError: clash) }
            }
            let memory = ZoomBatch.memory(viewport: viewport.pixelSize)
            try decoding.requireRoom(
                for: memory, frameBytes: memory.bytes, viewport: viewport.pixelSize, job: "a zoom batch")
            let batch = ZoomBatch(
                files: inputs, outputFolder: output!,
                view: viewSettings(options: decoding.decodeOptions(leaving: memory)), gestures: try orderedGestures(),
                shard: try sharding.resolve(), resume: resuming.resume)
            let progress = ProgressLine(
                total: inputs.indices.filter { batch.shard.contains(frame: $0) }.count, label: "file")
            let summary = try batch.run { _, file, outcome in
                progress.advance()
                switch outcome {
                case .rendered(let result):
                    for warning in result.image.warnings { Report.warning("\(file): \(warning)") }
                    if json { records.append(BatchRecord(report: ZoomReport(result, file: file))) }
                case .reused(let output):
                    if json { records.append(BatchRecord(file: file, output: output, reused: true)) }
                case .failed(let error):
                    Report.error(error.description)
                    if json { records.append(BatchRecord(file: file, error: error.reason)) }
                }
            }
            progress.finish()
            finished = summary
            if json {
                print(try Report.json(BatchReport(files: records, summary: summary)))
            } else {
                Report.framesWritten(summary.written, into: output!, reused: summary.reused)
            }
        }
        if let finished, finished.failed > 0 {
            Report.error("\(finished.failed) of \(finished.files) files could not be zoomed")
            throw ExitCode.failure
        }
    }

    /// The usage error for two files of a batch whose frames would have one name, if any.
    static func clash(in files: [String]) -> ValidationError? {
        ZoomBatch.clash(in: files).map { a, b in
            ValidationError(
                "'\(a)' and '\(b)' would both be written as \(ZoomBatch.outputName(of: a)); rename one or run them apart"
            )
        }
    }

    /// One file of a batch in `--json`: its zoom report with `file`, or `file` with `error`, or with `reused`.
    struct BatchRecord: Encodable {
        var report: ZoomReport?
        var file: String?
        var output: String?
        var reused: Bool?
        var error: String?

        func encode(to encoder: any Encoder) throws {
            if let report { return try report.encode(to: encoder) }
            var c = encoder.container(keyedBy: Keys.self)
            try c.encodeIfPresent(file, forKey: .file)
            try c.encodeIfPresent(output, forKey: .output)
            try c.encodeIfPresent(reused, forKey: .reused)
            try c.encodeIfPresent(error, forKey: .error)
        }

        enum Keys: String, CodingKey { case file, output, reused, error }
    }

    struct BatchReport: Encodable {
        let files: [BatchRecord]
        let summary: ZoomBatch.Summary
    }

    /// `photo.zoom.png` in the current folder for `path/to/photo.jpg`.
    static func defaultOutput(for path: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return "\(name).zoom.png"
    }
}

extension Report {
    static func statistics(of image: any ZoomContent) {
        let s = image.statistics
        standardError(
            """
            tileview: stats: \(image.path): \(image.decodePasses) decode passes, \(s.tilesDecoded) tiles decoded, \
            \(image.bytesDecoded) bytes of level pixels decoded (\(image.streamedBytes) streamed without tiles), cache \(s.hits) hits / \(s.misses) misses, peak \(s.peakBytes) bytes, \
            resident \(image.residentBytes) bytes

            """)
    }
}
