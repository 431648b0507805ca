import CImageCodecs

/// An open file descriptor that this object owns: it is closed when the last reference goes.
///
/// A server resolves a request's file beneath its root and opens it in one step (`ServeRoot`); the descriptor it
/// checked is then the one every decoder reads (`ImageSource.descriptor`), so a path swapped for a link after the
/// check is never followed. Readers never use the descriptor's own file offset: the shim reads through
/// duplicates with `pread` at offsets of their own (`tv_fopen_descriptor`), so any number of readers on any
/// threads may share one.
public final class OpenDescriptor: Sendable {
    /// The descriptor; valid while this object lives.
    public let rawValue: Int32

    /// Takes ownership of `rawValue` (a descriptor the caller must not close).
    public init(owning rawValue: Int32) {
        precondition(rawValue >= 0, "not an open descriptor")
        self.rawValue = rawValue
    }

    deinit { tv_descriptor_close(rawValue) }

    /// Up to `count` bytes from the start of the file (read with `pread`: the descriptor's offset is not used),
    /// fewer when the file is shorter, none when a read fails.
    public func prefix(_ count: Int) -> [UInt8] {
        bytes(at: 0, count: count)
    }

    /// Up to `count` bytes from `offset` (with `pread`), fewer when the file ends sooner, none when a read fails.
    public func bytes(at offset: Int, count: Int) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let done = bytes.withUnsafeMutableBytes {
            tv_descriptor_read_at(rawValue, UInt64(offset), $0.baseAddress, $0.count)
        }
        return Array(bytes[0..<Int(max(0, done))])
    }

    /// The identity of the file open now (`fstat`); nil when it cannot be read.
    public var identity: FileIdentity? {
        var identity = tv_file_identity()
        return tv_descriptor_identity(rawValue, &identity) == 0 ? FileIdentity(identity) : nil
    }
}

/// What `fstat` says of an open file: the identity of its contents. A file rewritten in place or replaced (a new
/// inode, or a new change time) has another identity even when its size and modification time are the same.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int
    /// Nanoseconds since the epoch.
    public let modified: Int
    /// Nanoseconds since the epoch (the inode's change time, which no caller can set).
    public let changed: Int

    public init(device: UInt64, inode: UInt64, size: Int, modified: Int, changed: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    init(_ identity: tv_file_identity) {
        self.init(
            device: identity.device, inode: identity.inode, size: Int(identity.size),
            modified: Int(identity.modified_ns), changed: Int(identity.changed_ns))
    }
}

extension OpenDescriptor {
    /// The regular file at `path`, opened for reading once (a FIFO, a device or a folder is refused before it is
    /// read, as `RegularFile` refuses it); every reader then reads through this descriptor
    /// (`ImageSource.descriptor`), so the file read is the one opened, whatever happens to the name after.
    public static func open(regularFile path: String) throws(CodecError) -> OpenDescriptor {
        var error = tv_error()
        let fd = tv_open_file(path, &error)
        guard fd >= 0 else { throw CodecError(status: TV_ERR_IO, error: error, format: nil) }
        return OpenDescriptor(owning: fd)
    }

    /// How `open(_:beneath:folder:resolution:)` resolves a path.
    public enum Resolution: Sendable {
        /// `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS`, or the walk where the kernel has no `openat2`.
        case automatic
        /// The walk only: one component at a time with `O_NOFOLLOW`, symbolic links read and resolved beneath the
        /// root by the walk itself (what runs on kernels before 5.6; tests call it directly).
        case walk
        /// `openat2` alone, never the walk (tests): a link with an absolute target is refused even when it names a
        /// file beneath the root.
        case kernel
    }

    /// The folder at `path`, opened to resolve paths beneath it (`O_PATH | O_DIRECTORY`); nil when it is not a
    /// folder that can be opened.
    public static func openRoot(_ path: String) -> OpenDescriptor? {
        var error = tv_error()
        let fd = tv_open_root(path, &error)
        return fd >= 0 ? OpenDescriptor(owning: fd) : nil
    }

    /// Opens `relative` (no leading `/`) beneath the folder `root` in one step (`tv_open_beneath`): nothing on
    /// the way, no symbolic link and no `..`, may lead out of the root. A file must be a regular file (it is
    /// opened without blocking, so a FIFO or a device is never waited on, and checked with `fstat`); a folder
    /// (`folder` true) must be a folder. Nil when it is refused or missing; `errno` says why (EXDEV or ELOOP for
    /// a way out). A link with an absolute target is followed only when the target starts with `rootPath` (the
    /// root's resolved path), from the root's descriptor again; without `rootPath` every absolute link is refused.
    public static func open(
        _ relative: String, beneath root: OpenDescriptor, rootPath: String? = nil, folder: Bool = false,
        resolution: Resolution = .automatic
    ) -> (descriptor: OpenDescriptor, identity: FileIdentity)? {
        var error = tv_error()
        var identity = tv_file_identity()
        let mode =
            switch resolution {
            case .automatic: TV_RESOLVE_AUTO
            case .walk: TV_RESOLVE_WALK
            case .kernel: TV_RESOLVE_KERNEL
            }
        let fd = tv_open_beneath(root.rawValue, rootPath, relative, folder ? 1 : 0, mode, &identity, &error)
        withExtendedLifetime(root) {}
        guard fd >= 0 else { return nil }
        return (OpenDescriptor(owning: fd), FileIdentity(identity))
    }
}
