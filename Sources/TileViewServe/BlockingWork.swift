import Dispatch

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

    /// `body`'s result, run on a thread outside Swift's cooperative pool (Dispatch's global queue).
    static func onWorkerThread<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async -> Result<
        T, E
    > {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }

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
