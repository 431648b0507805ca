import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewSystem

/// What a job tells `FrameRun` about its frames: where they go, their names in the order the run writes them, what
/// the frames depend on (the journal's job name), and how the run treats an earlier one.
public struct FrameRunPlan: Sendable {
    /// The output folder (created if missing); nil renders the frames without writing them (a memory bench).
    public var folder: String?
    /// The files of this run (its shard's), in the order it writes them: numbered frame names or a batch's
    /// `NAME.png`.
    public var outputs: [String]
    /// The job's count of numbered frames (every shard's); frames in the folder past it are stale. Nil for a
    /// batch, whose outputs are not numbered.
    public var frameCount: Int?
    /// The job's name in the journal (`FrameJournal.jobName`): a digest of everything its frames depend on.
    public var job: String
    public var shard: GalleryShard
    /// Keep the frames an interrupted run of the same job finished.
    public var resume: Bool
    /// Remove the stale frames (else they are only reported).
    public var clean: Bool
    /// What the stop message counts: "frames", or a batch's "files".
    public var unit: String
    public var pngOptions: PNGEncodeOptions
    /// Frames encoded and written at once (0: on the rendering thread).
    public var writers: Int
    /// What the stop message names (the folder when nil) and how it says to carry on.
    public var place: String?
    public var carryOn = "rerun with --resume"

    public init(
        folder: String?, outputs: [String], frameCount: Int? = nil, job: String, shard: GalleryShard = .whole,
        resume: Bool = false, clean: Bool = false, unit: String = "frames",
        pngOptions: PNGEncodeOptions = PNGEncodeOptions(),
        writers: Int = FrameWriter.defaultMaxInFlight
    ) {
        self.folder = folder
        self.outputs = outputs
        self.frameCount = frameCount
        self.job = job
        self.shard = shard
        self.resume = resume
        self.clean = clean
        self.unit = unit
        self.pngOptions = pngOptions
        self.writers = writers
    }

    /// The plan of numbered frames `indices` (this run's, in order) of a job of `count` frames.
    public static func numbered(
        folder: String?, indices: [Int], of count: Int, job: String, shard: GalleryShard = .whole,
        resume: Bool = false, clean: Bool = false, pngOptions: PNGEncodeOptions = PNGEncodeOptions(),
        writers: Int = FrameWriter.defaultMaxInFlight
    ) -> FrameRunPlan {
        FrameRunPlan(
            folder: folder, outputs: indices.map(FrameWriter.frameName), frameCount: count, job: job, shard: shard,
            resume: resume, clean: clean, pngOptions: pngOptions, writers: writers)
    }
}

/// When a run stops starting frames: on SIGINT or SIGTERM (`Interrupts`, the commands), or, for tests, as if a
/// signal came after a given number of frames were started.
public enum FrameRunStop: Sendable, Equatable {
    case onSignals
    /// As if `signal` arrived once `frames` frames of this run had been started.
    case after(frames: Int, signal: Int32)

    /// The signal that stops the run when `started` frames have been started, or nil.
    package func signal(started: Int) -> Int32? {
        switch self {
        case .onSignals: Interrupts.stopSignal
        case .after(let frames, let signal): started >= frames ? signal : nil
        }
    }
}

/// A run of numbered frames (or a batch's files), the one place that prepares the output folder, keeps what an
/// interrupted run finished (`--resume`), journals, stops between frames on a signal, hands frames to the
/// `FrameWriter` and lets the frames in flight land whole when anything fails (docs/design.md section 13).
///
/// A job declares its frames (`FrameRunPlan`) and, inside `perform`, asks for each in order with `write`, giving
/// the frame's drawing; `write` skips a frame an earlier run finished, checks for a stop before drawing, and
/// submits. Zoom frames, zoom batches, galleries and feeds all run this way; `tileview index` (`IndexJob`) too, each
/// image a `step` that writes no frame.
public final class FrameRun {
    public let plan: FrameRunPlan
    /// The folder as the run found it (frames kept, stale frames); nil without a folder.
    public let output: FrameOutput?
    public let writer: FrameWriter?
    public let stop: FrameRunStop
    /// Frames this run has started (drawn, written, or failed in the drawing).
    public private(set) var started = 0
    /// Frames this run has handed to the writer.
    public private(set) var written = 0

