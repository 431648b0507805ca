import TileViewCore
import TileViewPaging

/// The steps of a gallery walk, from `--moves` or from a script file.
///
/// Script text: one step per line (see `GalleryAction` for the forms); `#` starts a comment that runs to the end
/// of the line; blank lines are skipped. `--moves` text is a move list (`PageMoveList`: moves separated by
/// commas or white space).
public struct GalleryScript: Hashable, Sendable {
    /// The steps in order.
    public let actions: [GalleryAction]

    public init(actions: [GalleryAction]) {
        self.actions = actions
    }

    /// Moves only, as `--moves` gives them.
    public init(moves: PageMoveList) {
        actions = moves.map { .move($0) }
    }

    /// Reads a script; the error names the first bad line.
    public init(parsing text: String) throws(GalleryScriptError) {
        var actions: [GalleryAction] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, rawLine) in lines.enumerated() {
            var line = rawLine.prefix { $0 != "#" }
            if index == 0, line.first == "\u{FEFF}" { line = line.dropFirst() }
            let trimmed = line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
            guard !trimmed.isEmpty else { continue }
            do {
                actions.append(try GalleryAction(parsing: String(trimmed)))
            } catch {
                throw GalleryScriptError(line: index + 1, error: error)
            }
        }
        self.actions = actions
    }
}
