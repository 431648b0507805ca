import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written anew and then only appended to, each `append` one `write(2)` call under a lock (a frame
/// journal): a line written is either on disk whole or cut short at the file's end, never interleaved with
/// another thread's line. Errors name the file and say what it is (`role`, e.g. "the frame journal").
public final class AppendFile: Sendable {
    public let path: String
    private let role: String
    private let descriptor: Locked<Int32>

    /// Creates `path` (truncating a file there) for appending.
    public init(creating path: String, role: String) throws(TileViewError) {
        self.path = path
        self.role = role
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw TileViewError(.write, path: path, reason: "cannot write \(role): \(errnoText())") }
        descriptor = Locked(fd)
    }

    deinit {
        descriptor.withLock { fd in _ = close(fd) }
    }

    /// Appends `text`'s UTF-8 bytes.
    public func append(_ text: String) throws(TileViewError) {
        let failed = descriptor.withLock { fd -> Bool in
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    return true
                }
                offset += n
            }
            return false
        }
        if failed { throw TileViewError(.write, path: path, reason: "cannot write \(role): \(errnoText())") }
    }
}
