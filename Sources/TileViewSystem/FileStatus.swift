#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the file system says about a path, without opening it (`stat` after following symbolic links), and
/// the path with every symbolic link resolved (`realpath`).
public struct FileStatus: Hashable, Sendable {
    public enum Kind: Sendable { case regular, folder, other }

    public let kind: Kind
    public let size: Int
    /// Last modification, nanoseconds since the epoch.
    public let modifiedNanoseconds: Int

    /// The status of `path`, or nil when it does not exist or cannot be reached.
    public static func of(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind: Kind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .folder
            default: .other
            }
        return FileStatus(
            kind: kind, size: Int(info.st_size),
            modifiedNanoseconds: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
    }

    /// `path` with every symbolic link, `.` and `..` resolved, or nil when some part does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
