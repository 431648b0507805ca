import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file operations of an on-disk cache (`CoarseLevelStore`): whole entries mapped to be read, touched when
/// used (their modification time is the least-recently-used order, shared by every process using the folder),
/// listed for eviction, and a test of whether a folder takes new files. Writes go through `AtomicFile`.
public enum CacheFiles {
    /// Runs `body` with the whole file at `path` mapped read-only (the page cache's pages, no copy), when it is a
    /// regular file of 1 to `limit` bytes; nil when it is absent, larger, empty or cannot be mapped. The mapping
    /// lives while `body` runs. (A file truncated by another process while mapped would fault: entries are only
    /// ever replaced by `rename`, never truncated, so a mapping always sees the whole file it opened.)
    public static func withMapping<T>(_ path: String, limit: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size <= limit
        else { return nil }
        let size = Int(info.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), base != MAP_FAILED else {
            return nil
        }
        defer { munmap(base, size) }
        return body(UnsafeRawBufferPointer(start: base, count: size))
    }

    /// Sets the file's modification time to now (it was just used); an absent file is left absent.
    public static func touch(_ path: String) {
        _ = utimensat(AT_FDCWD, path, nil, AT_SYMLINK_NOFOLLOW)
    }

    /// A file of the cache: its path, its size and when it was last used.
    public struct Entry: Sendable {
        public let path: String
        public let size: Int
        public let usedNanoseconds: Int
    }

    /// The regular files in the folders directly beneath `folder` (the cache's fan-out folders) whose names end
    /// with `suffix`, and those in `folder` itself; temporary files being written (names starting with a dot) are
    /// left out.
    public static func entries(under folder: String, suffix: String) -> [Entry] {
        var found: [Entry] = []
        func scan(_ path: String, depth: Int) {
            guard let names = try? FolderEntries.names(in: path) else { return }
            for name in names where !name.hasPrefix(".") {
                let child = path + "/" + name
                var info = stat()
                guard lstat(child, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR where depth == 0: scan(child, depth: 1)
                case S_IFREG where name.hasSuffix(suffix):
                    found.append(
                        Entry(
                            path: child, size: Int(info.st_size),
                            usedNanoseconds: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)))
                default: continue
                }
            }
        }
        scan(folder, depth: 0)
        return found
    }

    /// Whether this process may create files in `folder` (an existing folder).
    public static func isWritable(_ folder: String) -> Bool {
        access(folder, W_OK | X_OK) == 0
    }
}
