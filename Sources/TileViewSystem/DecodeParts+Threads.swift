import TileViewCodecs

extension DecodeParts {
    /// One part for each processor this process may use (at most 8): the first on the caller's thread, the others
    /// on threads of their own (`WorkerThread`), joined before it returns; a background body on a thread of its own
    /// where there is more than one processor.
    package static let threads = DecodeParts(
        count: min(8, SystemInfo.availableProcessors),
        run: { count, body in
            let workers = (1..<max(count, 1)).map { part in WorkerThread.start { body(part) } }
            body(0)
            for worker in workers { worker.join() }
        },
        background: { body in
            // On one processor a second thread only adds hand-overs: the caller does the work itself.
            guard SystemInfo.availableProcessors > 1 else { return { body() } }
            let worker = WorkerThread.start(body)
            return { worker.join() }
        })
}