    /// Prepares the folder (see `FrameOutput.prepare`) and starts the writer; nothing is drawn yet.
    public init(_ plan: FrameRunPlan, stop: FrameRunStop = .onSignals) throws(TileViewError) {
        self.plan = plan
        self.stop = stop
        if let folder = plan.folder {
            let output = try FrameOutput.prepare(
                folder: folder, outputs: plan.outputs, frameCount: plan.frameCount, job: plan.job, shard: plan.shard,
                resume: plan.resume, clean: plan.clean)
            self.output = output
            writer = try FrameWriter(
                folder: folder, options: plan.pngOptions, maxInFlight: plan.writers, journal: output.journal)
        } else {
            output = nil
            writer = nil
        }
    }

    /// Files of this run (its shard's).
    public var total: Int { plan.outputs.count }
    /// Files of this run an earlier run finished.
    public var reusedCount: Int { output?.reusedNames.count ?? 0 }

    /// Whether an earlier run finished the file `name`.
    public func isReused(_ name: String) -> Bool { output?.reusedNames.contains(name) ?? false }
    /// Whether an earlier run finished numbered frame `index`.
    public func isReused(frame index: Int) -> Bool { isReused(FrameWriter.frameName(index)) }

    /// The path of numbered frame `index` (in the folder; the bare name without one).
    public func path(ofFrame index: Int) -> String {
        plan.folder.map { FrameWriter.framePath(folder: $0, index: index) } ?? FrameWriter.frameName(index)
    }

    /// Runs `body`, which asks for the frames; then waits for the frames in flight. When `body` throws, the frames
    /// in flight land (each whole) before the error goes on.
    public func perform<Result>(_ body: (FrameRun) throws(TileViewError) -> Result) throws(TileViewError) -> Result {
        let result: Result
        do throws(TileViewError) {
            result = try body(self)
        } catch {
            try? writer?.finish()
            throw error
        }
        try writer?.finish()
        return result
    }

    /// Numbered frame `index`, drawn by `draw` unless an earlier run finished it; returns whether it was drawn.
    @discardableResult
    public func write(frame index: Int, _ draw: () throws(TileViewError) -> ImageBuffer) throws(TileViewError) -> Bool {
        try write(named: FrameWriter.frameName(index), order: index, draw)
    }

    /// The file `name` (the `order`-th of the job), drawn by `draw` unless an earlier run finished it; returns
    /// whether it was drawn (`step`). An error of `draw` goes to the caller (a batch may go on after it).
    @discardableResult
    public func write(
        named name: String, order: Int, _ draw: () throws(TileViewError) -> ImageBuffer
    ) throws(TileViewError) -> Bool {
        try step(named: name) { () throws(TileViewError) in
            let image = try draw()
            try writer?.submit(image, named: name, order: order)
            written += 1
        }
    }

    /// The step `name` of the job (a frame, or what a job that writes no frame does for one of its `outputs`:
    /// `tileview index`'s image), done by `body` unless an earlier run finished it; returns whether it was done.
    /// Throws `.interrupted` when asked to stop before it: "stopped by SIGINT after N of M frames; rerun with
    /// --resume". An error of `body` goes to the caller.
    @discardableResult
    public func step(named name: String, _ body: () throws(TileViewError) -> Void) throws(TileViewError) -> Bool {
        guard !isReused(name) else { return false }
        if let signal = stop.signal(started: started) {
            throw TileViewError(
                .interrupted, path: plan.place ?? plan.folder ?? "",
                reason: "stopped by \(Interrupts.name(of: signal)) after \(reusedCount + started) of \(total) "
                    + "\(plan.unit); \(plan.carryOn)")
        }
        started += 1
        try body()
        return true
    }

    /// Time spent encoding and writing, summed over the writer's threads.
    public var encodeDuration: Duration { writer?.totalEncodeDuration ?? .zero }
}
