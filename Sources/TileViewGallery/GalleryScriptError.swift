import TileViewCore

/// A script line that is not a step.
public struct GalleryScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public let line: Int
    public let error: GalleryActionParseError

    public var description: String { "line \(line): \(error)" }
}
