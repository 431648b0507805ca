import TileViewCodecs
import TileViewCore
import TileViewSystem

/// Writes the numbered frames of a run into a folder: `frame-0000.png` onward, each encoded as PNG and written
/// atomically (`AtomicFile`), on background threads while the next frames are rendered.
///
/// This is the one frame writer and the one frame name scheme: `zoom --frames`, `gallery` and `feed` use it, and
/// their `--json` records give `path(ofFrame:)`, the folder as written joined with the name (docs/design.md section 9).
///
/// At most `maxInFlight` frames are being encoded at once: `submit` waits for a free slot, so the frames held
/// besides the one being rendered never exceed that many. With `maxInFlight` 0 every frame is encoded and
/// written inside `submit`, on the calling thread (nothing overlaps: rendering and encoding times are then each
/// measured alone). After a failure no further frame is accepted (`submit` throws it); `finish()` waits for
/// every frame in flight and throws the failure of the earliest frame that failed. Frames already written stay,
/// each complete.
public final class FrameWriter: @unchecked Sendable {
    /// The output folder as given.
    public let folder: String
    /// PNG options of every frame.
    public let options: PNGEncodeOptions
    /// Frames encoded at once.
    public let maxInFlight: Int
    /// A frame handed over and not yet taken by a writing thread.
    private struct Pending {
        let frame: ImageBuffer
        let index: Int
        let name: String
        let path: String
    }
    /// The frames waiting for a writing thread, and how many are being written: together at most `maxInFlight`.
    private struct Queue {
        var pending: [Pending] = []
        var writing = 0
        var closed = false
    }
    private let queue = Locked(Queue())
    /// The writing threads, started as frames come, up to `maxInFlight`; they live until `finish` (a thread of its
    /// own per frame was measured at 3 to 4 MiB more peak RSS on a 100-frame gallery: each new thread's
    /// allocator caches). Touched by the submitting thread only: `submit` and `finish` are called from one
    /// thread, the run's.
    private var writers: [WorkerThread<Void>] = []
    /// The earliest failure and the time spent encoding, shared by the writing threads.
    private struct Shared {
        var failure: (index: Int, error: TileViewError)?
        var encodeDuration: Duration = .zero
    }
    private let shared = Locked(Shared())
    /// Temporary files an earlier run killed mid-write left in the folder, by frame name: each frame's are
    /// removed when this run writes that frame (so a shard never touches another shard's files).
    private let staleTemporaries: Locked<[String: [String]]>
    /// Where each frame is recorded once it is on disk under its name (for `--resume`), if anywhere.
    public let journal: FrameJournal?

    /// Frames encoded at once by default: two where the machine has two processors (one core encodes while the
    /// other decodes, renders and encodes), one on a single processor.
    public static var defaultMaxInFlight: Int { min(2, SystemInfo.availableProcessors) }

    /// A writer into `folder`, which is created (with its parents) when missing.
    public init(
        folder: String, options: PNGEncodeOptions = PNGEncodeOptions(),
        maxInFlight: Int = FrameWriter.defaultMaxInFlight, journal: FrameJournal? = nil
    ) throws(TileViewError) {
        try AtomicFile.makeDirectory(folder)
        self.journal = journal
        staleTemporaries = Locked(AtomicFile.temporaries(in: folder))
        self.folder = folder
        self.options = options
        self.maxInFlight = max(0, maxInFlight)
    }

    /// `frame-0007.png` for frame 7 (at least four digits).
    public static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// The indices of the frames in `folder` (files named as `frameName` names them), in order.
    public static func frameIndices(in folder: String) -> [Int] {
        ((try? FolderEntries.names(in: folder)) ?? []).compactMap { name -> Int? in
            guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
            let digits = name.dropFirst(6).dropLast(4)
            guard digits.count >= 4, digits.allSatisfy(\.isASCII), let index = Int(digits), index >= 0,
                frameName(index) == name
            else { return nil }
            return index
        }.sorted()
    }

    /// `folder/frame-0007.png` for frame 7: the folder as given, joined with the frame's name.
    public static func framePath(folder: String, index: Int) -> String {
        Paths.join(folder, frameName(index))
    }

    /// Queues frame `index`; waits while `maxInFlight` frames are in flight. Throws the first failure so far, if
    /// any (then nothing is queued).
    public func submit(_ frame: ImageBuffer, index: Int) throws(TileViewError) {
        try submit(frame, named: Self.frameName(index), order: index)
    }

    /// Queues a frame written as `name` in the folder (a zoom batch's `NAME.png`); `order` ranks failures (the
    /// earliest is reported). As `submit(_:index:)` otherwise.
    public func submit(_ frame: ImageBuffer, named name: String, order: Int) throws(TileViewError) {
        if let failure = currentFailure { throw failure }
        let path = Paths.join(folder, name)
        let index = order
        guard maxInFlight > 0 else {
            write(frame, index: index, name: name, to: path)
            if let failure = currentFailure { throw failure }
            return
        }
        let maxInFlight = maxInFlight
        let slotFree: (Queue) -> Bool = { $0.pending.count + $0.writing < maxInFlight }
        queue.withLock(when: slotFree) { queue in
            queue.closed = false
            queue.pending.append(Pending(frame: frame, index: index, name: name, path: path))
        }
        queue.wakeWaiters()
        guard writers.count < maxInFlight else { return }
        let writer = WorkerThread.start { [self] in writeFrames(untilClosed: true) }
        if writer.isRunning {
            writers.append(writer)
        } else if writers.isEmpty {
            writeFrames(untilClosed: false)  // no thread could be made: this one writes what is waiting
        }
    }

    /// Takes waiting frames and writes them, until the queue is closed (a writing thread) or empty.
    private func writeFrames(untilClosed: Bool) {
        let ready: (Queue) -> Bool = { !$0.pending.isEmpty || $0.closed || !untilClosed }
        while true {
            let next = queue.withLock(when: ready) { queue in
                guard !queue.pending.isEmpty else { return Pending?.none }
                queue.writing += 1
                return queue.pending.removeFirst()
            }
            guard let next else { return }
            write(next.frame, index: next.index, name: next.name, to: next.path)
            queue.withLock { $0.writing -= 1 }
            queue.wakeWaiters()
        }
    }

    private func write(_ frame: ImageBuffer, index: Int, name: String, to path: String) {
        let stale = staleTemporaries.withLock { $0.removeValue(forKey: name) } ?? []
        for name in stale { try? AtomicFile.remove(Paths.join(folder, name)) }
        let clock = ContinuousClock()
        let start = clock.now
        do throws(TileViewError) {
            let bytes = try ImageFiles.encodePNG(frame, naming: path, options: options)
            try AtomicFile.write(bytes, to: path)
            try journal?.record(FrameJournal.Entry(name: name, bytes: bytes))
        } catch {
            record(error, index: index)
        }
        let elapsed = clock.now - start
        shared.withLock { $0.encodeDuration += elapsed }
    }

    /// Waits for every queued frame; throws the failure of the earliest frame that failed.
    public func finish() throws(TileViewError) {
        queue.withLock { $0.closed = true }
        queue.wakeWaiters()
        for writer in writers { writer.join() }
        writers = []
        if let failure = currentFailure { throw failure }
    }

    /// Time spent encoding and writing, summed over the threads.
    public var totalEncodeDuration: Duration { shared.withLock { $0.encodeDuration } }

    private var currentFailure: TileViewError? { shared.withLock { $0.failure?.error } }

    private func record(_ error: TileViewError, index: Int) {
        shared.withLock { state in
            if state.failure == nil || index < state.failure!.index { state.failure = (index, error) }
        }
    }
}
