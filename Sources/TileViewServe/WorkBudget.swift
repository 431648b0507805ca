import TileView

/// The memory and the threads the server's renders share (docs/design.md section 18, admission): `--work-mb` of bytes,
/// in two lanes so that large answers never starve a viewer's tiles.
///
/// Each render states its plan's bytes before it allocates any pixel memory (`RegionPlan`), and waits here until
/// they are free:
/// - the tile lane (plans of at most `tileLaneBytes`) may use the whole budget;
/// - the large lane may use the budget less a quarter kept for tiles, so a tile always finds room while large
///   renders run; a plan larger than that can never run and is refused at once (400, `neverFits`).
/// Each lane runs at most its number of renders at once, on threads outside Swift's cooperative pool, and keeps a
/// bounded queue in arrival order: past it, or after waiting `maxWait`, a request is refused with 503 and
/// `Retry-After` (`busy`). Thread-safe.
public final class WorkBudget: Sendable {
    public enum Lane: String, Sendable, CaseIterable {
        case tile, large
    }

    /// Why a render was not admitted.
    public enum Refusal: Error, Sendable, Equatable {
        /// The plan is larger than the lane can ever give (400).
        case neverFits(needed: Int, lane: Int)
        /// The lane's queue is full, or the wait was too long (503); try again after `retryAfter` seconds.
        case busy(retryAfter: Int)
    }

    public let budgetBytes: Int
    /// The largest plan of the tile lane.
    public let tileLaneBytes: Int
    /// Renders at once, per lane.
    public let concurrency: [Lane: Int]
    /// Requests waiting at most, per lane.
    public let maxQueued: [Lane: Int]
    /// The longest wait in seconds, per lane.
    public let maxWait: [Lane: Double]

    private struct Waiter {
        let id: Int
        let bytes: Int
        /// Whether it takes a thread of the lane (a render) or bytes only (an answer being written).
        let thread: Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var used = 0
        var usedLarge = 0
        var running: [Lane: Int] = [.tile: 0, .large: 0]
        var queues: [Lane: [Waiter]] = [.tile: [], .large: []]
        var nextID = 0
        var peakUsed = 0
        var refusedBusy = 0
        var refusedNeverFits = 0
    }

    private let state = Locked(State())

    /// How often its lock was taken, and how often a thread waited for it (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { state.contention }

    /// A budget of `budgetBytes` for a machine of `processors`; `maxWait` (seconds) replaces both lanes' waits.
    public init(budgetBytes: Int, processors: Int = SystemInfo.availableProcessors, maxWait wait: Double? = nil) {
        let budget = max(1 << 20, budgetBytes)
        self.budgetBytes = budget
        tileLaneBytes = budget / 8
        concurrency = [.tile: max(2, processors), .large: max(1, processors / 2)]
        maxQueued = [.tile: 256, .large: 8]
        maxWait = [.tile: wait ?? 10, .large: wait ?? 20]
    }

    /// The lane of a plan of `bytes`.
    public func lane(for bytes: Int) -> Lane { bytes <= tileLaneBytes ? .tile : .large }

    /// The most a plan of `lane` may hold.
    public func capacity(of lane: Lane) -> Int { lane == .tile ? tileLaneBytes : Self.largeLaneBytes(budgetBytes) }

    /// The most a plan of the large lane may hold under a budget of `budget` bytes: all but the quarter kept for
    /// tiles.
    static func largeLaneBytes(_ budget: Int) -> Int { budget - budget / 4 }

    /// The least budget, in whole MiB (`--work-mb`), under which a plan of `bytes` can run; nil past 2^30 MiB.
    public static func budgetMiB(admitting bytes: Int) -> Int? {
        // A first guess at three quarters, then up to the first budget that takes it.
        let guess = (Double(bytes) / 0.75 / Double(1 << 20)).rounded(.up)
        guard guess < Double(1 << 30) else { return nil }
        var mib = max(1, Int(guess))
        while largeLaneBytes(mib << 20) < bytes { mib += 1 }
        return mib
    }

    /// Checks a plan before waiting: `neverFits` for one larger than its lane can ever give.
    public func check(_ bytes: Int) throws(Refusal) {
        let lane = lane(for: bytes)
        guard bytes <= capacity(of: lane) else {
            state.withLock { $0.refusedNeverFits += 1 }
            throw .neverFits(needed: bytes, lane: capacity(of: lane))
        }
    }

