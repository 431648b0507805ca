#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared between threads behind a POSIX mutex: the one lock of tileview. A thread may also wait, the
/// lock released meanwhile, until the value is what it needs (`withLock(when:_:)`), woken by `wakeWaiters()`.
///
/// Why not the standard library's `Mutex`: on Linux it waits on the kernel's futex directly, which
/// ThreadSanitizer cannot see, so every access it guards is reported as a race and the sanitizer's
/// verdict on the code around it is lost. A `pthread_mutex_t` is understood by the sanitizer and costs the
/// same when uncontended.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value
    /// Times the lock was taken, and of those the times a thread found it held and had to wait (counted while
    /// holding it, so no atomics: `/metrics` reports them for the server's shared locks).
    private var acquisitions = 0
    private var waits = 0

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    public func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock()
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// How often the lock was taken, and how often a thread had to wait for it.
    public var contention: (acquisitions: Int, waits: Int) {
        pthread_mutex_lock(mutex)  // a look at the counts is not counted
        defer { pthread_mutex_unlock(mutex) }
        return (acquisitions, waits)
    }

    /// Takes the mutex, counting a wait when another thread holds it (a `trylock` costs what a `lock` does when
    /// the mutex is free).
    private func lock() {
        if pthread_mutex_trylock(mutex) != 0 {
            pthread_mutex_lock(mutex)
            waits += 1
        }
        acquisitions += 1
    }

    /// Runs `body` with the value while holding the lock, once `ready` holds for it: until then the thread sleeps
    /// with the lock released, and checks again each time another thread calls `wakeWaiters()`.
    public func withLock<Result>(when ready: (Value) -> Bool, _ body: (inout Value) -> Result) -> Result {
        lock()
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) { pthread_cond_wait(condition, mutex) }
        return body(&value)
    }

    /// Wakes the threads waiting in `withLock(when:_:)` to check their condition again; call it after changing
    /// the value in a way a waiter may need.
    public func wakeWaiters() {
        pthread_cond_broadcast(condition)
    }
}
