import Dispatch
import TileViewCodecs
import TileViewCore

#if canImport(Glibc)
    import Glibc
#endif

/// Encodes frames as PNG and writes them atomically on worker threads, so that the next frame is decoded and
/// rendered while the last ones are encoded.
///
/// At most `concurrency` frames are in flight (being encoded or waiting); `submit` blocks while that many are,
/// which bounds the frames held in memory. The first failure (which names the file) is rethrown by the next
/// `submit` or by `finish`; frames already written stay, each complete (`AtomicFile`).
final class GalleryFrameWriter: @unchecked Sendable {
    let concurrency: Int
    let options: PNGEncodeOptions
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let failures = FailureBox()

    /// A writer encoding up to `concurrency` frames at once (at least 1).
    init(concurrency: Int, options: PNGEncodeOptions = PNGEncodeOptions()) {
        self.concurrency = max(1, concurrency)
        self.options = options
        slots = DispatchSemaphore(value: self.concurrency)
    }

    /// Hands a frame over; blocks while `concurrency` frames are in flight.
    func submit(_ image: ImageBuffer, to path: String) throws(TileViewError) {
        slots.wait()
        if let failure = failures.failure {
            slots.signal()
            throw failure
        }
        group.enter()
        DispatchQueue.global(qos: .userInitiated).async { [options] in
            defer {
                self.slots.signal()
                self.group.leave()
            }
            do throws(TileViewError) {
                try ImageFiles.writePNG(image, to: path, options: options)
            } catch {
                self.failures.record(error)
            }
        }
    }

    /// Waits for every frame; rethrows the first failure.
    func finish() throws(TileViewError) {
        group.wait()
        if let failure = failures.failure { throw failure }
    }

    /// The number of processors this process may run on (at least 1).
    static var availableProcessors: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

/// The first error of the writer's workers, behind a lock (a one-permit semaphore).
private final class FailureBox: @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 1)
    private var first: TileViewError?

    var failure: TileViewError? {
        gate.wait()
        defer { gate.signal() }
        return first
    }

    func record(_ error: TileViewError) {
        gate.wait()
        defer { gate.signal() }
        if first == nil { first = error }
    }
}
