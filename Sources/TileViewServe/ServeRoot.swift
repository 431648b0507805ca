import TileView

/// The folder a server serves and the rule that turns a request's identifier into one of its files.
///
/// An identifier is a file's path relative to the root, percent-encoded as one path segment
/// (`albums%2Fbeach.jpg`, docs/design.md section 10). It is decoded exactly once, then refused unless every component
/// is an ordinary name (no empty, `.` or `..` component, no leading `/`, no dotfile, no NUL) and the file's
/// name is an image file name. Then it is resolved and opened in one step beneath the root, which was opened
/// once at the start (`OpenDescriptor.open(_:beneath:)`: `openat2` with `RESOLVE_BENEATH`, or a walk with
/// `O_NOFOLLOW` where the kernel has none): a symbolic link is followed only while it stays beneath the root, and
/// what was checked (a regular file: a FIFO or device is opened without blocking and refused by `fstat`) is the
/// descriptor every decoder reads, so a path swapped for a link after the check is never followed out. Anything
/// refused is "not found", whether it exists or not.
public struct ServeRoot: Sendable {
    /// The root as given, and resolved (`realpath`, for messages: nothing is opened by it).
    public let path: String
    public let resolved: String
    /// The root, open: every identifier is resolved beneath it.
    public let descriptor: OpenDescriptor
    /// How identifiers are resolved (the walk alone only in tests).
    var resolution: OpenDescriptor.Resolution = .automatic

    /// What pages and documents call the root: the served folder's own name (`SampleImages` for `./SampleImages/`).
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// A root that must be an existing folder.
    public init(path: String) throws(TileViewError) {
        guard let real = FileStatus.resolvedPath(path), let root = OpenDescriptor.openRoot(real) else {
            throw TileViewError(.read, path: path, reason: "is not a folder that can be served")
        }
        self.path = path
        self.resolved = real
        self.descriptor = root
    }

    /// The file an identifier (still percent-encoded, as it comes in the URL) names, open, or nil (not found).
    public func file(forIdentifier encoded: String) -> ServedFile? {
        file(forIdentifier: encoded, names: .image)
    }

    /// The scene file an identifier names (a `.json` name: docs/design.md section 11), open, or nil (not found).
    /// Only `.json` names are read as scenes, so that no other file's text can come back in a parse error.
    public func scene(forIdentifier encoded: String) -> ServedFile? {
        file(forIdentifier: encoded, names: .scene)
    }

    /// What a view may show: the image, else the scene, an identifier names.
    public func viewable(forIdentifier encoded: String) -> ServedFile? {
        file(forIdentifier: encoded) ?? scene(forIdentifier: encoded)
    }

    func file(forIdentifier encoded: String, names: Names) -> ServedFile? {
        guard let relative = Self.percentDecoded(encoded), Self.isAcceptable(relative, names: names) else {
            return nil
        }
        return file(atAcceptable: relative)
    }

    /// The file at `relative`, a path `isAcceptable` takes (an identifier decoded, or a listed folder's name added to
    /// its identifier), opened beneath the root.
    private func file(atAcceptable relative: String) -> ServedFile? {
        guard
            let (opened, identity) = OpenDescriptor.open(
                relative, beneath: descriptor, rootPath: resolved, resolution: resolution)
        else { return nil }
        return ServedFile(
            identifier: relative, path: resolved + "/" + relative, identity: identity, descriptor: opened)
    }

    /// The folder an identifier names (the empty identifier is the root), by the same rules as files: ordinary
    /// names only, a folder beneath the root; nil (not found) otherwise.
    public func folder(forIdentifier encoded: String) -> ServedFolder? {
        guard let relative = Self.percentDecoded(encoded) else { return nil }
        if relative.isEmpty { return ServedFolder(identifier: "", path: resolved) }
        guard Self.isAcceptable(relative, names: .any),
            OpenDescriptor.open(relative, beneath: descriptor, rootPath: resolved, folder: true, resolution: resolution)
                != nil
        else { return nil }
        return ServedFolder(identifier: relative, path: resolved + "/" + relative)
    }

