import Testing
import TileViewPaging

@Suite("Page map parsing")
struct PageMapParsingTests {
    @Test("the classic map reads as four rows of three cells with holes at the dots")
    func classic() throws {
        let map = try ClassicMap.map()
        #expect(map.columnCount == 3)
        #expect(map.rowCount == 4)
        #expect(map.grid[0] == ["1", nil, "2"])
        #expect(map.grid[3] == [nil, nil, "8"])
        #expect(map.pageCells.count == 8)
        #expect(map.cell(ofPage: "6") == PageMap.Cell(column: 1, row: 2))
        #expect(map.page(at: PageMap.Cell(column: 0, row: 2)) == nil)
        #expect(map.page(at: PageMap.Cell(column: 3, row: 0)) == nil)
        #expect(map.page(at: PageMap.Cell(column: -1, row: 0)) == nil)
        #expect(map.rowLines == [1, 2, 3, 4])
    }

    @Test("page order is row-major")
    func pageOrder() throws {
        let map = try ClassicMap.map()
        let names = map.pageCells.compactMap { map.page(at: $0) }
        #expect(names == ["1", "2", "3", "4", "5", "6", "7", "8"])
        for (index, cell) in map.pageCells.enumerated() {
            #expect(map.pageIndex(at: cell) == index)
        }
    }

    @Test("comments and blank lines are skipped, tabs separate cells, short rows end in holes")
    func formatDetails() throws {
        let text = "# gallery\n\n  a.jpg\tb.png  c.jpg\r\n# second row\nd.jpg\n\n. e.jpg\n"
        let map = try PageMap(parsing: text)
        // Rows are kept as written; the cells past a short row's end are holes.
        #expect(map.grid == [["a.jpg", "b.png", "c.jpg"], ["d.jpg"], [nil, "e.jpg"]])
        #expect(map.columnCount == 3)
        let cells = (0..<3).map { row in (0..<3).map { map.page(at: PageMap.Cell(column: $0, row: row)) } }
        #expect(cells == [["a.jpg", "b.png", "c.jpg"], ["d.jpg", nil, nil], [nil, "e.jpg", nil]])
        #expect(map.rowLines == [3, 5, 7])
    }

    @Test("a map without rows is an error that counts the lines read")
    func empty() {
        #expect(throws: PageMapError.empty(lineCount: 0)) { try PageMap(parsing: "") }
        #expect(throws: PageMapError.empty(lineCount: 3)) { try PageMap(parsing: "# only\n\n   # comments\n") }
        #expect(
            PageMapError.empty(lineCount: 3).description
                == "the page map is empty: its 3 line(s) are all blank or comments; write one row of cells per line, "
                + "'.' for a hole")
    }

    @Test("a map of holes only is an error that names the lines")
    func noPages() {
        #expect(throws: PageMapError.noPages(firstLine: 2, lastLine: 4)) {
            try PageMap(parsing: "# holes\n. .\n.\n. . .\n")
        }
        #expect(
            PageMapError.noPages(firstLine: 2, lastLine: 4).description
                == "the page map has no pages: every cell on lines 2-4 is a hole ('.'); name at least one page")
        #expect(throws: PageMapError.noPages(firstLine: 0, lastLine: 0)) { try PageMap(rows: [[nil], []]) }
    }
}

@Suite("Page map parsing: memory follows the cells")
struct PageMapMemoryTests {
    @Test("a long first row over many one-cell rows is parsed without padding every row to the widest")
    func noPadding() throws {
        // 20,000 cells in the first row and 20,000 one-cell rows: padded, that would be 400 million cells.
        var text = (0..<20_000).map { "p\($0)" }.joined(separator: " ") + "\n"
        for n in 0..<20_000 { text += "q\(n)\n" }
        let map = try PageMap(parsing: text)
        #expect(map.columnCount == 20_000 && map.rowCount == 20_001)
        #expect(map.pageCells.count == 40_000)
        #expect(map.grid.reduce(0) { $0 + $1.count } == 40_000)
        #expect(map.page(at: PageMap.Cell(column: 5, row: 3)) == nil)
        #expect(map.page(at: PageMap.Cell(column: 0, row: 3)) == "q2")
        #expect(map.page(at: PageMap.Cell(column: 19_999, row: 0)) == "p19999")
    }
}
