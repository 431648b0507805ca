/// Where encoded image bytes come from: memory, or a file (by path, or an open descriptor) that decoders read as
/// they go.
///
/// A file source lets the streaming readers decode a 30 MB JPEG without holding the file in
/// memory; a bytes source is read in place by the one-shot decoders and copied once by the
/// streaming readers (which outlive the caller's array access).
public enum ImageSource: Sendable {
    case bytes([UInt8])
    case file(path: String)
    /// A regular file already open: decoders read it through the descriptor (never by a name, which could have
    /// been replaced since it was opened). Errors do not name it: the caller names the file.
    case descriptor(OpenDescriptor)
}
