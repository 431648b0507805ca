extension PageMove {
    /// The valid move words, in the order messages list them.
    public static let validWords: [String] = allCases.map(\.rawValue)

    /// Reads one move word; white space around it and letter case are ignored (`" Next "` is `next`).
    public init(parsing text: some StringProtocol) throws(PageMoveError) {
        let word = String(text).trimmedOfWhitespace
        guard let move = PageMove(rawValue: word.lowercased()) else {
            throw .unknownMove(word: word, index: nil, line: nil)
        }
        self = move
    }
}

extension String {
    /// The string without white space (spaces, tabs, line breaks) at either end.
    var trimmedOfWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
