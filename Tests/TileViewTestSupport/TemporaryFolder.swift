import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Fresh empty folders in the system's temporary folder, always removed again.
public enum TemporaryFolder {
    /// Runs `body` with a fresh empty folder whose name starts with `label`, and removes the folder and all it
    /// holds when `body` returns or throws.
    public static func with<T>(_ label: String, _ body: (URL) throws -> T) throws -> T {
        let dir = try make(label)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try body(dir)
    }

    /// `with(_:_:)` for an asynchronous body.
    public static func with<T>(_ label: String, _ body: (URL) async throws -> T) async throws -> T {
        let dir = try make(label)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try await body(dir)
    }

    /// A fresh empty folder that lasts the whole test process and is removed when it exits: for fixtures made
    /// once and shared by many tests.
    public static func untilExit(_ label: String) throws -> URL {
        let dir = try make(label)
        cleanup.add(dir.path)
        return dir
    }

    private static func make(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private static let cleanup = Cleanup()

    /// The folders to remove when the process exits.
    private final class Cleanup: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []

        init() {
            atexit { TemporaryFolder.cleanup.removeAll() }
        }

        func add(_ path: String) { lock.withLock { paths.append(path) } }

        func removeAll() {
            for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
