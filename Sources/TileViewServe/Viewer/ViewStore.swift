import TileView

/// The views a server holds open (docs/design.md section 11): each under an unguessable identifier, dropped when idle
/// for longer than `idleSeconds`, and never more than `maxViews` (making one more drops the view idle longest).
/// Thread-safe.
public final class ViewStore: Sendable {
    private struct Entry {
        let view: LiveView
        var lastUsed: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var created = 0
        var expired = 0
        var dropped = 0
    }

    public let maxViews: Int
    public let idle: Duration
    /// What time it is: the continuous clock, or a test's own (`ServeSettings.viewClock`).
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Locked(State())

    /// How often its lock was taken, and how often a thread waited for it (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { state.contention }

    public init(
        maxViews: Int, idleSeconds: Double,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.maxViews = max(1, maxViews)
        idle = .milliseconds(Int64((max(0, idleSeconds) * 1000).rounded()))
        self.now = now
    }

    /// Keeps `view` and returns its new identifier (32 hex digits).
    func insert(_ view: LiveView) -> String {
        var id = ""
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2 {
            let word = String(random.next() as UInt64, radix: 16)
            id += String(repeating: "0", count: 16 - word.count) + word
        }
        let now = now()
        state.withLock { s in
            Self.expire(&s, now: now, idle: idle)
            while s.entries.count >= maxViews,
                let oldest = s.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                s.entries[oldest] = nil
                s.dropped += 1
            }
            s.entries[id] = Entry(view: view, lastUsed: now)
            s.created += 1
        }
        return id
    }

    /// The view named `id`, marked as used now; nil when there is none or it expired.
    func view(_ id: String) -> LiveView? {
        let now = now()
        return state.withLock { s in
            Self.expire(&s, now: now, idle: idle)
            s.entries[id]?.lastUsed = now
            return s.entries[id]?.view
        }
    }

    /// Removes the view named `id`; false when there was none.
    func remove(_ id: String) -> Bool {
        state.withLock { s in s.entries.removeValue(forKey: id) != nil }
    }

    /// Views open now (expired ones are let go first).
    public var count: Int {
        let now = now()
        return state.withLock { s in
            Self.expire(&s, now: now, idle: idle)
            return s.entries.count
        }
    }

    /// Views made, expired (idle too long) and dropped (to keep the bound) so far.
    public var counters: (created: Int, expired: Int, dropped: Int) {
        state.withLock { ($0.created, $0.expired, $0.dropped) }
    }

    private static func expire(_ s: inout State, now: ContinuousClock.Instant, idle: Duration) {
        let stale = s.entries.filter { now - $0.value.lastUsed > idle }.map(\.key)
        for id in stale { s.entries[id] = nil }
        s.expired += stale.count
    }
}
