import ServiceLifecycle
import TileView

/// The server's background indexing (docs/design.md section 16): every image under the root gets its coarse levels
/// written to the disk cache (`CoarseLevelStore`), newest files first, by `workers` threads at the lowest
/// priority (`nice` 19), so that its first view, now or after a restart, reads them instead of decoding.
///
/// The root is scanned at start, again half a second after a change inotify reports in a folder it walked
/// (`FolderWatcher`), and every `rescanSeconds` once the queue is empty (files added later are picked up even where
/// inotify sees nothing: network file systems, folders past the watch limit). A request for an
/// image whose levels are not on disk moves it to the front (`requested`). An image already on disk is skipped;
/// one that fails to decode is counted and not tried again until it changes.
///
/// Each decode's memory is planned before any pixel (`coarseLevelsMemory`, `JPEGEntropyIndex.passBytes`) and held
/// from the renders' work budget while no request waits for it (`WorkBudget.holdInBackground`), so indexing stays within `--work-mb` as the
/// answers do; an image whose plan can never fit is counted as failed, with a warning naming it and its plan (the
/// first `overBudgetNamed`; then one line says the rest go unnamed: a folder of large HEICs is not a screenful).
///
/// What it keeps grows with the root: each waiting identifier (`IndexQueue`, whose operations are O(1), as a
/// request's `requested` runs under the lock on every tile it renders) and the identity of each file indexed or
/// failed; a scan holds the images it will queue and one folder's listing at a time.
final class CoarseLevelIndexer: Sendable {
    /// Opens the root's images (and holds the root and the decoding options).
    let images: ServedImages
    let store: CoarseLevelStore
    /// The renders' work budget, which each decode holds its plan of.
    let budget: WorkBudget
    let workers: Int
    let rescanSeconds: Int
    let warn: @Sendable (String) -> Void

    private struct State {
        /// Identifiers to index.
        var queue = IndexQueue()
        /// Files (as versions: their identities) indexed or found on disk, and those that failed (not tried again
        /// until they change). An identity is five numbers where its version string would be about a hundred bytes.
        var done: Set<FileIdentity> = []
        var failedVersions: Set<FileIdentity> = []
        var indexed = 0
        var failed = 0
        /// Images not indexed because their plan is over the work budget.
        var overBudget = 0
        var running = 0
        var scanDue = true
        var stopped = false
    }
    private let state = Locked(State())
    private let threads = Locked([WorkerThread<Void>]())
    /// Changes in the folders a scan walked start the next scan (nil where inotify is not available).
    let watcher = FolderWatcher()

    init(
        images: ServedImages, store: CoarseLevelStore, budget: WorkBudget, workers: Int, rescanSeconds: Int = 60,
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.images = images
        self.store = store
        self.budget = budget
        self.workers = max(1, workers)
        self.rescanSeconds = rescanSeconds
        self.warn = warn
    }

    /// The folder indexed.
    var root: ServeRoot { images.root }

    /// Indexed, waiting and failed images, for `/metrics`.
    var figures: (indexed: Int, pending: Int, failed: Int) {
        state.withLock { ($0.indexed, $0.queue.count + $0.running, $0.failed) }
    }

    /// Starts the workers (the first scans the root before it indexes); after `stop`, starts them again.
    func start() {
        state.withLock { state in
            state.stopped = false
            state.scanDue = true
        }
        var started = (0..<workers).map { _ in WorkerThread.start { self.work() } }
        if let watcher {
            started.append(
                WorkerThread.start {
                    watcher.run(settle: .milliseconds(500)) {
                        self.state.withLock { $0.scanDue = true }
                        self.state.wakeWaiters()
                    }
                })
        }
        threads.withLock { $0 += started }
    }

    /// Stops the workers after the image each is indexing, and waits for them.
    func stop() {
        state.withLock { $0.stopped = true }
        state.wakeWaiters()
        budget.wakeBackground()
        watcher?.stop()
        for thread in threads.withLock({ thread in
            defer { thread = [] }
            return thread
        }) { thread.join() }
    }

    /// A request for `file`: when its levels are not on disk (never written, or found damaged or missing by a
    /// request since), it is indexed next.
    func requested(_ file: ServedFile) {
        let lost = !images.tiles.mayHaveOnDisk(file.version)
        let moved = state.withLock { state -> Bool in
            if lost { state.done.remove(file.identity) }
            guard !state.stopped, !state.done.contains(file.identity), !state.failedVersions.contains(file.identity)
            else { return false }
            state.queue.moveToFront(file.identifier)
            return true
        }
        if moved { state.wakeWaiters() }
    }

    private enum Next {
        case stop
        case scan
        case index(String)
    }

    private func work() {
        // Indexing never slows an answer: it runs at the lowest priority.
        BatchScheduling.lowestPriority()
        let hasWork: (State) -> Bool = { $0.stopped || !$0.queue.isEmpty || $0.scanDue }
        while true {
            let next = state.withLock(when: hasWork) { state -> Next in
                if state.stopped { return .stop }
                if let identifier = state.queue.takeNext() {
                    state.running += 1
                    return .index(identifier)
                }
                state.scanDue = false
                return .scan
            }
            switch next {
            case .stop: return
            case .scan: scan()
            case .index(let identifier):
                index(identifier)
                let empty = state.withLock { state in
                    state.running -= 1
                    return state.queue.isEmpty && state.running == 0
                }
                if empty { scheduleScan() }
            }
        }
    }

