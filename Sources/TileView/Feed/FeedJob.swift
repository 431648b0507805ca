import TileViewCodecs
import TileViewCore
import TileViewFeed
import TileViewGallery

/// What `tileview feed` does: scrolls a feed through a list of container offsets and writes one PNG frame per
/// offset, `OUTDIR/frame-0000.png` onward, with the record of each (whose `frame` is that path).
///
/// Rendering runs on the calling thread (thumbnails on up to `decodeThreads` threads); each rendered frame is
/// handed to the `FrameWriter`, which encodes and writes up to `writeThreads` frames at once while the next
/// ones are rendered.
///
/// Every section is resolved first (image headers read, grid folders listed) and the output folder made, so a
/// wrong path or an unwritable folder fails before any frame is written. Frames are then rendered in order
/// (`FeedRenderer` over the steps of a `FeedScroller`) and written atomically with the default PNG options. A
/// grid image that cannot be decoded when its cell first becomes resident stops the run (strict mode) with an
/// error naming it; the frames written before it stay, each complete.
///
/// Batches (docs/design.md section 13): with a `shard`, the scroller still walks every offset but only the shard's
/// frames are rendered (each from the cells of the last frame rendered, `FeedScrollStep.reached(from:)`, so the frames
/// are those of the whole run byte for byte); with `resume`, frames an interrupted run of the same job journaled
/// are kept; a SIGINT or SIGTERM (`Interrupts`) stops the run before the next frame, the frames in flight landing
/// whole.
public struct FeedJob: Sendable {
    public var sections: [FeedSectionSpec]
    public var viewportSize: PixelSize
    public var offsets: OffsetRange
    public var outputDirectory: String
    public var background: RGBA8
    public var options: DecodeOptions
    /// Threads rendering thumbnails at once.
    public var decodeThreads: Int
    /// Frames encoded and written at once, on threads besides the one rendering; 0 writes each frame on the
    /// rendering thread before the next is rendered.
    public var writeThreads: Int
    /// How frames are encoded (the encoder's defaults unless asked otherwise).
    public var pngOptions: PNGEncodeOptions
    /// Whether the report keeps one record per frame (`--json`); without them a long run holds nothing per frame.
    public var keepsFrameRecords = true
    /// The frames this process renders (all by default).
    public var shard: GalleryShard = .whole
    /// Keep the frames an earlier, interrupted run of the same job finished (`FrameJournal`).
    public var resume = false
    /// Remove frames in the folder past this run's last one (left by a longer earlier run).
    public var clean = false
    /// When the run stops starting frames (on SIGINT or SIGTERM).
    public var stop = FrameRunStop.onSignals

    /// What a feed run holds at its peak: the frame, the cells drawn into it, and a frame per writer thread
    /// (measured 3.9 V at 4096x4096 with two writer threads; V a frame's bytes).
    public static func memory(viewport: PixelSize, writeThreads: Int) -> MemoryEstimate {
        .frames(viewport, copies: 4 + max(0, writeThreads))
    }

    public init(
        sections: [FeedSectionSpec], viewportSize: PixelSize, offsets: OffsetRange, outputDirectory: String,
        background: RGBA8 = .black, options: DecodeOptions = DecodeOptions(), decodeThreads: Int = 2,
        writeThreads: Int = 2, pngOptions: PNGEncodeOptions = PNGEncodeOptions()
    ) {
        self.sections = sections
        self.viewportSize = viewportSize
        self.offsets = offsets
        self.outputDirectory = outputDirectory
        self.background = background
        self.options = options
        self.decodeThreads = decodeThreads
        self.writeThreads = writeThreads
        self.pngOptions = pngOptions
    }

