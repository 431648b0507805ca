/// An error that names the file it concerns and says what went wrong, as the command prints it.
///
/// The command maps every `TileViewError` to exit status 1 (an interrupted run to 128 + the signal) and prints
/// `tileview: <description>`.
public struct TileViewError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// The file could not be opened or read.
        case read
        /// The bytes are not a decodable image (corrupt, truncated, unsupported, too large).
        case decode
        /// The output could not be written.
        case write
        /// A gallery, map or script file is malformed.
        case input
        /// The run was stopped by a signal (SIGINT, SIGTERM) before its last frame; the path is the output.
        case interrupted
    }

    public let kind: Kind
    /// The file the error concerns, as the user wrote it.
    public let path: String
    /// What went wrong, in words a user can act on.
    public let reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
