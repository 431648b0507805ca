import ServiceLifecycle

/// A service that does nothing until the server is asked to stop (SIGTERM, SIGINT), then says so once: the answers
/// in flight are being finished, for at most `--drain-seconds`. `tileview-serve` prints the last line when the
/// server has stopped.
struct ShutdownNotice: Service, CustomStringConvertible {
    let say: @Sendable () -> Void

    /// The service's name in the service group (which would otherwise describe it by reflection at start).
    var description: String { "ShutdownNotice" }

    func run() async throws {
        // Returns when the graceful shutdown begins; a cancellation (the group ending otherwise) says nothing.
        guard (try? await gracefulShutdown()) != nil else { return }
        say()
    }
}
