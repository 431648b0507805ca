#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output's buffer written out now: a line a long-running process prints (a server's viewer URL) reaches a
/// pipe or a file when it is printed, not when the process ends.
public func flushStandardOutput() {
    fflush(nil)  // every output stream: only standard output has a buffer here
}

/// Writing text to standard error, unbuffered (so progress, warnings and errors appear in the order they happen).
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
    }
}
