import Synchronization
import TileView

/// An encoded answer to an image request: the bytes and their media type.
public struct EncodedImage: Sendable {
    public let bytes: [UInt8]
    public let mediaType: String
}

/// The least recently used encoded answers, within a byte budget (the same `TileCache` the tiles use, keyed by
/// the file's version and the request). Thread-safe, and striped: the budget is split over one part per
/// processor (up to 16), each key living in the part its hash picks, so requests on different threads seldom
/// wait for one another's lookups (docs/benchmarks.md section 10).
public final class ResponseCache: Sendable {
    private let entries: Striped<TileCache<String, EncodedImage>>

    /// How often its locks were taken, and how often a thread waited for one (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { entries.contention }
    public let budgetBytes: Int

    public init(budgetBytes: Int, parts: Int = Striped<Int>.partCount(processors: SystemInfo.availableProcessors)) {
        self.budgetBytes = max(0, budgetBytes)
        let budget = self.budgetBytes
        let count = Striped<Int>.partCount(parts)
        // One answer may take at most an eighth of the budget (and no more than its part): a few huge images must
        // not flush every tile.
        entries = Striped(count: count) { _ in
            TileCache(budgetBytes: budget / count, entryCapBytes: min(budget / 8, budget / count)) { $0.bytes.count }
        }
    }

    /// The answer stored for `key` (counted as a hit or a miss).
    public func value(forKey key: String) -> EncodedImage? {
        entries.part(for: key).withLock { $0.value(forKey: key) }
    }

    public func insert(_ value: EncodedImage, forKey key: String) {
        entries.part(for: key).withLock { _ = $0.insert(value, forKey: key) }
    }

    public var statistics: TileCacheStatistics { entries.values(\.statistics).reduce(TileCacheStatistics(), +) }
}

/// Identical requests that arrive while the first is being answered wait for its answer instead of decoding
/// and encoding it again. Striped like the caches (a part per processor up to 16, each key in the part its hash
/// picks): every uncached request passes here, and requests for different keys seldom wait for one another.
public final class RequestCoalescer<Value: Sendable>: Sendable {
    private let running: Striped<[String: Task<Value, Never>]>
    private let joinedCount = Atomic(0)

    /// Requests that were answered by another request's work.
    public var joined: Int { joinedCount.load(ordering: .relaxed) }

    /// How often its locks were taken, and how often a thread waited for one (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { running.contention }

    public init(parts: Int = Striped<Int>.partCount(processors: SystemInfo.availableProcessors)) {
        running = Striped(count: parts) { _ in [:] }
    }

    /// `body`'s value for `key`, or the value of the call for `key` already running.
    public func run(_ key: String, _ body: @escaping @Sendable () async -> Value) async -> Value {
        let part = running.part(for: key)
        let (task, started) = part.withLock { running -> (Task<Value, Never>, Bool) in
            if let task = running[key] { return (task, false) }
            let task = Task { await body() }
            running[key] = task
            return (task, true)
        }
        guard started else {
            joinedCount.add(1, ordering: .relaxed)
            return await task.value
        }
        let value = await task.value
        part.withLock { $0[key] = nil }
        return value
    }
}
