extension PageMove {
    /// The forms a move is written in, in the order messages list them.
    public static let validWords: [String] = steps.map(\.description) + ["goto N"]

    /// Reads one move: a step word or `goto N`; white space around and between its words and letter case are
    /// ignored (`" Next "` is `next`, `"GOTO  3"` is `goto 3`).
    public init(parsing text: some StringProtocol) throws(PageMoveError) {
        var words = String(text).split(whereSeparator: { $0.isWhitespace }).map(String.init)[...]
        self = try Self.take(from: &words, index: nil, line: nil)
        if let extra = words.first { throw .unknownMove(word: extra, index: nil, line: nil) }
    }

    /// Takes one move from the front of `words`: a step word, or `goto` and the page number after it. `index` and
    /// `line` place the move in errors.
    static func take(from words: inout ArraySlice<String>, index: Int?, line: Int?) throws(PageMoveError)
        -> PageMove
    {
        let word = words.popFirst() ?? ""
        if let move = steps.first(where: { $0.description == word.lowercased() }) { return move }
        guard word.lowercased() == "goto" else { throw .unknownMove(word: word, index: index, line: line) }
        let number = words.popFirst() ?? ""
        guard number.allSatisfy(\.isASCII), let n = Int(number), n >= 1 else {
            throw .badPageNumber(word: number, index: index, line: line)
        }
        return .goto(n)
    }
}

extension String {
    /// The string without white space (spaces, tabs, line breaks) at either end.
    var trimmedOfWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