    /// The folder an identifier names and its size, counted on `work`'s threads; nil when there is none.
    public func sizedFolder(
        forIdentifier encoded: String, on work: BlockingWork
    ) async -> (folder: ServedFolder, size: FolderSize)? {
        guard let folder = folder(forIdentifier: encoded), let size = await work.run({ self.size(of: folder) })
        else { return nil }
        return (folder, size)
    }

    /// How large a folder's contents are, counted without keeping them (`FolderSize`); nil when it cannot be read.
    public func size(of folder: ServedFolder) -> FolderSize? {
        guard
            let (opened, _) = OpenDescriptor.open(
                folder.identifier, beneath: descriptor, rootPath: resolved, folder: true, resolution: resolution),
            let (entries, nameBytes) = FolderEntries.count(of: opened)
        else { return nil }
        let prefix = folder.identifier.isEmpty ? 0 : folder.identifier.utf8.count + 1
        return FolderSize(
            entries: entries, identifierBytes: nameBytes + entries * prefix, longestIdentifierBytes: prefix + 255)
    }

    /// What a folder holds that the server serves: its sub-folders and its images (each as `file(forIdentifier:)`
    /// finds it, so a link out of the root or a FIFO is left out), and with `scenes` its scene files (`.json` names
    /// whose text starts as a JSON object), each in natural order of their names. The folder is read through a
    /// descriptor opened beneath the root; the files are checked and closed again (their `descriptor` is nil: a
    /// listing of thousands holds no descriptor, and a file is opened by its identifier when it is shown).
    public func contents(of folder: ServedFolder, scenes: Bool = false) -> FolderContents {
        var contents = FolderContents()
        guard
            let (opened, _) = OpenDescriptor.open(
                folder.identifier, beneath: descriptor, rootPath: resolved, folder: true, resolution: resolution),
            let entries = FolderEntries.names(of: opened)
        else { return contents }
        // A listed name is one component, not empty, without a NUL and (here) without a leading dot, under a folder
        // `folder(forIdentifier:)` took: the path is acceptable as it is, with no identifier made and read back.
        for name in NaturalOrder.sorted(entries) where !name.hasPrefix(".") {
            let relative = folder.identifier.isEmpty ? name : folder.identifier + "/" + name
            if ImageFolder.isImageName(name) {
                if let file = file(atAcceptable: relative) { contents.images.append(file.listed) }
            } else if Self.isSceneName(name), let file = file(atAcceptable: relative) {
                if scenes, let opened = file.descriptor, Scene.sniff(opened.prefix(64)) {
                    contents.scenes.append(file.listed)
                }
            } else if let sub = self.folder(forIdentifier: Self.percentEncoded(relative)) {
                contents.folders.append(sub)
            }
        }
        return contents
    }

    /// Which file names an identifier may end in.
    enum Names {
        case image, scene, any
    }

