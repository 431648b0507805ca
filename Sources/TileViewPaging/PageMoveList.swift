/// An ordered list of moves, as given by `--moves "next,next,goto 5,prev"` or by the text of a script file.
///
/// Moves are separated by commas, white space or line breaks, so `next,next`, `next, next` and one move per line
/// all read the same; `goto` takes the word after it as its page number (`goto 5`, on one line). `#` starts a
/// comment that runs to the end of its line. Empty text is an empty list.
public struct PageMoveList: Hashable, Sendable, RandomAccessCollection {
    /// The moves, in the order they apply.
    public let moves: [PageMove]

    public init(_ moves: [PageMove]) {
        self.moves = moves
    }

    /// Reads a move list; the error names the first bad word, its place in the list and its line.
    public init(parsing text: String) throws(PageMoveError) {
        var moves: [PageMove] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (lineIndex, rawLine) in lines.enumerated() {
            let line = lines.count > 1 ? lineIndex + 1 : nil
            var words = rawLine.prefix { $0 != "#" }.split { $0 == "," || $0.isWhitespace }.map(String.init)[...]
            while !words.isEmpty {
                moves.append(try PageMove.take(from: &words, index: moves.count + 1, line: line))
            }
        }
        self.moves = moves
    }

    public var startIndex: Int { moves.startIndex }
    public var endIndex: Int { moves.endIndex }
    public subscript(position: Int) -> PageMove { moves[position] }
}
