/// Why a page map could not be read.
public enum PageMapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text has no rows: its `lineCount` lines are all blank or comments.
    case empty(lineCount: Int)
    /// Every cell of the rows on lines `firstLine` to `lastLine` is a hole.
    case noPages(firstLine: Int, lastLine: Int)

    public var description: String {
        switch self {
        case .empty(let lineCount):
            let what = lineCount == 0 ? "it has no text" : "its \(lineCount) line(s) are all blank or comments"
            return "the page map is empty: \(what); write one row of cells per line, '.' for a hole"
        case .noPages(let firstLine, let lastLine):
            let lines: String
            if firstLine == 0 {
                lines = ""
            } else {
                lines = firstLine == lastLine ? " on line \(firstLine)" : " on lines \(firstLine)-\(lastLine)"
            }
            return "the page map has no pages: every cell\(lines) is a hole ('.'); name at least one page"
        }
    }
}