    /// Queues every image under the root whose version is not done, newest first. What the walk keeps is the images
    /// it will queue (a folder at a time is listed whole): once a root is indexed, a rescan holds its largest folder.
    private func scan() {
        var found: [(modified: Int, identifier: String)] = []
        var folders = [ServedFolder(identifier: "", path: root.resolved)]
        while let folder = folders.popLast() {
            watcher?.watch(folder.path)
            let contents = root.contents(of: folder)
            folders += contents.folders
            state.withLock { state in
                for file in contents.images
                where !state.done.contains(file.identity) && !state.failedVersions.contains(file.identity)
                    && !state.queue.contains(file.identifier)
                {
                    found.append((file.modified, file.identifier))
                }
            }
        }
        found.sort { $0.modified > $1.modified }
        let added = state.withLock { state -> Bool in
            let before = state.queue.count
            for (_, identifier) in found { state.queue.append(identifier) }
            return state.queue.count > before
        }
        if added { state.wakeWaiters() } else { scheduleScan() }
    }

    private func scheduleScan() {
        Task.detached(priority: .background) { [self] in
            try? await Task.sleep(for: .seconds(rescanSeconds))
            state.withLock { $0.scanDue = true }
            state.wakeWaiters()
        }
    }

    /// Writes the coarse levels of the image `identifier` names, unless they are on disk already.
    private func index(_ identifier: String) {
        guard let file = root.file(forIdentifier: ServeRoot.percentEncoded(identifier)),
            let descriptor = file.descriptor
        else { return }
        do throws(TileViewError) {
            // The image's own decode, outside the shared tile cache (cache budget 0: nothing kept).
            let image = try TiledImage(
                source: .descriptor(descriptor), name: identifier, cacheBudgetBytes: 0, options: images.options)
            guard let key = image.coarseLevelKey else { return }
            // An entry a request found damaged or gone is written again even if a file of its name is back.
            if !store.contains(key: key) || !images.tiles.mayHaveOnDisk(file.version) {
                // Stopped while waiting: the next start's scan finds it again.
                guard let held = try hold(image.coarseLevelsMemory, of: identifier, for: "its coarse levels") else {
                    return
                }
                defer { held.release() }
                store.store(key: key, levels: try image.decodeCoarseLevels(), warn: warn)
            }
            // A large JPEG's entropy index too: its first deep-zoom tile after a restart needs no pass.
            if let indexKey = store.missingIndexKey(descriptor, header: image.header) {
                guard let held = try hold(image.entropyIndexPassMemory, of: identifier, for: "its entropy index")
                else { return }
                defer { held.release() }
                store.storeIndex(key: indexKey, made: nil, descriptor: descriptor, warn: warn)
            }
            images.tiles.noteOnDisk(file.version)
            state.withLock { state in
                state.done.insert(file.identity)
                state.indexed += 1
            }
        } catch {
            state.withLock { state in
                state.failedVersions.insert(file.identity)
                state.failed += 1
            }
        }
    }
}

extension CoarseLevelIndexer {
    /// Images over the work budget named one by one in warnings.
    static let overBudgetNamed = 5

    /// `plan`'s bytes held from the work budget for a decode of the image `identifier` (for `what`, as a refusal
    /// says it) once no request waits; nil when the indexer stopped while waiting. Throws, with a warning, for a
    /// plan that can never fit.
    private func hold(_ plan: MemoryEstimate, of identifier: String, for what: String) throws(TileViewError)
        -> HeldBytes?
    {
        do throws(WorkBudget.Refusal) {
            return try budget.holdInBackground(bytes: plan.bytes) { state.withLock { $0.stopped } }
        } catch {
            let refusal = TileViewError(
                .decode, path: identifier,
                reason: "not indexed: \(what) need \(plan), more than --work-mb gives one render"
                    + (WorkBudget.budgetMiB(admitting: plan.bytes).map { " (--work-mb \($0) or more would index it)" }
                        ?? ""))
            let count = state.withLock { state in
                state.overBudget += 1
                return state.overBudget
            }
            if count <= Self.overBudgetNamed {
                warn(refusal.description)
            } else if count == Self.overBudgetNamed + 1 {
                warn(
                    "more images are over --work-mb and not indexed; they are not named one by one "
                        + "(tileview_index_failed_total in /metrics counts every image not indexed)")
            }
            throw refusal
        }
    }
}

/// Runs the indexer while the application runs: started with the server, stopped (after the image each worker is
/// indexing) when the drain begins.
struct IndexingService: Service, CustomStringConvertible {
    let indexer: CoarseLevelIndexer

    /// The service's name in the service group (which would otherwise describe it by reflection at start).
    var description: String { "IndexingService" }

    func run() async throws {
        indexer.start()
        try? await gracefulShutdown()
        _ = await BlockingWork.onWorkerThread { indexer.stop() }
    }
}
