import TileViewCore
import TileViewPaging
import TileViewZoom

/// Why a gallery step could not be read.
public struct GalleryActionParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public let input: String
    public let problem: String

    public init(input: String, problem: String) {
        self.input = input
        self.problem = problem
    }

    /// The accepted forms, for messages.
    public static let forms =
        "a move (\(PageMove.validWords.joined(separator: ", "))), a gesture (\(ZoomGestureParseError.forms)) "
        + "or \"drag DX,DY velocity VX,VY\""

    public var description: String { "invalid step \"\(input)\": \(problem); a step is \(Self.forms)" }
}
