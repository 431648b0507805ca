import TileViewCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The images of a folder: its image files in natural order of their names (`img2` before `img10`), as a gallery's
/// `--dir`, a feed's grid section and the server's listing list them.
///
/// A file is listed when its name ends in one of `imageExtensions` (any case), it does not start
/// with `.`, and it is a regular file (symbolic links are followed). Only the names are read here; each file's
/// header is read once, when its cell is first decoded (its format then comes from its content, as everywhere
/// in tileview). Sub-folders are not entered.
public struct ImageFolder: Sendable {
    /// The folder as written on the command line.
    public let path: String
    /// The image file names (not paths) in natural order (`NaturalOrder`).
    public let names: [String]

    /// Lists `path`. Fails with a `.read` error naming the folder when it cannot be opened, and with an
    /// `.input` error when it holds no image file (a grid of nothing is almost always a wrong path).
    public init(path: String) throws(TileViewError) {
        var found: [String] = []
        for name in try FolderEntries.names(in: path) {
            guard Self.isImageName(name) else { continue }
            var info = stat()
            guard stat(Paths.join(path, name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            found.append(name)
        }
        guard !found.isEmpty else {
            throw TileViewError(
                .input, path: path,
                reason:
                    "the folder has no image files (\(Self.imageExtensions.map { "." + $0 }.joined(separator: ", ")))")
        }
        self.path = path
        self.names = NaturalOrder.sorted(found)
    }

    /// The number of images.
    public var count: Int { names.count }

    /// The path of image `item` (in natural order), as the folder was written plus the name.
    public func filePath(ofItem item: Int) -> String { Paths.join(path, names[item]) }

    /// The extensions of the formats tileview reads (docs/design.md section 15), in the order messages list them.
    public static let imageExtensions = [
        "png", "jpg", "jpeg", "webp", "heic", "heif", "avif", "tif", "tiff", "gif",
    ]

    /// Whether a name is listed: not hidden, and ending in one of `imageExtensions` in any case. The name only
    /// chooses what is listed: each file's format comes from its content.
    public static func isImageName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
