/// Why a move word or a list of moves could not be read.
public enum PageMoveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `word` is not one of the six moves. `index` is its 1-based place in a list, `line` its 1-based line in a
    /// script (both nil when a single word was read).
    case unknownMove(word: String, index: Int?, line: Int?)

    public var description: String {
        switch self {
        case .unknownMove(let word, let index, let line):
            var place: [String] = []
            if let index { place.append("move \(index)") }
            if let line { place.append("line \(line)") }
            let at = place.isEmpty ? "" : " (\(place.joined(separator: ", ")))"
            let shown = word.isEmpty ? "an empty move" : "unknown move '\(word)'"
            return "\(shown)\(at); valid moves: \(PageMove.validWords.joined(separator: ", "))"
        }
    }
}
