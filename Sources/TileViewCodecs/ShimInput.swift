import CImageCodecs

/// A source as the C shim reads it: borrowed bytes, a file path the shim opens itself, or an open descriptor
/// (the shim reads through duplicates of it, so it must stay open only while a reader is being opened).
enum ShimInput {
    case memory(UnsafeRawBufferPointer)
    case file(String)
    case descriptor(Int32)
}

extension ShimInput {
    /// Opens the input with a format's three openers, one for each kind: its bytes (their start and count), its
    /// path, or its descriptor. Returns the opener's status.
    func open(
        memory: (UnsafePointer<UInt8>?, Int) -> tv_status, file: (String) -> tv_status, descriptor: (Int32) -> tv_status
    ) -> tv_status {
        switch self {
        case .memory(let raw): memory(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count)
        case .file(let path): file(path)
        case .descriptor(let fd): descriptor(fd)
        }
    }
}

extension ImageSource {
    /// Runs `body` with the source as shim input. Bytes are borrowed for the duration of the
    /// call, not copied, so nothing built in `body` may keep reading them afterwards.
    func withShimInput<R>(_ body: (ShimInput) throws(CodecError) -> R) throws(CodecError) -> R {
        switch self {
        case .file(let path):
            return try body(.file(path))
        case .descriptor(let descriptor):
            defer { withExtendedLifetime(descriptor) {} }
            return try body(.descriptor(descriptor.rawValue))
        case .bytes(let bytes):
            return try bytes.withBytes { (raw) throws(CodecError) -> R in try body(.memory(raw)) }
        }
    }

    /// The first `ImageFormat.sniffLength` bytes (fewer for a short input).
    func prefix() throws(CodecError) -> [UInt8] {
        switch self {
        case .bytes(let bytes):
            return Array(bytes.prefix(ImageFormat.sniffLength))
        case .file(let path):
            var buffer = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
            var count = 0
            var error = tv_error()
            let status = tv_file_read_prefix(path, &buffer, buffer.count, &count, &error)
            guard status == TV_OK else { throw CodecError(status: status, error: error, format: nil) }
            return Array(buffer.prefix(count))
        case .descriptor(let descriptor):
            var buffer = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
            var count = 0
            var error = tv_error()
            let status = tv_descriptor_read_prefix(descriptor.rawValue, &buffer, buffer.count, &count, &error)
            withExtendedLifetime(descriptor) {}
            guard status == TV_OK else { throw CodecError(status: status, error: error, format: nil) }
            return Array(buffer.prefix(count))
        }
    }
}

/// Memory that holds a copy of a bytes source for as long as a streaming reader lives.
final class OwnedBytes {
    let buffer: UnsafeMutableRawBufferPointer

    let count: Int

    init(_ bytes: [UInt8]) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = buffer.baseAddress {
                target.copyMemory(from: base, byteCount: source.count)
            }
        }
        self.buffer = buffer
        self.count = bytes.count
    }

    var input: ShimInput { .memory(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }

    deinit { buffer.deallocate() }
}

extension ImageSource {
    /// Shim input that stays valid as long as the returned owner lives (bytes are copied once; a descriptor is
    /// its own owner).
    func retainedShimInput() -> (input: ShimInput, owner: AnyObject?) {
        switch self {
        case .file(let path):
            return (.file(path), nil)
        case .descriptor(let descriptor):
            return (.descriptor(descriptor.rawValue), descriptor)
        case .bytes(let bytes):
            let owner = OwnedBytes(bytes)
            return (owner.input, owner)
        }
    }
}

/// Opening files that must be regular files: a FIFO, a device, a socket or a folder is refused before it is
/// opened for reading ("not a regular file"), so no input can block a run (see `tv_fopen_regular`).
public enum RegularFile {
    /// The file open for reading; the caller closes it with `fclose`.
    public static func open(_ path: String) throws(CodecError) -> UnsafeMutablePointer<FILE> {
        var error = tv_error()
        guard let file = tv_fopen_regular(path, &error) else {
            throw CodecError(status: TV_ERR_IO, error: error, format: nil)
        }
        return file
    }
}
