#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A closure run on a thread of its own, joined before its result is read: one stage of a pipeline whose stages
/// wait on each other (`GrowingCount`). Not a pool thread: a stage that blocks on another stage must never wait
/// for a pool that the other stage needs (a server or a gallery already keeps the pools busy).
///
/// The closure is handed over: from `start` until `join` returns only the worker runs it and touches what it
/// captures, and the join orders its writes before the caller's reads. That hand-over is what makes the unchecked
/// `Sendable` sound.
package final class WorkerThread<Result>: ThreadRun, @unchecked Sendable {
    private let body: () -> Result
    private var result: Result?
    private var thread: pthread_t?

    private init(_ body: @escaping () -> Result) {
        self.body = body
    }

    /// Starts `body` on a new thread; when no thread can be made it runs at `join`, on the caller's thread.
    /// `body` must not wait for anything the caller does after `start` in that case: callers that hand work
    /// between the two threads check `isRunning` first.
    package static func start(_ body: @escaping () -> Result) -> WorkerThread {
        let worker = WorkerThread(body)
        worker.launch()
        return worker
    }

    package override func run() { result = body() }

    private func launch() {
        thread = ThreadRun.launch(self)
    }

    /// Whether the body runs on a thread of its own (else it runs inside `join`).
    package var isRunning: Bool { thread != nil }

    /// Waits for the body to end and returns what it returned.
    package func join() -> Result {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        } else if result == nil {
            result = body()
        }
        return result!
    }
}

/// What a new thread runs (the thread's entry point is a C function, which cannot name a generic class). This is
/// the one place the project starts a thread: `WorkerThread` for work that is joined, `detach` for a thread that
/// lives as long as the process (the signal listener).
package class ThreadRun {
    package func run() {}

    /// Runs `body` on a thread of its own that is never joined; false when no thread could be made (nothing runs).
    package static func detach(_ body: @escaping () -> Void) -> Bool {
        guard let thread = launch(Detached(body)) else { return false }
        pthread_detach(thread)
        return true
    }

    /// Starts a thread running `run.run()`; nil when none could be made.
    fileprivate static func launch(_ run: ThreadRun) -> pthread_t? {
        var thread = pthread_t()
        let box = Unmanaged<ThreadRun>.passRetained(run).toOpaque()
        let started = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<ThreadRun>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<ThreadRun>.fromOpaque(box).release()
            return nil
        }
        return thread
    }

    private final class Detached: ThreadRun {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
        override func run() { body() }
    }
}

/// A count that only grows, shared by two threads: one raises it (rows decoded, rows drawn), the other waits
/// until it reaches what it needs. `close()` ends the waiting for good (the raising side stopped early): every
/// wait then returns at once with the count as it is.
package final class GrowingCount: Sendable {
    private struct State {
        var value = 0
        var closed = false
        /// The count the waiting thread waits for (0: none waits).
        var target = 0
    }
    private let state = Locked(State())

    package init() {}

    /// Raises the count to `count` (a lower value changes nothing) and wakes the waiter once it has what it waits
    /// for.
    package func raise(to count: Int) {
        let wake = state.withLock { state in
            guard count > state.value else { return false }
            state.value = count
            return state.target > 0 && count >= state.target
        }
        if wake { state.wakeWaiters() }
    }

    /// Ends every wait, now and later.
    package func close() {
        state.withLock { $0.closed = true }
        state.wakeWaiters()
    }

    /// Returns the count once it is at least `count` (or the count is closed). When it has to wait, it waits
    /// for `preferring` (at least `count`) instead: a waiter that sleeps anyway takes a band of work when it
    /// wakes, rather than waking once per unit. One thread waits on a count at a time.
    package func wait(forAtLeast count: Int, preferring: Int = 0) -> Int {
        let now = state.withLock { state -> Int? in
            guard state.value < count && !state.closed else { return state.value }
            state.target = max(count, preferring, 1)
            return nil
        }
        if let now { return now }
        let reached = { (state: State) in state.value >= state.target || state.closed }
        return state.withLock(when: reached) { state in
            state.target = 0
            return state.value
        }
    }

    /// Whether `close()` was called.
    package var isClosed: Bool { state.withLock { $0.closed } }
}
