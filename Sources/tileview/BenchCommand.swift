import ArgumentParser
import FoundationEssentials
import TileView
import TileViewBench
import TileViewCLI
import TileViewCore
import TileViewGallery

/// `tileview bench`: measurements with a failing exit code, for CI.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure tileview on your own images, with exit codes for budgets.",
        subcommands: [MemoryBenchCommand.self]
    )
}

/// `tileview bench memory`: pages through a folder and reports resident pages, decoded bytes and RSS per step.
struct MemoryBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Page through a folder rendering every frame and report memory per step and its peaks.",
        usage: "tileview bench memory --dir <DIR> --steps <N> [--viewport <WxH>] [--budget-mb <M>] [<options>]",
        discussion: """
            Pages forward through DIR's image files (natural name order, wrapping around) for --steps \
            moves, rendering each frame as tileview gallery does without writing it. Each step reports the \
            resident pages, the decoded bytes they hold right after the frame is rendered, and the process's \
            resident set size (VmRSS); the summary reports the peaks, the RSS peak being the kernel's high-water \
            mark (VmHWM) for the whole process. With --budget-mb M the exit status is 1 when that peak passes M \
            MiB (2^20 bytes). --plot writes a PNG chart of both series over the steps.
            """
    )

    @Option(help: ArgumentHelp("The folder of pages.", valueName: "DIR"))
    var dir: String

    @Option(help: "Viewport (frame) size in pixels, WxH (default: 1024x768).", transform: ViewportSize.parse)
    var viewport = ViewportSize(width: 1024, height: 768)

    @Option(help: ArgumentHelp("Moves forward after the first page.", valueName: "N"))
    var steps: Int

    @Option(name: .customLong("budget-mb"), help: ArgumentHelp("Fail when peak RSS passes M MiB.", valueName: "M"))
    var budgetMB: Double?

    @Flag(help: "Print the samples and peaks as one JSON object.")
    var json = false

    @Option(help: ArgumentHelp("Write a PNG chart of decoded bytes and RSS per step.", valueName: "FILE"))
    var plot: String?

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard steps >= 0 else { throw ValidationError("--steps must be 0 or more") }
        if let budgetMB, !(budgetMB.isFinite && budgetMB > 0) {
            throw ValidationError("--budget-mb must be a positive number")
        }
    }

    func run() throws {
        let budgetBytes = budgetMB.map { Int(($0 * 1_048_576).rounded(.down)) }
        Allocator.returnLargeBlocksToTheSystem()
        var report: MemoryBenchReport?
        try Report.failures {
            let memory = GalleryJob.memory(viewport: viewport.pixelSize)
            try decoding.requireRoom(
                for: memory, frameBytes: memory.bytes, viewport: viewport.pixelSize, job: "the gallery walk")
            let pages = try GalleryPages.reading(folder: dir, circular: true)
            let progress = ProgressLine(total: steps + 1, label: "step")
            let result = try MemoryBench.run(
                pages: pages, viewport: viewport.pixelSize, steps: steps,
                options: decoding.decodeOptions(leaving: memory)
            ) { _ in progress.advance() }
            progress.finish()
            if let plot {
                try ImageFiles.writePNG(ChartMemoryPlot.draw(result, budgetBytes: budgetBytes), to: plot)
            }
            report = result
        }
        guard let report else { return }
        if json {
            print(try Report.json(MemoryBenchJSON(report: report, budgetBytes: budgetBytes)))
        } else {
            print("step  page  resident  decoded MiB  RSS MiB")
            for step in report.steps {
                print(
                    "\(step.step)  \(step.page)  \(step.resident.joined(separator: ","))  "
                        + "\(Self.mib(step.residentBytes))  \(step.rssBytes.map(Self.mib) ?? "-")")
            }
            let s = report.summary
            print(
                "peak decoded \(Self.mib(s.peakResidentBytes)) MiB, peak RSS \(s.peakRSSBytes.map(Self.mib) ?? "-") MiB, "
                    + "max resident \(s.maxResident) pages, \(s.frames) frames of \(s.pages) pages")
        }
        if let budgetBytes, !report.isWithin(budgetBytes: budgetBytes) {
            let peak = report.summary.peakRSSBytes.map { "\(Self.mib($0)) MiB" } ?? "unknown"
            Report.error("peak RSS \(peak) is over the budget of \(Self.mib(budgetBytes)) MiB")
            throw ExitCode.failure
        }
    }

    /// Bytes in MiB with one decimal.
    static func mib(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10)"
    }
}

/// The `--json` of `tileview bench memory`: the report, plus the budget and the verdict when a budget is given.
struct MemoryBenchJSON: Encodable {
    let report: MemoryBenchReport
    let budgetBytes: Int?

    enum CodingKeys: String, CodingKey { case steps, summary, budgetBytes, withinBudget }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(report.steps, forKey: .steps)
        try c.encode(report.summary, forKey: .summary)
        if let budgetBytes {
            try c.encode(budgetBytes, forKey: .budgetBytes)
            try c.encode(report.isWithin(budgetBytes: budgetBytes), forKey: .withinBudget)
        }
    }
}
