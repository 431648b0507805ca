import TileViewCodecs
import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names in a folder (`.` and `..` left out), in the order the file system gives them: the one folder
/// lister (image folders, stale temporary files).
public enum FolderEntries {
    /// The entry names of `path`; a `.read` error naming the folder when it cannot be opened.
    public static func names(in path: String) throws(TileViewError) -> [String] {
        guard let directory = opendir(path) else {
            throw TileViewError(.read, path: path, reason: "cannot open folder: \(errnoText())")
        }
        return names(reading: directory)
    }

    /// The entry names of the folder `folder` has open (opened beneath a served root, for instance); nil when it
    /// cannot be read. The descriptor stays open (a copy shares its offset: the listing rewinds first).
    public static func names(of folder: OpenDescriptor) -> [String]? {
        opened(folder).map(names(reading:))
    }

    /// How many entries the folder `folder` has open lists, and their names' bytes together, read without keeping
    /// any (what reading them costs is known before it is paid); nil when it cannot be read.
    public static func count(of folder: OpenDescriptor) -> (entries: Int, nameBytes: Int)? {
        guard let directory = opened(folder) else { return nil }
        defer { closedir(directory) }
        var (entries, nameBytes) = (0, 0)
        while let entry = readdir(directory) {
            let name = Self.name(of: entry)
            if !isDots(name) {
                entries += 1
                nameBytes += name.count
            }
        }
        return (entries, nameBytes)
    }

    /// The name of `entry`, read where readdir left it, up to its terminating NUL. A record is only as long as its
    /// name (`d_reclen`): copying the whole `dirent`, as `entry.pointee.d_name` does, read up to 255 bytes past a
    /// short record, past the end of the buffer readdir fills when the record is its last, and the server fell
    /// to SIGSEGV in a folder of 40,000 images.
    package static func name(of entry: UnsafeMutablePointer<dirent>) -> UnsafeBufferPointer<UInt8> {
        let start = UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \dirent.d_name)!)
        return UnsafeBufferPointer(
            start: start.assumingMemoryBound(to: UInt8.self), count: strlen(start.assumingMemoryBound(to: CChar.self)))
    }

    /// Whether `name` is `.` or `..`.
    private static func isDots(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        (1...2).contains(name.count) && name.allSatisfy { $0 == 0x2E }
    }

    /// A directory stream of its own over `folder`, rewound; nil when it cannot be made. fdopendir takes the
    /// descriptor over (and its offset): it gets a copy.
    private static func opened(_ folder: OpenDescriptor) -> OpaquePointer? {
        let copy = fcntl(folder.rawValue, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return nil }
        guard let directory = fdopendir(copy) else {
            close(copy)
            return nil
        }
        rewinddir(directory)
        return directory
    }

    /// The names `directory` lists, without `.` and `..`; closes it.
    private static func names(reading directory: OpaquePointer) -> [String] {
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = Self.name(of: entry)
            if !isDots(name) { names.append(String(decoding: name, as: UTF8.self)) }
        }
        return names
    }
}
