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
