import TileView

/// Failed logins per client (docs/design.md section 18): after `maxFailures` failures within `windowSeconds` of the
/// first, the client is refused (429 with `Retry-After`) until the window has passed; a successful login clears its
/// record. At most `capacity` clients are remembered: past that, records whose window passed go first, then the
/// oldest. Thread-safe.
public final class LoginLimiter: Sendable {
    private struct Entry {
        var failures: Int
        var start: Double
    }

    public let maxFailures: Int
    public let windowSeconds: Double
    public let capacity: Int
    private let entries = Locked([String: Entry]())
    private let now: @Sendable () -> Double

    public init(
        maxFailures: Int = 5, windowSeconds: Double = 60, capacity: Int = 10_000,
        now: @escaping @Sendable () -> Double = LoginLimiter.monotonicSeconds
    ) {
        self.maxFailures = max(1, maxFailures)
        self.windowSeconds = windowSeconds
        self.capacity = max(1, capacity)
        self.now = now
    }

    private static let origin = ContinuousClock.now

    public static func monotonicSeconds() -> Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Whole seconds until `client` may try again, or nil when it may now.
    public func retryAfter(_ client: String) -> Int? {
        let time = now()
        return entries.withLock { entries -> Int? in
            guard let entry = entries[client] else { return nil }
            let left = entry.start + windowSeconds - time
            guard left > 0 else {
                entries[client] = nil
                return nil
            }
            guard entry.failures >= maxFailures else { return nil }
            return max(1, Int(left.rounded(.up)))
        }
    }

    /// Counts a failed login of `client`.
    public func failed(_ client: String) {
        let time = now()
        entries.withLock { entries in
            if var entry = entries[client], time - entry.start < windowSeconds {
                entry.failures += 1
                entries[client] = entry
                return
            }
            if entries[client] == nil, entries.count >= capacity {
                entries = entries.filter { time - $0.value.start < windowSeconds }
                while entries.count >= capacity, let oldest = entries.min(by: { $0.value.start < $1.value.start })?.key
                {
                    entries[oldest] = nil
                }
            }
            entries[client] = Entry(failures: 1, start: time)
        }
    }

    /// A successful login of `client`: its failures are forgotten.
    public func succeeded(_ client: String) {
        _ = entries.withLock { $0.removeValue(forKey: client) }
    }

    /// Clients remembered now.
    public var count: Int { entries.withLock { $0.count } }
}
