/// Why a move word or a list of moves could not be read.
public enum PageMoveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `word` is not one of the moves. `index` is its 1-based place in a list, `line` its 1-based line in a
    /// script (both nil when a single word was read).
    case unknownMove(word: String, index: Int?, line: Int?)
    /// `goto` was followed by `word` (empty when nothing followed), which is not a page number from 1 up.
    case badPageNumber(word: String, index: Int?, line: Int?)

    public var description: String {
        switch self {
        case .unknownMove(let word, let index, let line):
            let shown = word.isEmpty ? "an empty move" : "unknown move '\(word)'"
            return "\(shown)\(Self.place(index, line)); valid moves: \(PageMove.validWords.joined(separator: ", "))"
        case .badPageNumber(let word, let index, let line):
            let shown = word.isEmpty ? "nothing" : "'\(word)'"
            return "goto needs a page number from 1 up, got \(shown)\(Self.place(index, line))"
        }
    }

    private static func place(_ index: Int?, _ line: Int?) -> String {
        var place: [String] = []
        if let index { place.append("move \(index)") }
        if let line { place.append("line \(line)") }
        return place.isEmpty ? "" : " (\(place.joined(separator: ", ")))"
    }
}