    /// Whether a decoded relative path is one the server may look at: ordinary names only, the last one of the
    /// kind `names` says.
    static func isAcceptable(_ relative: String, names: Names = .image) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.utf8.contains(0) else { return false }
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        for component in components where component.isEmpty || component.hasPrefix(".") { return false }
        let last = String(components.last!)
        switch names {
        case .image: return ImageFolder.isImageName(last)
        case .scene: return isSceneName(last)
        case .any: return true
        }
    }

    /// A scene's file name: it ends in `.json` (any case).
    public static func isSceneName(_ name: String) -> Bool {
        name.count > 5 && name.lowercased().hasSuffix(".json")
    }

    /// The identifier of the image a scene's layer names: `name` (relative to the scene's folder) joined to it and
    /// resolved lexically (`.` dropped, `..` taking back a folder); nil for an absolute name or one that climbs
    /// above the root. The result is an identifier still to be checked and opened beneath the root.
    public static func layerIdentifier(_ name: String, ofScene scene: String) -> String? {
        guard !name.hasPrefix("/") else { return nil }
        var parts = scene.split(separator: "/").dropLast().map(String.init)
        for part in name.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard parts.popLast() != nil else { return nil }
            default: parts.append(String(part))
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
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

/// A file the server may serve: its identifier (decoded), its path under the root (for messages; never opened),
/// the identity of its contents (device, inode, size, modification and change times, from `fstat` of the
/// descriptor), which makes its entity tag and cache version, and the descriptor that was checked, which is the
/// one decoded. Equal when the identifier, path and identity are (the descriptor is not compared).
public struct ServedFile: Hashable, Sendable {
    public let identifier: String
    public let path: String
    public let identity: FileIdentity
    /// The file, open; nil for an entry of a folder listing (`ServeRoot.contents(of:)`), which was checked and
    /// closed again: open it by resolving its identifier.
    public let descriptor: OpenDescriptor?

    /// Bytes in the file.
    public var size: Int { identity.size }
    /// Nanoseconds since the epoch.
    public var modified: Int { identity.modified }

    /// The same file without its descriptor (an entry of a listing).
    var listed: ServedFile { ServedFile(identifier: identifier, path: path, identity: identity, descriptor: nil) }

    /// `"DEVICE-INODE-SIZE-MTIME-CTIME"` in hex, quoted, as HTTP wants an entity tag: a file rewritten or
    /// replaced gets another, even with the same size and modification time.
    public var entityTag: String {
        let parts = [
            String(identity.device, radix: 16), String(identity.inode, radix: 16), String(identity.size, radix: 16),
            String(identity.modified, radix: 16), String(identity.changed, radix: 16),
        ]
        return "\"" + parts.joined(separator: "-") + "\""
    }

    /// Names this version of the file in the server's caches: its entity tag, which holds the whole identity (a
    /// file changed on disk is another version, so it never meets the tiles or answers of its old contents; two
    /// names of one file share them).
    public var version: String { entityTag }

    public static func == (a: ServedFile, b: ServedFile) -> Bool {
        a.identifier == b.identifier && a.path == b.path && a.identity == b.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(path)
        hasher.combine(identity)
    }
}

/// How large a folder is before it is read (`ServeRoot.size(of:)`): its entries, and their identifiers' bytes
/// together, from which what reading it and answering from it hold are planned.
public struct FolderSize: Sendable, Equatable {
    public let entries: Int
    public let identifierBytes: Int
    /// The most one entry's identifier may hold: the folder's identifier and a slash, and a name of at most 255
    /// bytes (Linux's `NAME_MAX`).
    public var longestIdentifierBytes = 4096

    /// What reading its contents holds at most: each entry's name, its identifier, its file or folder record and
    /// the sorting (a folder of 65,000 images named `photo-N.png` raised a server's peak by 16 MB).
    public var contentsBytes: Int { entries * 320 + 4 * identifierBytes }

    /// No entries.
    public static let empty = FolderSize(entries: 0, identifierBytes: 0)

    /// The size of at most `count` of the entries: their identifiers' bytes those of all of them, or of `count` of the
    /// longest, whichever is less.
    func shown(_ count: Int) -> FolderSize {
        guard count < entries else { return self }
        return FolderSize(
            entries: count, identifierBytes: min(identifierBytes, count * longestIdentifierBytes),
            longestIdentifierBytes: longestIdentifierBytes)
    }
}

/// What `ServeRoot.contents(of:scenes:)` finds in a folder.
public struct FolderContents: Sendable {
    public var folders: [ServedFolder] = []
    public var images: [ServedFile] = []
    /// Scene files (only when asked for).
    public var scenes: [ServedFile] = []
}

/// A folder the server may list and page through: its identifier (decoded; empty for the root) and resolved path.
public struct ServedFolder: Hashable, Sendable {
    public let identifier: String
    public let path: String

    /// The last component of the identifier (empty for the root).
    public var name: String { identifier.split(separator: "/").last.map(String.init) ?? "" }
}
