import Testing
import TileViewPaging

@Suite("Move parsing")
struct PageMoveParsingTests {
    @Test("every move word reads back as its move, ignoring case and surrounding white space")
    func words() throws {
        for move in PageMove.steps + [.goto(1), .goto(12)] {
            #expect(try PageMove(parsing: move.description) == move)
            #expect(try PageMove(parsing: "  \(move.description.uppercased())\t") == move)
        }
        #expect(try PageMove(parsing: "goto \t 3") == .goto(3))
    }

    @Test("a bad word is an error that names it and lists the valid moves")
    func badWord() {
        #expect(throws: PageMoveError.unknownMove(word: "nxt", index: nil, line: nil)) {
            try PageMove(parsing: "nxt")
        }
        let message = PageMoveError.unknownMove(word: "nxt", index: nil, line: nil).description
        #expect(message == "unknown move 'nxt'; valid moves: next, prev, left, right, up, down, goto N")
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
        #expect(
            message
                == "unknown move 'sideways' (move 3, line 4); valid moves: next, prev, left, right, up, down, goto N")
    }

    @Test("each move's reverse goes back along the same axis")
    func reverses() {
        for move in PageMove.steps {
            #expect(move.reversed?.reversed == move)
            #expect(move.reversed?.axis == move.axis)
            #expect(move.reversed?.step == -move.step)
        }
        #expect(PageMove.goto(2).reversed == nil, "a jump has no reverse of its own")
    }

    @Test("goto takes the page number after it, in lists as on their own")
    func gotoMoves() throws {
        #expect(try PageMoveList(parsing: "next,goto 5,prev").moves == [.next, .goto(5), .prev])
        #expect(try PageMoveList(parsing: "GOTO 2\ngoto\t10 # far").moves == [.goto(2), .goto(10)])
        #expect(PageMove.goto(7).description == "goto 7")
    }

    @Test("goto without a page number from 1 up is an error that names what followed it and where")
    func badGoto() {
        let cases: [(String, PageMoveError)] = [
            ("goto", .badPageNumber(word: "", index: 1, line: nil)),
            ("next,goto 0", .badPageNumber(word: "0", index: 2, line: nil)),
            ("goto -2", .badPageNumber(word: "-2", index: 1, line: nil)),
            ("next\ngoto next", .badPageNumber(word: "next", index: 2, line: 2)),
            ("goto 99999999999999999999", .badPageNumber(word: "99999999999999999999", index: 1, line: nil)),
            ("goto ３", .badPageNumber(word: "３", index: 1, line: nil)),
        ]
        for (text, error) in cases {
            #expect(throws: error, "\(text)") { try PageMoveList(parsing: text) }
        }
        #expect(throws: PageMoveError.badPageNumber(word: "x", index: nil, line: nil)) {
            try PageMove(parsing: "goto x")
        }
        #expect(throws: PageMoveError.unknownMove(word: "4", index: nil, line: nil)) {
            try PageMove(parsing: "goto 3 4")
        }
        let message = PageMoveError.badPageNumber(word: "0", index: 2, line: nil).description
        #expect(message == "goto needs a page number from 1 up, got '0' (move 2)")
    }
}
