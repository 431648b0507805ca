import Dispatch
import Synchronization
import TileViewCodecs
import TileViewCore

/// Encodes and writes rendered frames as PNG on background threads while the next frames are rendered.
///
/// At most `maxInFlight` frames are being encoded at once: `submit` waits for a free slot, so the frames held
/// besides the one being rendered never exceed that many. With `maxInFlight` 0 every frame is encoded and
/// written inside `submit`, on the calling thread (nothing overlaps: rendering and encoding times are then
/// each measured alone). Each file is written atomically (`ImageFiles.writePNG`).
/// After a failure no further frame is accepted (`submit` throws it); `finish()` waits for every frame in
/// flight and throws the failure of the earliest frame that failed.
public final class FeedFrameWriter: @unchecked Sendable {
    /// PNG options of every frame.
    public let options: PNGEncodeOptions
    /// Frames encoded at once.
    public let maxInFlight: Int
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()
    private let queue = DispatchQueue(label: "tileview.feed.frame-writer", attributes: .concurrent)
    /// The earliest failure and the time spent encoding, shared by the writing threads.
    private struct Shared {
        var failure: (index: Int, error: TileViewError)?
        var encodeDuration: Duration = .zero
    }
    private let shared = Mutex(Shared())

    public init(options: PNGEncodeOptions = PNGEncodeOptions(), maxInFlight: Int = 2) {
        self.options = options
        self.maxInFlight = max(0, maxInFlight)
        slots = DispatchSemaphore(value: max(1, self.maxInFlight))
    }

    /// Queues frame `index` to be written to `path`; waits while `maxInFlight` frames are in flight. Throws the
    /// first failure so far, if any (then nothing is queued).
    public func submit(_ frame: ImageBuffer, index: Int, to path: String) throws(TileViewError) {
        if let failure = currentFailure { throw failure }
        guard maxInFlight > 0 else {
            write(frame, index: index, to: path)
            if let failure = currentFailure { throw failure }
            return
        }
        slots.wait()
        queue.async(group: group) { [self] in
            defer { slots.signal() }
            write(frame, index: index, to: path)
        }
    }

    private func write(_ frame: ImageBuffer, index: Int, to path: String) {
        let clock = ContinuousClock()
        let start = clock.now
        do throws(TileViewError) {
            try ImageFiles.writePNG(frame, to: path, options: options)
        } catch {
            record(error, index: index)
        }
        let elapsed = clock.now - start
        shared.withLock { $0.encodeDuration += elapsed }
    }

    /// Waits for every queued frame; throws the failure of the earliest frame that failed.
    public func finish() throws(TileViewError) {
        group.wait()
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
