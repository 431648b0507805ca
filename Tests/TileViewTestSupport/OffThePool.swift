import Foundation

/// Runs blocking work (a child process waited for, a polling loop) on a thread of its own and awaits its result, so
/// that it does not hold one of the threads of Swift's cooperative pool, which has one per processor (two here):
/// while a script runs for a minute, the tests that await a router or a live server go on. Expectations belong in
/// the caller, not in `body` (it runs outside the test's task).
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

extension CommandRunner {
    /// `script`, off the cooperative pool (`offThePool`).
    public static func scriptOffThePool(
        _ name: String, _ arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> (status: Int32, output: String) {
        try await offThePool { try script(name, arguments, environment: environment) }
    }
}
