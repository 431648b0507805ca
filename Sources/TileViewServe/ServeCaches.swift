import TileView

/// An encoded answer to an image request: the bytes and their media type.
public struct EncodedImage: Sendable {
    public let bytes: [UInt8]
    public let mediaType: String
}

/// The least recently used encoded answers, within a byte budget (the same `TileCache` the tiles use, keyed by
/// the file's version and the request). Thread-safe.
public final class ResponseCache: Sendable {
    private let entries: Locked<TileCache<String, EncodedImage>>
    public let budgetBytes: Int

    public init(budgetBytes: Int) {
        self.budgetBytes = max(0, budgetBytes)
        // One answer may take at most an eighth of the budget: a few huge images must not flush every tile.
        entries = Locked(
            TileCache(budgetBytes: self.budgetBytes, entryCapBytes: self.budgetBytes / 8) { $0.bytes.count })
    }

    /// The answer stored for `key` (counted as a hit or a miss).
    public func value(forKey key: String) -> EncodedImage? { entries.withLock { $0.value(forKey: key) } }

    public func insert(_ value: EncodedImage, forKey key: String) {
        entries.withLock { _ = $0.insert(value, forKey: key) }
    }

    public var statistics: TileCacheStatistics { entries.withLock { $0.statistics } }
}

/// Identical requests that arrive while the first is being answered wait for its answer instead of decoding
/// and encoding it again.
public actor RequestCoalescer<Value: Sendable> {
    private var running: [String: Task<Value, Never>] = [:]
    /// Requests that were answered by another request's work.
    public private(set) var joined = 0

    public init() {}

    /// `body`'s value for `key`, or the value of the call for `key` already running.
    public func run(_ key: String, _ body: @escaping @Sendable () async -> Value) async -> Value {
        if let task = running[key] {
            joined += 1
            return await task.value
        }
        let task = Task { await body() }
        running[key] = task
        let value = await task.value
        running[key] = nil
        return value
    }
}
