import CImageCodecs

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches folders for files written, moved, made, removed or touched (Linux inotify), so that a folder's reader
/// learns of a change at once instead of at its next periodic scan. Watches are per folder (a tree is watched by
/// watching each of its folders as they are found), never through a link; past the system's limit
/// (`fs.inotify.max_user_watches`) the folders left over are simply not watched, and the caller's periodic scan
/// still finds their changes. Thread-safe.
public final class FolderWatcher: Sendable {
    private let fd: Int32
    private struct State {
        var watched: Set<String> = []
        var refused = 0
        var stopped = false
    }
    private let state = Locked(State())

    /// A watcher, or nil where inotify is not available (another system, or the per-user limit of instances).
    public init?() {
        #if os(Linux)
            fd = tv_watch_open()
            guard fd >= 0 else { return nil }
        #else
            return nil
        #endif
    }

    deinit { close(fd) }

    /// Watches the folder at `path` (again: nothing new); false when it cannot be watched (the limit, or not a
    /// folder).
    @discardableResult
    public func watch(_ path: String) -> Bool {
        if state.withLock({ $0.watched.contains(path) }) { return true }
        let added = tv_watch_add(fd, path) >= 0
        state.withLock { state in
            if added { state.watched.insert(path) } else { state.refused += 1 }
        }
        return added
    }

    /// Folders watched, and those that could not be.
    public var figures: (watched: Int, refused: Int) { state.withLock { ($0.watched.count, $0.refused) } }

    /// Waits for changes until `stop`, on the calling thread: after a change, once `settle` has passed with no
    /// other (a copy of many files is one change), calls `changed`. Forgets the folders it watched when they may
    /// have gone (a change), so that the next scan watches them again.
    public func run(settle: Duration, changed: () -> Void) {
        let slice: Int32 = 200  // ms: how soon `stop` is seen
        var pending: ContinuousClock.Instant? = nil
        while !state.withLock({ $0.stopped }) {
            let events = tv_watch_wait(fd, slice)
            let now = ContinuousClock.now
            if events > 0 {
                pending = now
            } else if events < 0 {
                return
            }
            if let since = pending, now - since >= settle {
                pending = nil
                state.withLock { $0.watched.removeAll() }
                changed()
            }
        }
    }

    /// Ends `run` within a fifth of a second.
    public func stop() { state.withLock { $0.stopped = true } }
}
