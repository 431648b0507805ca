import NIOPosix
import TileViewSystem

/// Runs blocking work (decoding, encoding) on threads outside Swift's cooperative pool, at most `limit` at
/// once, so that request handlers never block the server's tasks and memory stays bounded under load.
/// Callers wait in arrival order for a slot.
public actor BlockingWork {
    public let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` on a worker thread once a slot is free and returns its result.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        await acquire()
        defer { release() }
        return try await Self.onWorkerThread(body).get()
    }

    /// `body`'s result, run on a thread outside Swift's cooperative pool: the server's worker pool (`workers`),
    /// first come first served. The limit above keeps renders from taking every one of its threads at once.
    static func onWorkerThread<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async -> Result<
        T, E
    > {
        let run: @Sendable () -> Result<T, E> = {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        do {
            return try await workers.runIfActive(run)
        } catch {
            // Only a pool that was shut down refuses work, and this one never is; should it, the work runs here
            // rather than failing a request.
            return run()
        }
    }

    /// One thread per processor the process may use (`SystemInfo.availableProcessors`: its affinity mask and CPU
    /// quota). NIO's shared pool has one per processor of the machine: a server pinned to 12 of 16 ran its renders
    /// on 16 threads, and each kept its own blocks (`RenderBlocks`).
    static let workers: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: SystemInfo.availableProcessors)
        pool.start()
        return pool
    }()

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
