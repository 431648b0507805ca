import TileViewCodecs
import TileViewCore
import TileViewImage
import TileViewRun
import TileViewSystem

/// What `tileview index` does: fills the disk cache `tileview serve` reads (docs/design.md section 16) with the
/// coarse levels of each image file, and a large JPEG's entropy index, as a `FrameRun` whose steps write no frame:
/// one image a step, a SIGINT or SIGTERM stopping the run before the next image. Each entry is written atomically,
/// so an interrupted run leaves whole entries only, and a second run carries on by skipping what is there.
///
/// Each image's pass runs on every processor this process may use (a JPEG's 1/8 scale in parts, a PNG's rows
/// inflated ahead), as vips uses them, when its plan fits `options.maxMemoryBytes` (`--max-memory`); else in one
/// pass, which holds less; else the image fails, named with its plan and the limit; an entropy index's own pass is
/// planned against the same limit. A file that cannot be decoded fails alone: the others are
/// indexed.
public struct IndexJob {
    /// The image files, in the order they are indexed.
    public var files: [String]
    public var store: CoarseLevelStore
    public var options: DecodeOptions
    /// When the run stops starting images (on SIGINT or SIGTERM).
    public var stop = FrameRunStop.onSignals

    /// What happened to one image: indexed (with its levels' count, or nil when only its entropy index was
    /// missing), found in the cache already, or failed.
    public enum Event {
        case indexed(path: String, levels: Int?)
        case present(path: String)
        case failed(TileViewError)
    }

    /// The counts of a run, and the time its images took.
    public struct Summary: Equatable {
        public var indexed = 0
        public var present = 0
        public var failed = 0
        /// Pixels of the images whose levels were decoded.
        public var pixels = 0
        public var duration = Duration.zero
    }

    public init(files: [String], store: CoarseLevelStore, options: DecodeOptions) {
        self.files = files
        self.store = store
        self.options = options
    }

    /// Indexes every file in order, telling `report` each image's outcome as it comes and `warn` the decoders' and
    /// the cache's warnings. Throws `.interrupted` when stopped ("stopped by SIGINT after N of M images; run it
    /// again to carry on", naming the cache folder).
    public func run(
        report: (Event) -> Void, warn: @escaping @Sendable (String) -> Void
    ) throws(TileViewError) -> Summary {
        var plan = FrameRunPlan(folder: nil, outputs: files, job: "index", unit: "images")
        plan.place = store.folder
        plan.carryOn = "run it again to carry on"
        let run = try FrameRun(plan, stop: stop)
        var summary = Summary()
        let start = ContinuousClock.now
        try run.perform { run throws(TileViewError) in
            for path in files {
                try run.step(named: path) { () throws(TileViewError) in
                    let event: Event
                    do throws(TileViewError) {
                        let (done, pixels) = try index(path, warn: warn)
                        event = done
                        summary.pixels += pixels
                    } catch {
                        event = .failed(error)
                    }
                    switch event {
                    case .indexed: summary.indexed += 1
                    case .present: summary.present += 1
                    case .failed: summary.failed += 1
                    }
                    report(event)
                }
            }
        }
        summary.duration = ContinuousClock.now - start
        return summary
    }

    /// Indexes one image: its coarse levels unless they are in the cache, and a large JPEG's entropy index unless
    /// it is there (made in the levels' pass; without that pass, a pass of its own). The pixels decoded with it.
    private func index(_ path: String, warn: @escaping @Sendable (String) -> Void) throws(TileViewError) -> (
        Event, pixels: Int
    ) {
        let descriptor = try Self.open(path)
        let image = try TiledImage(source: .descriptor(descriptor), name: path, cacheBudgetBytes: 0, options: options)
        image.decodesInParts = true
        guard let key = image.coarseLevelKey else {
            throw TileViewError(.read, path: path, reason: "its identity (device, inode, times) could not be read")
        }
        let indexKey = store.missingIndexKey(descriptor, header: image.header)
        if store.contains(key: key) {
            guard let indexKey else { return (.present(path: path), 0) }
            try Self.check(
                image.entropyIndexPassMemory, of: "its entropy index", path: path, limit: options.maxMemoryBytes)
            let wrote = store.storeIndex(key: indexKey, made: nil, descriptor: descriptor, warn: warn)
            return (wrote ? .indexed(path: path, levels: nil) : .present(path: path), 0)
        }
        image.keepsEntropyIndex = indexKey != nil
        try Self.planMemory(of: image, limit: options.maxMemoryBytes)
        let levels = try image.decodeCoarseLevels()
        store.store(key: key, levels: levels, warn: warn)
        if let indexKey {
            store.storeIndex(key: indexKey, made: image.keptEntropyIndex, descriptor: descriptor, warn: warn)
        }
        return (.indexed(path: path, levels: levels.count), image.imageSize.pixelCount)
    }

    /// Plans the memory of `image`'s coarse levels before any pixel is decoded: in parts on every processor when
    /// that fits `limit`, else in one pass (which holds less: no file read whole, no records of its parts), else
    /// refused naming the file, what it needs and the limit.
    static func planMemory(of image: TiledImage, limit: Int) throws(TileViewError) {
        if image.coarseLevelsMemory.bytes > limit { image.decodesInParts = false }
        try check(image.coarseLevelsMemory, of: "its coarse levels", path: image.path, limit: limit)
    }

    /// Refuses `plan`, of `what` (as the refusal says it) for the image at `path`, when it is over `limit`.
    static func check(_ plan: MemoryEstimate, of what: String, path: String, limit: Int) throws(TileViewError) {
        guard plan.bytes > limit else { return }
        throw TileViewError(
            .decode, path: path,
            reason: "\(what) need \(plan), over the memory limit of \(MemoryEstimate.mebibytes(limit)) "
                + "(--max-memory MiB raises it)")
    }

    static func open(_ path: String) throws(TileViewError) -> OpenDescriptor {
        do throws(CodecError) {
            return try OpenDescriptor.open(regularFile: path)
        } catch {
            throw TileViewError(error, path: path)
        }
    }
}
