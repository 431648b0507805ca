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
        // fdopendir takes the descriptor over (and its offset): give it a copy of its own.
        let copy = fcntl(folder.rawValue, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return nil }
        guard let directory = fdopendir(copy) else {
            close(copy)
            return nil
        }
        rewinddir(directory)
        return names(reading: directory)
    }

    /// The names `directory` lists, without `.` and `..`; closes it.
    private static func names(reading directory: OpaquePointer) -> [String] {
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
