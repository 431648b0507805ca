import Synchronization
import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM during a batch run (docs/design.md section 13): the first asks the run to stop starting frames
/// (`stopSignal` becomes the signal; frames in flight finish, each whole, and the run exits 128 + signal:
/// 130 or 143); a second one ends the process at once, after removing every temporary file this process has
/// open (`AtomicFile`), so no partial file stays either way.
///
/// Mechanism: the signal handler records the first signal in a lock-free atomic (so a run sees it at its next
/// check, however late the other threads are scheduled on a loaded machine) and writes the signal's number to a
/// pipe (`write(2)` is safe in a handler); a thread reading that pipe does the rest in ordinary code. This works
/// whatever thread the kernel delivers the signal to, so it does not depend on when the process's other threads
/// were started.
public enum Interrupts {
    private static let state = Locked<Int32?>(nil)
    private static let installed = Locked(false)

    /// Installs the handlers (once; later calls do nothing).
    public static func install() {
        let first = installed.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }
        interruptPipeWriteEnd = fds[1]
        let readEnd = fds[0]
        let listening = ThreadRun.detach {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                guard n == 1 else { return }
                Interrupts.received(Int32(byte))
            }
        }
        guard listening else { return }
        for signal in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Glibc)
                action.__sigaction_handler.sa_handler = interruptHandler
            #else
                action.__sigaction_u.__sa_handler = interruptHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
    }

    /// The signal that asked the run to stop, or nil.
    public static var stopSignal: Int32? {
        if let signal = state.withLock({ $0 }) { return signal }
        let first = firstSignal.load(ordering: .acquiring)
        return first == 0 ? nil : first
    }

    /// The exit status for a run stopped by `signal`: 128 + its number (130 for SIGINT, 143 for SIGTERM).
    public static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }

    /// The signal's name as people write it.
    public static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    private static func received(_ signal: Int32) {
        let earlier = state.withLock { current -> Int32? in
            defer { if current == nil { current = signal } }
            return current
        }
        guard earlier != nil else { return }
        // The second signal: remove what is being written and leave at once.
        AtomicFile.removeTemporariesInFlight()
        _exit(exitStatus(for: signal))
    }
}

/// The pipe's write end, read by the handler (a C function cannot capture it).
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1

/// The first signal received (0: none yet), set by the handler itself: a lock-free atomic is safe there.
private let firstSignal = Atomic<Int32>(0)

private func interruptHandler(_ signal: Int32) {
    _ = firstSignal.compareExchange(expected: 0, desired: signal, ordering: .releasing)
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(interruptPipeWriteEnd, &byte, 1)
    errno = saved
}
