#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension GalleryPages {
    /// The file name extensions a folder's pages are picked by, compared without letter case.
    public static let folderExtensions = ["png", "jpg", "jpeg"]

    /// The PNG and JPEG files of folder `path` in natural name order (`img2` before `img10`), as a linear or
    /// circular list. Pages are picked by name (`.png`, `.jpg`, `.jpeg`, any case; hidden files and anything that
    /// is not a regular file, after following symbolic links, are skipped) and decoded by content, so a damaged
    /// `.jpg` is an error when it is shown, not a silently skipped page. A page's name is its file name.
    public static func reading(folder path: String, circular: Bool = false) throws(TileViewError) -> GalleryPages {
        guard let dir = opendir(path) else {
            throw TileViewError(.read, path: path, reason: "cannot open folder: \(errnoText())")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), isPageFileName(name) else { continue }
            let full = joined(path, name)
            var info = stat()
            guard stat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            names.append(name)
        }
        guard !names.isEmpty else {
            throw TileViewError(.input, path: path, reason: "the folder has no PNG or JPEG files (.png, .jpg, .jpeg)")
        }
        let sorted = NaturalOrder.sorted(names)
        return GalleryPages(
            layout: circular ? .circular(sorted.count) : .linear(sorted.count), names: sorted,
            paths: sorted.map { joined(path, $0) })
    }

    /// Whether a file name ends in one of `folderExtensions`.
    static func isPageFileName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return folderExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
