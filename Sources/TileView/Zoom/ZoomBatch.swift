import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewZoom

/// `tileview zoom FILE... -o OUTDIR` (or `--dir DIR`, docs/design.md section 13): the same gestures on every file, one
/// frame per file written as `OUTDIR/NAME.png` (NAME: the file's name without its extension).
///
/// Each file is a `ZoomSession` whose frame is rendered straight from the decoder's rows (no tile cache), so
/// memory is one frame being rendered plus the frames the writer is encoding (`FrameWriter`, two at once by
/// default): decoding file i+1 overlaps encoding file i, and the count of files does not matter. A file that
/// cannot be read or decoded is reported (its record has `error`) and the batch goes on; a frame that cannot be
/// written stops it. With a shard only files whose index i has i mod N = K are done; `--resume` keeps the frames
/// an interrupted run of the same batch finished (`FrameJournal`); SIGINT and SIGTERM stop it between files.
public struct ZoomBatch: Sendable {
    public var files: [String]
    public var outputFolder: String
    /// The viewport, the largest scale, the double tap's step, the background, the filter and the decode options.
    public var view: ViewSettings
    public var gestures: [ZoomGesture]
    public var shard: GalleryShard
    public var resume: Bool
    /// When the batch stops starting files (on SIGINT or SIGTERM).
    public var stop = FrameRunStop.onSignals

    public init(
        files: [String], outputFolder: String, view: ViewSettings = ViewSettings(), gestures: [ZoomGesture] = [],
        shard: GalleryShard = .whole, resume: Bool = false
    ) {
        self.files = files
        self.outputFolder = outputFolder
        self.view = view
        self.gestures = gestures
        self.shard = shard
        self.resume = resume
    }

    /// What a batch holds at its peak: a file's frame being drawn, a copy while it is composed and its encoding, and
    /// the frame the writer encodes meanwhile; no tile cache. Measured 2.1 V at 4096x4096 (V = 64 MiB, debug
    /// build); the estimate is 4 V.
    public static func memory(viewport: PixelSize) -> MemoryEstimate {
        .frames(viewport, copies: 4)
    }

    /// `NAME.png` for a file: its name without the folder and the last extension.
    public static func outputName(of file: String) -> String {
        let name = AtomicFile.split(file).name
        let stem = name.lastIndex(of: ".").map { name[..<$0] }.map(String.init) ?? name
        return (stem.isEmpty ? name : stem) + ".png"
    }

    /// The first two files whose outputs would have the same name, if any.
    public static func clash(in files: [String]) -> (String, String)? {
        var seen: [String: String] = [:]
        for file in files {
            let name = outputName(of: file)
            if let earlier = seen[name] { return (earlier, file) }
            seen[name] = file
        }
        return nil
    }

    /// What a batch did with one file: its zoom report, or the error that stopped it; `reused` when a resumed
    /// run kept the frame an earlier run wrote.
    public enum Outcome {
        case rendered(ZoomResult)
        case reused(output: String)
        case failed(TileViewError)
    }

    /// What a batch did.
    public struct Summary: Encodable, Sendable {
        /// Files of this run (its shard's), frames written, files that failed, frames reused.
        public let files: Int
        public let written: Int
        public let failed: Int
        public let reused: Int?
        @EncodedAsNull public private(set) var peakRSSBytes: Int?
        public let shard: String?
    }

    /// The batch's name in a frame journal: the files (each with its size and modification time), the gestures
    /// and every setting the frames depend on.
    public var journalName: String {
        var text = "zoom\n"
        for file in files { text += FrameJournal.describing(input: file) }
        text += view.journalDescription(gestures: gestures)
        return FrameJournal.jobName(describing: text)
    }

    /// Runs the batch; `onFile(index, file, outcome)` is called for each file of the run, in order. Throws when a
    /// frame cannot be written, or with `.interrupted` after a signal (the frames in flight land first).
    public func run(onFile: (Int, String, Outcome) -> Void = { _, _, _ in }) throws(TileViewError) -> Summary {
        let ours = files.indices.filter { shard.contains(frame: $0) }
        let names = files.map(Self.outputName(of:))
        let run = try FrameRun(
            FrameRunPlan(
                folder: outputFolder, outputs: ours.map { names[$0] }, job: journalName, shard: shard, resume: resume,
                unit: "files"),
            stop: stop)
        var failed = 0
        var reused = 0
        try run.perform { (run) throws(TileViewError) in
            for index in ours {
                let output = Paths.join(outputFolder, names[index])
                var result: ZoomResult?
                do throws(TileViewError) {
                    try run.write(named: names[index], order: index) { () throws(TileViewError) -> ImageBuffer in
                        let image = try ZoomContentFiles.open(
                            files[index], cacheBudgetBytes: 0, options: view.options)
                        let session = ZoomSession(image: image, view: view)
                        for gesture in gestures { try session.apply(gesture) }
                        let frame = try session.render()
                        result = ZoomResult(
                            state: session.state, level: frame.level, image: image, output: output, framePaths: [])
                        return frame.image
                    }
                } catch  where error.kind == .write || error.kind == .interrupted {
                    throw error
                } catch {
                    failed += 1
                    onFile(index, files[index], .failed(error))
                    continue
                }
                if let result {
                    onFile(index, files[index], .rendered(result))
                } else {
                    reused += 1
                    onFile(index, files[index], .reused(output: output))
                }
            }
        }
        return Summary(
            files: ours.count, written: run.written, failed: failed, reused: resume ? reused : nil,
            peakRSSBytes: ProcessMemory.peakResidentBytes, shard: shard == .whole ? nil : shard.description)
    }
}