    /// Runs the job; `progress(done, total)` is called after each frame is rendered (total: the frames this run
    /// renders). Returns the report, the decoders' warnings (lenient mode), the output folder as prepared (frames
    /// kept and found stale) and where the time went.
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws(TileViewError) -> FeedJobResult {
        let clock = ContinuousClock()
        let start = clock.now
        let renderer = try FeedRenderer(
            specs: sections, viewportSize: viewportSize, background: background, options: options,
            decodeThreads: decodeThreads)
        let ours = (0..<offsets.count).filter { shard.contains(frame: $0) }
        let run = try FrameRun(
            .numbered(
                folder: outputDirectory, indices: ours, of: offsets.count, job: journalName(of: renderer),
                shard: shard, resume: resume, clean: clean, pngOptions: pngOptions, writers: writeThreads),
            stop: stop)
        let total = ours.count - run.reusedCount
        var scroller = FeedScroller(layout: renderer.layout, offsets: offsets)
        var records: [FeedFrameReport] = []
        var peakResidentBytes = 0
        var maxResidentCells = 0
        var renderDuration = Duration.zero
        // The cells of the last frame rendered, and whether the steps since were all rendered (each step's cell
        // update then starts where the thumbnails are).
        var renderedResident: [CellRef] = []
        var inStep = true
        try run.perform { (run) throws(TileViewError) in
            while let walked = scroller.next() {
                guard shard.contains(frame: walked.step), !run.isReused(frame: walked.step) else {
                    inStep = false
                    continue
                }
                var step = walked
                try run.write(frame: walked.step) { () throws(TileViewError) -> ImageBuffer in
                    step = inStep ? walked : walked.reached(from: renderedResident)
                    (renderedResident, inStep) = (step.cells.resident, true)
                    let renderStart = clock.now
                    let frame = try renderer.render(step)
                    renderDuration += clock.now - renderStart
                    return frame
                }
                let resident = renderer.residentBytes
                peakResidentBytes = max(peakResidentBytes, resident)
                maxResidentCells = max(maxResidentCells, renderer.cells.count)
                if keepsFrameRecords {
                    records.append(
                        FeedFrameReport(
                            layout: step.record, requestedOffset: step.requestedOffset,
                            frame: run.path(ofFrame: step.step),
                            residentBytes: resident, rssBytes: ProcessMemory.residentBytes))
                }
                progress(run.written, total)
            }
        }
        let frameCount = run.written
        let summary = FeedSummary(
            contentHeight: renderer.layout.contentHeight, maxResidentCells: maxResidentCells,
            peakResidentBytes: peakResidentBytes, peakRSSBytes: ProcessMemory.peakResidentBytes ?? 0,
            residentCellBound: renderer.layout.maxResidentCells, frames: frameCount,
            thumbnailsRendered: renderer.cells.thumbnailsRendered, cellBuffersReused: renderer.cells.buffersReused,
            reused: resume ? run.reusedCount : nil, shard: shard == .whole ? nil : shard.description)
        return FeedJobResult(
            report: FeedReport(frames: records, summary: summary),
            warnings: renderer.warnings + imageWarnings(renderer), output: run.output,
            timing: FeedJobTiming(
                frames: frameCount, total: clock.now - start, rendering: renderDuration,
                encoding: run.encodeDuration))
    }

    /// The job's name in a frame journal (`FrameJournal`): a digest of everything its frames depend on: each
    /// section (an image's file, a grid's files, each with its size and modification time), the viewport, the
    /// offsets, the background, the decode options and the PNG options.
    func journalName(of renderer: FeedRenderer) -> String {
        var text = "feed\n\(viewportSize)\n\(offsets)\n\(background)\n\(options)\n\(pngOptions)\n"
        for (spec, source) in zip(sections, renderer.sources) {
            text += "\(spec)\n"
            switch source {
            case .image(let section): text += FrameJournal.describing(input: section.image.path)
            case .grid(let folder, _):
                for item in folder.names.indices {
                    text += FrameJournal.describing(input: folder.filePath(ofItem: item))
                }
            case .header: break
            }
        }
        return FrameJournal.jobName(describing: text)
    }

    private func imageWarnings(_ renderer: FeedRenderer) -> [String] {
        renderer.sources.flatMap { source -> [String] in
            guard case .image(let section) = source else { return [] }
            return section.image.warnings.map { "\(section.image.path): \($0)" }
        }
    }
}

/// What `FeedJob.run` gives back.
public struct FeedJobResult: Sendable {
    /// The `--json` object.
    public var report: FeedReport
    /// Decoder warnings (lenient mode, and libpng's notes on ancillary chunks), each naming its file.
    public var warnings: [String]
    /// The output folder as the run found it: frames kept by `resume`, frames past the run's last one.
    public var output: FrameOutput?
    public var timing: FeedJobTiming
}

/// Where a run's time went: wall time of the whole run, time spent rendering frames (thumbnails, tiles and
/// composition, on the calling thread), and time spent encoding and writing PNGs (summed over writer threads).
public struct FeedJobTiming: Sendable, CustomStringConvertible {
    public var frames: Int
    public var total: Duration
    public var rendering: Duration
    public var encoding: Duration

    /// Frames per second of wall time, start to end (resolving sections and writing included).
    public var framesPerSecond: Double { Double(frames) / max(Self.seconds(total), 1e-9) }
    /// Frames per second of rendering alone (no PNG encoding).
    public var renderedFramesPerSecond: Double { Double(frames) / max(Self.seconds(rendering), 1e-9) }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    public var description: String {
        func ms(_ d: Duration) -> String { String(Int((Self.seconds(d) * 1000).rounded())) }
        let fps = Int(framesPerSecond.rounded())
        let renderFPS = Int(renderedFramesPerSecond.rounded())
        return "\(frames) frames in \(ms(total)) ms (\(fps) fps); rendering \(ms(rendering)) ms (\(renderFPS) fps); "
            + "PNG encoding and writing \(ms(encoding)) ms, summed over the writer threads"
    }
}
