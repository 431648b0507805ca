import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// Visible and ranged cells against a brute force over every item of every grid.
@Suite("Grid cells")
struct CellLawTests {
    @Test("the cells reported visible are exactly those whose rects intersect the viewport")
    func visibleCellsAreExactlyTheIntersectingOnes() {
        sweepFeeds("visibleCells = brute-force intersection with the viewport", seed: 0xFEED_0201, cases: 1500) {
            feed, layout, rng in
            let all = bruteForceCells(layout)
            let viewport = PixelRect(size: layout.viewportSize)
            for _ in 0..<3 {
                let y = RandomFeed.offset(in: layout, &rng)
                let offset = layout.clampedContainerOffset(y)
                let expected = all.filter { cell in
                    var inViewport = cell.containerRect
                    inViewport.y -= offset
                    return viewport.intersection(inViewport) != nil
                }
                let reported = layout.visibleCells(atContainerOffset: y)
                if reported.map(\.id) != expected.map(\.id) {
                    return "offset \(y): reported \(reported.count) cells, expected \(expected.count); \(feed)"
                }
                for (cell, truth) in zip(reported, expected) {
                    var inViewport = truth.containerRect
                    inViewport.y -= offset
                    if cell.containerRect != truth.containerRect || cell.viewportRect != inViewport {
                        return
                            "offset \(y): \(cell) rects \(cell.containerRect), expected \(truth.containerRect); \(feed)"
                    }
                }
            }
            return nil
        }
    }

    @Test("cells in any container range are exactly those whose rects share a row with it")
    func cellsInRangeMatchBruteForce() {
        sweepFeeds("cells(inContainerRange:) = brute force", seed: 0xFEED_0202, cases: 1500) { feed, layout, rng in
            let all = bruteForceCells(layout)
            for _ in 0..<3 {
                let low = rng.int(-500...(layout.contentHeight + 500))
                let range = low..<(low + rng.int(0...3000))
                let reported = layout.cells(inContainerRange: range, atContainerOffset: low)
                let expected = bruteForceCellIDs(in: range, of: all)
                if reported.map(\.id) != expected {
                    return "range \(range): reported \(reported.count) cells, expected \(expected.count); \(feed)"
                }
                if let bad = reported.first(where: { $0.viewportRect.y != $0.containerRect.y - low }) {
                    return "range \(range): \(bad) not moved up by \(low); \(feed)"
                }
            }
            return nil
        }
    }

    @Test("a cell's container rect looked up by id is the rect the queries report")
    func containerRectByID() {
        sweepFeeds("containerRect(of:) agrees with the brute force", seed: 0xFEED_0203, cases: 1000) {
            feed, layout, rng in
            for cell in bruteForceCells(layout) where layout.containerRect(of: cell.id) != cell.containerRect {
                return "\(cell.id): \(String(describing: layout.containerRect(of: cell.id))), expected "
                    + "\(cell.containerRect); \(feed)"
            }
            let outside = [CellID(section: -1, item: 0), CellID(section: feed.sections.count, item: 0)]
            for id in outside where layout.containerRect(of: id) != nil { return "\(id) found; \(feed)" }
            return nil
        }
    }

    @Test("a range reaching to the ends of Int finds every cell without overflowing")
    func extremeRanges() {
        let layout = FeedLayout(
            sections: [.header(height: 10, colour: .black), .grid(itemCount: 7, columns: 3)],
            viewportSize: PixelSize(width: 30, height: 20))
        #expect(layout.cells(inContainerRange: Int.min..<Int.max, atContainerOffset: 0).map(\.item) == Array(0..<7))
        #expect(layout.cells(inContainerRange: Int.min..<10, atContainerOffset: 0).isEmpty)
        #expect(layout.cells(inContainerRange: 40..<Int.max, atContainerOffset: 0).isEmpty)
        #expect(layout.cells(inContainerRange: 39..<Int.max, atContainerOffset: 0).map(\.item) == [6])
    }

    @Test("a long feed answers from the visible rows: a million-item grid reports one screen of cells")
    func longFeedIsCheap() {
        let layout = FeedLayout(
            sections: [.grid(itemCount: 1_000_000, columns: 4)], viewportSize: PixelSize(width: 400, height: 800))
        #expect(layout.contentHeight == 250_000 * 100)
        let cells = layout.visibleCells(atContainerOffset: 12_345_650)
        // Rows 123456 to 123464 (the viewport [12345650, 12346450) touches 9 rows of 100).
        #expect(cells.count == 9 * 4)
        #expect(cells.first?.item == 123_456 * 4)
        #expect(cells.first?.viewportRect.y == -50)
        #expect(layout.residentCells(atContainerOffset: 12_345_650, scrollDirection: .down).count == 17 * 4)
    }
}
