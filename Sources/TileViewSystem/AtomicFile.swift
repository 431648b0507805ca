import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes files atomically: a temporary file in the destination's folder, then `rename(2)`.
///
/// A reader never sees a partial file, and a failure at any point leaves nothing behind (the
/// temporary file is removed). The file is flushed to disk (`fsync`) before the rename and the folder after
/// it, so a crash or a power cut leaves the name holding the whole file or nothing. This is the only way tileview
/// writes an output file.
public enum AtomicFile {
    /// Writes `bytes` to `path`, replacing any file there.
    public static func write(_ bytes: [UInt8], to path: String) throws(TileViewError) {
        // Permissions as a plain new file would get (mkstemp makes it 0600).
        let mask = umask(0)
        umask(mask)
        let (folder, tempPath) = try writeTemporary(bytes, for: path, mode: 0o666 & ~mask)
        defer { inFlight.withLock { _ = $0.remove(tempPath) } }
        guard rename(tempPath, path) == 0 else {
            let failure =
                errno == EISDIR ? "is a folder: name the file to write" : "cannot rename into place: \(errnoText())"
            unlink(tempPath)
            throw TileViewError(.write, path: path, reason: failure)
        }
        syncFolder(folder)
    }

    /// Writes `bytes` to `path` readable by its owner only, unless a file is there already (then it is left as it
    /// is and the answer is false): of processes racing to create one file, exactly one does, and none sees it
    /// partly written (`link(2)` of a complete temporary file).
    public static func createOnce(_ bytes: [UInt8], at path: String) throws(TileViewError) -> Bool {
        let (folder, tempPath) = try writeTemporary(bytes, for: path, mode: 0o600)
        defer {
            unlink(tempPath)
            inFlight.withLock { _ = $0.remove(tempPath) }
        }
        guard link(tempPath, path) == 0 else {
            if errno == EEXIST { return false }
            throw TileViewError(.write, path: path, reason: "cannot create: \(errnoText())")
        }
        syncFolder(folder)
        return true
    }

    /// A complete temporary file beside `path` holding `bytes` with permissions `mode`, flushed to disk (so that
    /// after a crash the name it gets holds the whole file or is absent); removed again on failure.
    private static func writeTemporary(_ bytes: [UInt8], for path: String, mode: mode_t) throws(TileViewError)
        -> (folder: String, temporary: String)
    {
        let (folder, name) = split(path)
        guard !name.isEmpty else { throw TileViewError(.write, path: path, reason: "not a file name") }
        let (fd, tempPath) = createTemporary(folder: folder, name: name)
        guard fd >= 0 else {
            throw TileViewError(.write, path: path, reason: "cannot create a file in \(folder): \(errnoText())")
        }
        var failure: String? = nil
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = "write failed: \(errnoText())"
                    return
                }
                offset += n
            }
        }
        if failure == nil, fchmod(fd, mode) != 0 { failure = "cannot set permissions: \(errnoText())" }
        if failure == nil, fsync(fd) != 0 { failure = "cannot flush to disk: \(errnoText())" }
        if close(fd) != 0, failure == nil { failure = "close failed: \(errnoText())" }
        if let failure {
            unlink(tempPath)
            inFlight.withLock { _ = $0.remove(tempPath) }
            throw TileViewError(.write, path: path, reason: failure)
        }
        return (folder, tempPath)
    }

    /// Temporary files being written by this process: what a second interrupt removes before it ends the process.
    private static let inFlight = Locked(Set<String>())

    /// Creates `folder/.NAME.tmp-XXXXXX` (six random letters and digits, like `mkstemp`) with mode 0600, holding
    /// the in-flight lock while it is created and registered, so that `removeTemporariesInFlight` sees every
    /// temporary file that exists. Returns the descriptor (-1 with `errno` on failure) and the path.
    private static func createTemporary(folder: String, name: String) -> (Int32, String) {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var random = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
            let candidate = "\(folder)/.\(name).tmp-\(suffix)"
            let (fd, error) = inFlight.withLock { files -> (Int32, Int32) in
                let fd = open(candidate, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
                let error = errno
                if fd >= 0 { files.insert(candidate) }
                return (fd, error)
            }
            errno = error
            if fd >= 0 || error != EEXIST { return (fd, candidate) }
        }
        return (-1, "")
    }

    /// Removes every temporary file this process is writing (called when a second interrupt ends the process at
    /// once). Holds the lock, so no new one is created meanwhile.
    package static func removeTemporariesInFlight() {
        inFlight.withLock { files in
            for file in files { unlink(file) }
            files.removeAll()
        }
    }

    /// Flushes a folder's entries (a rename just made in it) to disk. Best effort: some file systems refuse to
    /// sync a folder, and the file itself is already complete under its name.
    package static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// The temporary files `write` leaves only when the process is killed mid-write, in `folder`, by the name of
    /// the file they were for: `.NAME.tmp-XXXXXX` under `NAME`.
    public static func temporaries(in folder: String) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for entry in (try? FolderEntries.names(in: folder)) ?? [] {
            // ".tmp-" and the six characters mkstemp puts in place of XXXXXX.
            guard entry.hasPrefix("."), entry.suffix(11).hasPrefix(".tmp-") else { continue }
            let name = String(entry.dropFirst().dropLast(11))
            guard !name.isEmpty else { continue }
            found[name, default: []].append(entry)
        }
        return found
    }

    /// Removes the file at `path`; a file already absent is no error.
    public static func remove(_ path: String) throws(TileViewError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw TileViewError(.write, path: path, reason: "cannot remove: \(errnoText())")
        }
    }

    /// Creates a folder (and its parents) if it does not exist.
    public static func makeDirectory(_ path: String) throws(TileViewError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o777) != 0 && errno != EEXIST {
                throw TileViewError(.write, path: path, reason: "cannot create folder: \(errnoText())")
            }
        }
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
            throw TileViewError(.write, path: path, reason: "exists and is not a folder")
        }
    }

    public static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
