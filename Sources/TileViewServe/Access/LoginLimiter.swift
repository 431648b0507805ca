import TileView

/// Failed logins per client (docs/design.md section 18): after `maxFailures` failures within `windowSeconds` of the
/// first, the client is refused (429 with `Retry-After`) until the window has passed; a successful login clears its
/// record. At most `capacity` clients are remembered: past that, records whose window passed go first, then the
/// oldest. Thread-safe.
///
/// An attempt is admitted (`admit`) before its password is checked and counted while it is: a client's attempts
/// being checked count with its failures, so that guesses sent at once are refused as the same guesses one after
/// another would be (200 sent at once were all checked, a minute of bcrypt on two cores); and at most
/// `maxChecking` attempts of all clients are checked or waiting at once, past which a login is busy (503).
public final class LoginLimiter: Sendable {
    private struct Entry {
        var failures: Int
        /// Attempts admitted and not ended yet.
        var checking: Int
        var start: Double
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Attempts of all clients admitted and not ended yet.
        var checking = 0
    }

    /// What `admit` says of an attempt.
    public enum Admission: Equatable, Sendable {
        /// Check the password, then call `failed` or `succeeded`.
        case check
        /// Refused: too many failures (and attempts being checked) within the window; try again in this many
        /// whole seconds.
        case refused(retryAfter: Int)
        /// `maxChecking` attempts are being checked or waiting: try again in a second.
        case busy
    }

    public let maxFailures: Int
    public let windowSeconds: Double
    public let capacity: Int
    public let maxChecking: Int
    private let state = Locked(State())
    private let now: @Sendable () -> Double

    public init(
        maxFailures: Int = 5, windowSeconds: Double = 60, capacity: Int = 10_000, maxChecking: Int = 64,
        now: @escaping @Sendable () -> Double = LoginLimiter.monotonicSeconds
    ) {
        self.maxFailures = max(1, maxFailures)
        self.windowSeconds = windowSeconds
        self.capacity = max(1, capacity)
        self.maxChecking = max(1, maxChecking)
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
        return state.withLock { state -> Int? in
            guard let entry = Self.current(&state, client, at: time, window: windowSeconds) else { return nil }
            guard entry.failures >= maxFailures else { return nil }
            return max(1, Int((entry.start + windowSeconds - time).rounded(.up)))
        }
    }

    /// Admits an attempt of `client` to have its password checked, or says why not.
    public func admit(_ client: String) -> Admission {
        let time = now()
        return state.withLock { state -> Admission in
            if var entry = Self.current(&state, client, at: time, window: windowSeconds) {
                if entry.failures >= maxFailures {
                    return .refused(retryAfter: max(1, Int((entry.start + windowSeconds - time).rounded(.up))))
                }
                // The attempts being checked end within a second or so: then the client knows where it stands.
                if entry.failures + entry.checking >= maxFailures { return .refused(retryAfter: 1) }
                guard state.checking < maxChecking else { return .busy }
                entry.checking += 1
                state.entries[client] = entry
            } else {
                guard state.checking < maxChecking else { return .busy }
                makeRoom(&state, at: time)
                state.entries[client] = Entry(failures: 0, checking: 1, start: time)
            }
            state.checking += 1
            return .check
        }
    }

    /// Counts a failed login of `client` (ending its admitted attempt).
    public func failed(_ client: String) {
        let time = now()
        state.withLock { state in
            var entry = state.entries[client] ?? Entry(failures: 0, checking: 0, start: time)
            if entry.checking > 0 {
                entry.checking -= 1
                state.checking -= 1
            }
            if time - entry.start >= windowSeconds {
                entry.failures = 0
                entry.start = time
            }
            entry.failures += 1
            if state.entries[client] == nil { makeRoom(&state, at: time) }
            state.entries[client] = entry
        }
    }

    /// A successful login of `client` (ending its admitted attempt): its failures are forgotten.
    public func succeeded(_ client: String) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: client) else { return }
            // Its other attempts still being checked stay counted, under a record of no failures.
            if entry.checking > 1 {
                state.entries[client] = Entry(failures: 0, checking: entry.checking - 1, start: now())
            }
            if entry.checking > 0 { state.checking -= 1 }
        }
    }

    /// Attempts of all clients being checked now.
    public var checking: Int { state.withLock { $0.checking } }

    /// `client`'s record; when its window has passed, dropped, or started again where attempts are being checked.
    private static func current(_ state: inout State, _ client: String, at time: Double, window: Double) -> Entry? {
        guard var entry = state.entries[client] else { return nil }
        guard time - entry.start >= window else { return entry }
        guard entry.checking > 0 else {
            state.entries[client] = nil
            return nil
        }
        entry.failures = 0
        entry.start = time
        state.entries[client] = entry
        return entry
    }

    /// Room for one more record: past `capacity`, records whose window passed go first, then the oldest (never one
    /// with attempts being checked).
    private func makeRoom(_ state: inout State, at time: Double) {
        guard state.entries.count >= capacity else { return }
        state.entries = state.entries.filter { time - $0.value.start < windowSeconds || $0.value.checking > 0 }
        while state.entries.count >= capacity,
            let oldest = state.entries.filter({ $0.value.checking == 0 }).min(by: { $0.value.start < $1.value.start })?
                .key
        {
            state.entries[oldest] = nil
        }
    }

    /// Clients remembered now.
    public var count: Int { state.withLock { $0.entries.count } }
}
