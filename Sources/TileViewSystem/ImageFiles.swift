import TileViewCodecs
import TileViewCore

/// Reading and writing whole image files, with errors that name the file.
///
/// This is the one place where codec errors become `TileViewError`s: the file name goes in front
/// of the codec's message ("photo.jpg: truncated JPEG data: Premature end of JPEG file").
public enum ImageFiles {
    /// The header of an image file: format, sizes, orientation. Reads only the first bytes.
    public static func header(ofFile path: String) throws(TileViewError) -> ImageHeader {
        do {
            return try ImageHeader.read(from: .file(path: path))
        } catch {
            throw TileViewError(error, path: path)
        }
    }

    /// The whole image, decoded to upright RGBA8 (unless `options` keeps the stored layout); `accepting` may
    /// refuse it from its header, before any pixel memory (see `ImageDecoder.decode`).
    public static func decode(
        file path: String, options: DecodeOptions = DecodeOptions(), parts: DecodeParts? = nil,
        accepting: (ImageHeader) throws(CodecError) -> Void = { _ in }
    ) throws(TileViewError) -> DecodedImage {
        do {
            return try ImageDecoder.decode(.file(path: path), options: options, parts: parts, accepting: accepting)
        } catch {
            throw TileViewError(error, path: path)
        }
    }

    /// Encodes `image` as PNG and writes it atomically to `path`.
    public static func writePNG(
        _ image: ImageBuffer, to path: String, options: PNGEncodeOptions = PNGEncodeOptions()
    ) throws(TileViewError) {
        try AtomicFile.write(try encodePNG(image, naming: path, options: options), to: path)
    }

    /// The PNG file of `image`, as `writePNG` writes it (the one encoding of every frame tileview shows: files,
    /// and a server's frames, are byte for byte the same). An error names `path`.
    public static func encodePNG(
        _ image: ImageBuffer, naming path: String, options: PNGEncodeOptions = PNGEncodeOptions()
    ) throws(TileViewError) -> [UInt8] {
        do {
            return try PNGEncoder.encode(image, options: options)
        } catch {
            throw TileViewError(.write, path: path, reason: "cannot encode PNG: \(error.message)")
        }
    }
}

extension TileViewError {
    /// A codec error about `path`: unreadable files are `.read`, everything else `.decode`.
    public init(_ error: CodecError, path: String) {
        self.init(error.kind == .io ? .read : .decode, path: path, reason: error.message)
    }

    /// Whether a decode ran out of memory (`CodecError.isOutOfMemory`): it may succeed later, when less is in use.
    public var isOutOfMemory: Bool { kind == .decode && reason.hasPrefix(CodecError.outOfMemoryLead) }
}