    /// Runs `body` on a worker thread once `bytes` are free in their lane and a thread of the lane is; the bytes are
    /// held until `body` returns, or, when it returns a `HeldBytes`, until that is released.
    public func run<T: Sendable, E: Error>(
        bytes: Int, _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(WorkError<E>) -> T {
        do throws(Refusal) { try check(bytes) } catch { throw .refused(error) }
        let lane = lane(for: bytes)
        do throws(Refusal) { try await acquire(bytes, lane) } catch { throw .refused(error) }
        defer { release(bytes, lane) }
        let result = await BlockingWork.onWorkerThread(body)
        do throws(E) { return try result.get() } catch { throw .failed(error) }
    }

    /// Holds `bytes` of the large lane's share (an answer being written) until `release()`: waits like a render.
    public func hold(bytes: Int) async throws(Refusal) -> HeldBytes {
        try check(bytes)
        let lane = lane(for: bytes)
        try await acquire(bytes, lane, thread: false)
        return HeldBytes(budget: self, bytes: bytes, lane: lane)
    }

    /// Holds `bytes` for background work (the indexer's decodes) until `release()`, waiting on the calling thread,
    /// which must not be one of Swift's cooperative pool: the bytes are taken only while no request waits in their
    /// lane, so requests always go first. `neverFits` for a plan larger than its lane can ever give (not counted
    /// among the requests' refusals); nil once `cancelled` holds, without taking anything (checked at every change
    /// of the budget, and after `wakeBackground()`).
    public func holdInBackground(bytes: Int, cancelled: () -> Bool) throws(Refusal) -> HeldBytes? {
        let lane = lane(for: bytes)
        guard bytes <= capacity(of: lane) else { throw .neverFits(needed: bytes, lane: capacity(of: lane)) }
        let free = { (s: State) in s.queues[lane]!.isEmpty && self.fits(s, bytes, lane, thread: false) }
        let admitted = state.withLock(
            when: { cancelled() || free($0) },
            { s -> Bool in
                guard !cancelled() && free(s) else { return false }
                take(&s, bytes, lane, thread: false)
                return true
            })
        return admitted ? HeldBytes(budget: self, bytes: bytes, lane: lane) : nil
    }

    /// Wakes the background waits of `holdInBackground` to check `cancelled` again.
    public func wakeBackground() { state.wakeWaiters() }

    /// Bytes held now, the most ever held, and the refusals so far.
    public var figures: (used: Int, peak: Int, busy: Int, neverFits: Int, queued: Int) {
        state.withLock { s in
            (s.used, s.peakUsed, s.refusedBusy, s.refusedNeverFits, s.queues.values.reduce(0) { $0 + $1.count })
        }
    }

    private func fits(_ s: State, _ bytes: Int, _ lane: Lane, thread: Bool) -> Bool {
        if thread && s.running[lane]! >= concurrency[lane]! { return false }
        if s.used + bytes > budgetBytes { return false }
        return lane == .tile || s.usedLarge + bytes <= capacity(of: .large)
    }

    private func take(_ s: inout State, _ bytes: Int, _ lane: Lane, thread: Bool) {
        s.used += bytes
        if lane == .large { s.usedLarge += bytes }
        if thread { s.running[lane]! += 1 }
        s.peakUsed = max(s.peakUsed, s.used)
    }

    private func acquire(_ bytes: Int, _ lane: Lane, thread: Bool = true) async throws(Refusal) {
        enum Decision {
            case go
            case wait(Int)
            case refuse
        }
        let waited: Bool = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let decision: Decision = state.withLock { s in
                if s.queues[lane]!.isEmpty && fits(s, bytes, lane, thread: thread) {
                    take(&s, bytes, lane, thread: thread)
                    return .go
                }
                guard s.queues[lane]!.count < maxQueued[lane]! else {
                    s.refusedBusy += 1
                    return .refuse
                }
                s.nextID += 1
                s.queues[lane]!.append(Waiter(id: s.nextID, bytes: bytes, thread: thread, continuation: continuation))
                return .wait(s.nextID)
            }
            switch decision {
            case .go: continuation.resume(returning: true)
            case .refuse: continuation.resume(returning: false)
            case .wait(let id):
                let wait = maxWait[lane]!
                Task.detached { [self] in
                    try? await Task.sleep(for: .seconds(wait))
                    timeOut(id, lane)
                }
            }
        }
        guard waited else { throw .busy(retryAfter: lane == .tile ? 1 : 5) }
    }

    /// Drops waiter `id` if it is still queued (it gets a 503).
    private func timeOut(_ id: Int, _ lane: Lane) {
        let expired: Waiter? = state.withLock { s in
            guard let at = s.queues[lane]!.firstIndex(where: { $0.id == id }) else { return nil }
            s.refusedBusy += 1
            return s.queues[lane]!.remove(at: at)
        }
        expired?.continuation.resume(returning: false)
        // The head of the queue may fit now that a larger waiter before it left.
        wake()
    }

    fileprivate func release(_ bytes: Int, _ lane: Lane, thread: Bool = true) {
        state.withLock { s in
            s.used -= bytes
            if lane == .large { s.usedLarge -= bytes }
            if thread { s.running[lane]! -= 1 }
        }
        wake()
    }

    /// Starts every waiter at the head of a queue that fits now, tiles first.
    private func wake() {
        let started: [Waiter] = state.withLock { s in
            var started: [Waiter] = []
            for lane in Lane.allCases {
                while let head = s.queues[lane]!.first {
                    guard fits(s, head.bytes, lane, thread: head.thread) else { break }
                    take(&s, head.bytes, lane, thread: head.thread)
                    s.queues[lane]!.removeFirst()
                    started.append(head)
                }
            }
            return started
        }
        for waiter in started { waiter.continuation.resume(returning: true) }
        // Background work waits for what requests leave.
        state.wakeWaiters()
    }
}

/// Bytes of a `WorkBudget` held past a render (an encoded answer on its way to a slow reader), given back once,
/// by `release()` or when the last reference goes.
public final class HeldBytes: Sendable {
    let budget: WorkBudget
    let bytes: Int
    let lane: WorkBudget.Lane
    private let released = Locked(false)

    init(budget: WorkBudget, bytes: Int, lane: WorkBudget.Lane) {
        self.budget = budget
        self.bytes = bytes
        self.lane = lane
    }

    public func release() {
        let first = released.withLock { done in
            defer { done = true }
            return !done
        }
        if first { budget.release(bytes, lane, thread: false) }
    }

    deinit { release() }
}

/// A render that was refused by the budget, or that failed.
public enum WorkError<Failure: Error>: Error {
    case refused(WorkBudget.Refusal)
    case failed(Failure)
}
