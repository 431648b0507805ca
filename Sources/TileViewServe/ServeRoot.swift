import TileView

/// The folder a server serves and the rule that turns a request's identifier into one of its files.
///
/// An identifier is a file's path relative to the root, percent-encoded as one path segment
/// (`albums%2Fbeach.jpg`, DESIGN section 10). It is decoded exactly once, then refused unless every component
/// is an ordinary name (no empty, `.` or `..` component, no leading `/`, no dotfile, no NUL), the file's
/// name is a PNG or JPEG name, and the path, with every symbolic link resolved, is a regular file inside
/// the resolved root. Anything refused is "not found", whether it exists or not: nothing outside the root is
/// opened, and a FIFO or device under the root is never opened either (it is checked with `stat` first).
public struct ServeRoot: Sendable {
    /// The root as given, and resolved (`realpath`).
    public let path: String
    public let resolved: String

    /// A root that must be an existing folder.
    public init(path: String) throws(TileViewError) {
        guard let real = FileStatus.resolvedPath(path), FileStatus.of(real)?.kind == .folder else {
            throw TileViewError(.read, path: path, reason: "is not a folder that can be served")
        }
        self.path = path
        self.resolved = real
    }

    /// The file an identifier (still percent-encoded, as it comes in the URL) names, or nil (not found).
    public func file(forIdentifier encoded: String) -> ServedFile? {
        guard let relative = Self.percentDecoded(encoded), Self.isAcceptable(relative) else { return nil }
        guard let real = FileStatus.resolvedPath(resolved + "/" + relative), real.hasPrefix(resolved + "/"),
            let status = FileStatus.of(real), status.kind == .regular
        else { return nil }
        return ServedFile(identifier: relative, path: real, size: status.size, modified: status.modifiedNanoseconds)
    }

    /// The folder an identifier names (the empty identifier is the root), by the same rules as files: ordinary
    /// names only, inside the resolved root; nil (not found) otherwise.
    public func folder(forIdentifier encoded: String) -> ServedFolder? {
        guard let relative = Self.percentDecoded(encoded) else { return nil }
        if relative.isEmpty { return ServedFolder(identifier: "", path: resolved) }
        guard Self.isAcceptable(relative, image: false),
            let real = FileStatus.resolvedPath(resolved + "/" + relative), real.hasPrefix(resolved + "/"),
            FileStatus.of(real)?.kind == .folder
        else { return nil }
        return ServedFolder(identifier: relative, path: real)
    }

    /// What a folder holds that the server serves: its sub-folders and its images (each as `file(forIdentifier:)`
    /// finds it, so a link out of the root or a FIFO is left out), both in natural order of their names.
    public func contents(of folder: ServedFolder) -> (folders: [ServedFolder], images: [ServedFile]) {
        let names = NaturalOrder.sorted((try? FolderEntries.names(in: folder.path)) ?? [])
        var folders: [ServedFolder] = []
        var images: [ServedFile] = []
        for name in names where !name.hasPrefix(".") {
            let relative = folder.identifier.isEmpty ? name : folder.identifier + "/" + name
            if ImageFolder.isImageName(name) {
                if let file = file(forIdentifier: Self.percentEncoded(relative)) { images.append(file) }
            } else if let sub = self.folder(forIdentifier: Self.percentEncoded(relative)) {
                folders.append(sub)
            }
        }
        return (folders, images)
    }

    /// Whether a decoded relative path is one the server may look at: a PNG or JPEG name, or (`image` false) any
    /// ordinary name.
    static func isAcceptable(_ relative: String, image: Bool = true) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.utf8.contains(0) else { return false }
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        for component in components where component.isEmpty || component.hasPrefix(".") { return false }
        return !image || ImageFolder.isImageName(String(components.last!))
    }

    /// `%XX` sequences decoded once (UTF-8); nil for a malformed escape or invalid UTF-8.
    public static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `relative` as one path segment: every byte but letters, digits and `-._~` as `%XX`.
    public static func percentEncoded(_ relative: String) -> String {
        var out = ""
        for byte in relative.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }

    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A file the server may serve: its identifier (decoded), resolved path, size and modification time, which
/// make its entity tag (a file changed on disk gets a new one).
public struct ServedFile: Hashable, Sendable {
    public let identifier: String
    public let path: String
    public let size: Int
    /// Nanoseconds since the epoch.
    public let modified: Int

    /// `"SIZE-MTIME"` in hex, quoted, as HTTP wants an entity tag.
    public var entityTag: String { "\"\(String(size, radix: 16))-\(String(modified, radix: 16))\"" }

    /// Names this version of the file in the server's caches: its path and entity tag (a file changed on disk
    /// is another version, so it never meets the tiles or answers of its old contents).
    public var version: String { path + "\u{0}" + entityTag }
}

/// A folder the server may list and page through: its identifier (decoded; empty for the root) and resolved path.
public struct ServedFolder: Hashable, Sendable {
    public let identifier: String
    public let path: String

    /// The last component of the identifier (empty for the root).
    public var name: String { identifier.split(separator: "/").last.map(String.init) ?? "" }
}
