#if canImport(Glibc)
    import Glibc
#endif

/// Linux's `SCHED_BATCH` policy for the calling thread while a pipeline stage runs.
///
/// A decoder and the renderer that reads its rows wake each other every band of rows. Under the normal policy a
/// woken thread preempts the one running where it wakes, and where the scheduler does not wake threads onto an
/// idle processor (seen on virtual machines whose idle processors the host deschedules) the two threads then take
/// turns on one processor while the other stays idle. A `SCHED_BATCH` thread does not preempt on waking: it waits
/// in the run queue, where an idle processor takes it: galleries run faster, single frames the same
/// (docs/benchmarks.md, "Threads that take turns on one processor"). Nothing else changes: priorities, nice values
/// and the bytes.
package enum BatchScheduling {
    /// `SCHED_BATCH` in Linux's `<linux/sched.h>` (glibc's `<sched.h>` declares it only under `_GNU_SOURCE`).
    package static let policy: Int32 = 3

    /// Runs `body` with the calling thread under `SCHED_BATCH`, then puts its policy back. Where the policy cannot
    /// be read or set (not Linux, or refused), `body` just runs.
    package static func run<T>(_ body: () throws -> T) rethrows -> T {
        #if os(Linux)
            let before = sched_getscheduler(0)
            var parameters = sched_param()
            guard before >= 0, sched_getparam(0, &parameters) == 0,
                sched_setscheduler(0, policy, &parameters) == 0
            else { return try body() }
            defer { _ = sched_setscheduler(0, before, &parameters) }
        #endif
        return try body()
    }

    /// Gives the calling thread the lowest priority (`nice` 19; on Linux the nice value is the thread's, not the
    /// process's): background work (the server's indexing) then runs only on processors nothing else wants.
    package static func lowestPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
