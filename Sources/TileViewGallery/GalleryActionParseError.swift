import TileViewCore
import TileViewPaging
import TileViewZoom

/// The forms of a gallery step (`--script` lines).
public enum GalleryActionGrammar: TextGrammar {
    /// The accepted forms, for messages.
    public static let forms =
        "a move (\(PageMove.validWords.joined(separator: ", "))), a gesture (\(ZoomGestureGrammar.forms)) "
        + "or \"drag DX,DY velocity VX,VY\""
    public static let noun = "step"
    public static var expectation: String { "a step is \(forms)" }
}

/// Why a gallery step could not be read.
public typealias GalleryActionParseError = TextParseError<GalleryActionGrammar>
