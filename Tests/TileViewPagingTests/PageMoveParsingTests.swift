import Testing
import TileViewPaging

@Suite("Move parsing")
struct PageMoveParsingTests {
    @Test("every move word reads back as its move, ignoring case and surrounding white space")
    func words() throws {
        for move in PageMove.allCases {
            #expect(try PageMove(parsing: move.rawValue) == move)
            #expect(try PageMove(parsing: "  \(move.rawValue.uppercased())\t") == move)
        }
    }

    @Test("a bad word is an error that names it and lists the valid moves")
    func badWord() {
        #expect(throws: PageMoveError.unknownMove(word: "nxt", index: nil, line: nil)) {
            try PageMove(parsing: "nxt")
        }
        let message = PageMoveError.unknownMove(word: "nxt", index: nil, line: nil).description
        #expect(message == "unknown move 'nxt'; valid moves: next, prev, left, right, up, down")
    }

    @Test("a list splits on commas, spaces and lines, and skips comments")
    func list() throws {
        #expect(try PageMoveList(parsing: "next,next,prev").moves == [.next, .next, .prev])
        #expect(try PageMoveList(parsing: "next, next ,prev").moves == [.next, .next, .prev])
        let script = """
            # walk the classic map
            left
            right   # to 7
            down
            DOWN
            """
        #expect(try PageMoveList(parsing: script).moves == [.left, .right, .down, .down])
        #expect(try PageMoveList(parsing: "").isEmpty)
        #expect(try PageMoveList(parsing: "  \n# nothing\n").isEmpty)
    }

    @Test("a bad word in a list is reported with its place in the list and its line")
    func badWordInList() {
        #expect(throws: PageMoveError.unknownMove(word: "bakc", index: 2, line: nil)) {
            try PageMoveList(parsing: "next,bakc,prev")
        }
        #expect(throws: PageMoveError.unknownMove(word: "sideways", index: 3, line: 4)) {
            try PageMoveList(parsing: "next\n# comment\nprev\nsideways\n")
        }
        let message = PageMoveError.unknownMove(word: "sideways", index: 3, line: 4).description
        #expect(message == "unknown move 'sideways' (move 3, line 4); valid moves: next, prev, left, right, up, down")
    }

    @Test("each move's reverse goes back along the same axis")
    func reverses() {
        for move in PageMove.allCases {
            #expect(move.reversed.reversed == move)
            #expect(move.reversed.axis == move.axis)
            #expect(move.reversed.step == -move.step)
        }
    }
}
