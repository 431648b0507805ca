import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCLI
import TileViewCodecs
import TileViewCore
import TileViewFeed

/// `tileview feed SECTION... --viewport WxH --offsets FROM:TO:STEP -o OUTDIR [--json]`: a vertical feed of
/// headers, thumbnail grids and images, one frame per container offset.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Scroll a vertical feed of headers, thumbnail grids and images and write one frame per offset.",
        discussion: """
            Sections stack top to bottom in one scrolling container, each as wide as the viewport: \
            image:PATH (the image scaled to the viewport width), grid:DIR:COLUMNS (the folder's image \
            files in natural name order as square thumbnails, aspect fill, COLUMNS per row) and \
            header:HEIGHT[:RRGGBB] (a band of one colour, grey by default). --offsets FROM:TO:STEP gives \
            the container offsets, one frame each (FROM above TO scrolls up); offsets past the ends are \
            clamped. Only the cells and images meeting the viewport, plus one screen ahead in the scroll \
            direction, hold decoded pixels. Frames go to OUTDIR/frame-0000.png onward, each written \
            atomically. Every path is checked before the first frame is written. --shard K/N (or auto) renders \
            the frames whose index i has i mod N = K (the shards' frames together are the whole run's, byte for \
            byte); --resume keeps the frames an interrupted run of the same job finished; SIGINT or SIGTERM stop \
            between frames (exit 130 or 143).
            """
    )

    @Argument(help: ArgumentHelp("Sections, top to bottom.", valueName: "SECTION"))
    var sections: [String]

    @Option(help: "Viewport size in pixels, WxH (default: 1024x768).", transform: ViewportSize.parse)
    var viewport = ViewportSize(width: 1024, height: 768)

    @Option(help: ArgumentHelp("Container offsets, one frame each.", valueName: "FROM:TO:STEP"))
    var offsets: String = "0:0:1"

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the frames to.", valueName: "OUTDIR"))
    var output: String

    @Option(help: "Background colour under the sections, RRGGBB or RRGGBBAA.")
    var background = RGBA8.black

    @Flag(help: "Print the frame records and a summary as JSON on standard output.")
    var json = false

    @Option(
        help:
            "zlib level of the frames, 0 (none) to 9 (smallest), with zlib's default strategy; without it, only runs of a repeated byte are coded (what zlib's Z_RLE finds, by tileview's own deflate: faster, and on photos smaller than level 2)."
    )
    var compression: Int?

    @Flag(help: "Print frame counts and rendering and encoding times to standard error.")
    var stats = false

    @Option(
        name: .customLong("write-threads"),
        help: "Frames encoded at once while the next ones render; 0 encodes each frame before rendering the next.")
    var writeThreads = 2

    @OptionGroup var sharding: ShardOptions

    @OptionGroup var resuming: ResumeOptions

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard (0...9).contains(compression ?? 0) else { throw ValidationError("--compression must be 0 to 9") }
        guard (0...64).contains(writeThreads) else { throw ValidationError("--write-threads must be 0 to 64") }
        guard !sections.isEmpty else {
            throw ValidationError("give at least one SECTION: \(FeedSectionGrammar.forms)")
        }
        _ = try sectionSpecs()
        _ = try offsetRange()
    }

    func sectionSpecs() throws -> [FeedSectionSpec] {
        try sections.map { text in
            do throws(FeedSectionSpecParseError) {
                return try FeedSectionSpec(parsing: text)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The most frames one run may write.
    static let largestFrameCount = 1_000_000

    func offsetRange() throws -> OffsetRange {
        let range: OffsetRange
        do throws(OffsetRangeParseError) {
            range = try OffsetRange(parsing: offsets)
        } catch {
            throw ValidationError(error.description)
        }
        guard range.count <= Self.largestFrameCount else {
            throw ValidationError(
                "--offsets \(offsets) gives \(range.count) frames, more than \(Self.largestFrameCount); use a larger STEP"
            )
        }
        return range
    }

    func run() throws {
        // From here SIGINT and SIGTERM stop the run between frames (exit 130 or 143), never mid-file.
        Interrupts.install()
        Report.verbose = decoding.verbose
        var png = PNGEncodeOptions()
        if let compression { png.compression = .level(compression) }
        let memory = FeedJob.memory(viewport: viewport.pixelSize, writeThreads: writeThreads)
        var job = FeedJob(
            sections: try sectionSpecs(), viewportSize: viewport.pixelSize, offsets: try offsetRange(),
            outputDirectory: output, background: background, options: decoding.decodeOptions(leaving: memory),
            writeThreads: writeThreads, pngOptions: png)
        job.keepsFrameRecords = json
        job.shard = try sharding.resolve()
        job.resume = resuming.resume
        job.clean = resuming.clean
        try Report.failures {
            try decoding.requireRoom(for: memory, frameBytes: memory.bytes, viewport: viewport.pixelSize, job: "a feed")
            let progress = ProgressLine(total: job.offsets.count, label: "feed frame")
            defer { progress.finish() }
            let result = try job.run { _, total in
                progress.total = total
                progress.advance()
            }
            progress.finish()
            Report.staleFrames(result.output, clean: resuming.clean)
            for warning in result.warnings { Report.warning(warning) }
            if json {
                print(try Report.json(result.report))
            } else {
                Report.framesWritten(result.timing.frames, into: output, reused: result.report.summary.reused)
            }
            if stats { Report.error("stats: feed: \(result.timing)") }
        }
    }
}
