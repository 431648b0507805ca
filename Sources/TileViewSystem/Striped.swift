#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value kept as several independent parts, each behind a lock of its own (lock striping): threads that touch
/// different parts never wait for each other, so a lock every request takes does not serialise the server's
/// threads. A part is chosen by a key's hash (a cache: each key lives in one part) or by the calling thread (a
/// counter: the parts are summed when read).
public final class Striped<Value>: @unchecked Sendable {
    /// The parts, a power of two of them.
    public let parts: [Locked<Value>]

    /// `count` parts (`partCount(count)`: rounded up to a power of two), part `i` made by `make(i)`.
    public init(count: Int, _ make: (Int) -> Value) {
        parts = (0..<Self.partCount(count)).map { Locked(make($0)) }
    }

    /// The parts `count` asks for: rounded up to a power of two, at least 1.
    public static func partCount(_ count: Int) -> Int {
        var n = 1
        while n < count { n *= 2 }
        return n
    }

    /// The parts a server of `processors` processors wants: one per processor up to 16 (then rounded up to a
    /// power of two).
    public static func partCount(processors: Int) -> Int { partCount(min(16, max(1, processors))) }

    /// The part that holds `key`.
    public func part(for key: some Hashable) -> Locked<Value> {
        parts[Int(UInt(bitPattern: key.hashValue) & UInt(parts.count - 1))]
    }

    /// The part of the calling thread: threads are numbered in the order they first ask (any `Striped`), so the
    /// first `parts.count` threads (a server's event loops and workers) each have a part of their own.
    public var partOfThisThread: Locked<Value> {
        parts[ThreadNumber.current & (parts.count - 1)]
    }

    /// Every part's value, read one part at a time (a sum of counters is then a snapshot of each part, not of
    /// all at one instant).
    public func values<T>(_ read: (Value) -> T) -> [T] { parts.map { $0.withLock { read($0) } } }

    /// The parts' locks together: how often they were taken and waited for.
    public var contention: (acquisitions: Int, waits: Int) {
        parts.reduce((0, 0)) { sum, part in
            let c = part.contention
            return (sum.0 + c.acquisitions, sum.1 + c.waits)
        }
    }
}

/// A number for each thread, given in the order threads first ask for one (kept in a POSIX thread-specific slot).
enum ThreadNumber {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private static let next = Locked(0)

    static var current: Int {
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) - 1 }
        let number = next.withLock { n -> Int in
            defer { n += 1 }
            return n
        }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: number + 1))
        return number
    }
}
