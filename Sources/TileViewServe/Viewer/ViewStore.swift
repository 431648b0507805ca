import TileView

/// The live copies of views a server keeps (docs/design.md sections 11 and 18): each under its token's session, so
/// that the next step of a view runs on the session already open instead of one rebuilt from the token. Only a
/// cache: a view it does not hold (never here, idle longer than `idleSeconds`, or dropped to keep at most
/// `maxViews` and at most `maxBytes` of views, `LiveView.retainedBytes`) is rebuilt from its token by any server
/// with the key; a view larger than `maxBytes` alone (by default, a gallery of a folder of about 150,000 images) is
/// never kept, and each of its steps rebuilds it. Thread-safe.
public final class ViewStore: Sendable {
    private struct Entry {
        let view: LiveView
        var lastUsed: Double
    }

    /// The bytes views may keep by default: what `maxViews` image views hold at most (`LiveView.imageViewBytes`,
    /// 16 MiB for the default 64), so that a gallery's many pages count as the views they stand for.
    public static func defaultMaxBytes(maxViews: Int) -> Int { max(1, maxViews) * LiveView.imageViewBytes }

    private struct State {
        private(set) var entries: [UInt64: Entry] = [:]
        /// The views' `retainedBytes` together.
        private(set) var bytes = 0
        /// Sessions closed here (DELETE), each until its last token would have expired.
        var closed: [UInt64: Double] = [:]
        var created = 0
        var rebuilt = 0
        var expired = 0
        var dropped = 0

        mutating func insert(_ entry: Entry, as session: UInt64) {
            remove(session)
            entries[session] = entry
            bytes += entry.view.retainedBytes
        }

        mutating func remove(_ session: UInt64) {
            if let gone = entries.removeValue(forKey: session) { bytes -= gone.view.retainedBytes }
        }

        mutating func touch(_ session: UInt64, at now: Double) -> LiveView? {
            entries[session]?.lastUsed = now
            return entries[session]?.view
        }
    }

    public let maxViews: Int
    public let maxBytes: Int
    public let idleSeconds: Double
    /// What time it is, in seconds: the wall clock, or a test's own (`ServeSettings.viewClock`).
    private let now: @Sendable () -> Double
    private let state = Locked(State())

    /// How often its lock was taken, and how often a thread waited for it (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { state.contention }

    public init(
        maxViews: Int, maxBytes: Int? = nil, idleSeconds: Double, now: @escaping @Sendable () -> Double
    ) {
        self.maxViews = max(1, maxViews)
        self.maxBytes = max(0, maxBytes ?? Self.defaultMaxBytes(maxViews: maxViews))
        self.idleSeconds = max(0, idleSeconds)
        self.now = now
    }

    /// A new session's number: 64 random bits.
    static func newSession() -> UInt64 {
        var random = SystemRandomNumberGenerator()
        return random.next()
    }

    /// Keeps `view` as the live copy of `session` (a new view, or one rebuilt from its token), dropping the views
    /// idle longest while the store is full, in number or in bytes; a view over `maxBytes` alone is not kept.
    func keep(_ view: LiveView, as session: UInt64, rebuilt: Bool) {
        let now = now()
        state.withLock { s in
            expire(&s, now: now)
            if rebuilt { s.rebuilt += 1 } else { s.created += 1 }
            s.remove(session)
            guard view.retainedBytes <= maxBytes else {
                s.dropped += 1
                return
            }
            while s.entries.count >= maxViews || s.bytes + view.retainedBytes > maxBytes,
                let oldest = s.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                s.remove(oldest)
                s.dropped += 1
            }
            s.insert(Entry(view: view, lastUsed: now), as: session)
        }
    }

    /// The bytes of the views held now (`LiveView.retainedBytes`).
    public var bytes: Int { state.withLock { $0.bytes } }

    /// The live copy of `session`, marked as used now; nil when there is none (or it expired).
    func view(_ session: UInt64) -> LiveView? {
        let now = now()
        return state.withLock { s in
            expire(&s, now: now)
            return s.touch(session, at: now)
        }
    }

    /// The most sessions remembered as closed (8 bytes and a time each): past it, one of them is forgotten (a
    /// client closing views by the hundred thousand only reopens views it could use anyway).
    public static let maxClosed = 100_000

    /// Closes `session` here: its live copy let go, and its tokens refused until `until` (seconds, the expiry of
    /// the token that closed it; every later token of it would be made by a server that still has it open).
    func close(_ session: UInt64, until: Double) {
        let now = now()
        state.withLock { s in
            s.remove(session)
            if s.closed[session] == nil, s.closed.count >= Self.maxClosed {
                s.closed.remove(at: s.closed.startIndex)
            }
            s.closed[session] = max(until, s.closed[session] ?? now)
        }
    }

    /// Whether `session` was closed here and its tokens may not have expired yet.
    func isClosed(_ session: UInt64) -> Bool {
        let now = now()
        return state.withLock { s in
            guard let until = s.closed[session] else { return false }
            if until > now { return true }
            s.closed[session] = nil
            return false
        }
    }

    /// Live copies held now (expired ones are let go first).
    public var count: Int {
        let now = now()
        return state.withLock { s in
            expire(&s, now: now)
            return s.entries.count
        }
    }

    /// Views made, rebuilt from a token, expired (idle too long) and dropped (to keep the bound) so far.
    public var counters: (created: Int, rebuilt: Int, expired: Int, dropped: Int) {
        state.withLock { ($0.created, $0.rebuilt, $0.expired, $0.dropped) }
    }

    private func expire(_ s: inout State, now: Double) {
        let stale = s.entries.filter { now - $0.value.lastUsed > idleSeconds }.map(\.key)
        for id in stale { s.remove(id) }
        s.expired += stale.count
    }
}
