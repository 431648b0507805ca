import Testing
import TileViewCore
import TileViewPaging
import TileViewTestSupport

@Suite("Peeking geometry")
struct PeekLayoutTests {
    typealias Cell = PageMap.Cell

    @Test("the page width is w - 2P; at rest the page is centred with P of each neighbour showing, all inset by G/2")
    func restingFrames() {
        let peek = PeekLayout(viewportSize: Size(width: 400, height: 300), peek: 40, gap: 10)
        #expect(peek.pageSize == Size(width: 320, height: 300))
        let offset = peek.contentOffset(ofSlot: Cell(column: 1, row: 0))
        #expect(offset == Point(x: 320, y: 0))
        let pages = peek.visiblePages(atContentOffset: offset, in: .linear(3))
        #expect(pages.map(\.position.column) == [0, 1, 2])
        #expect(pages[0].frame == Rect(x: -275, y: 0, width: 310, height: 300))
        #expect(pages[1].frame == Rect(x: 45, y: 0, width: 310, height: 300))
        #expect(pages[2].frame == Rect(x: 365, y: 0, width: 310, height: 300))
        #expect(pages[1].frame.center == Point(x: 200, y: 150))
        // P - G/2 = 35 points of each neighbour show at the sides.
        #expect(pages[0].frame.maxX == 35 && 400 - pages[2].frame.minX == 35)
    }

    @Test("pages that do not exist are absent: a linear list's ends and a map's holes")
    func absentPages() throws {
        let peek = PeekLayout(viewportSize: Size(width: 400, height: 300), peek: 40, gap: 10)
        let first = peek.visiblePages(atContentOffset: .zero, in: .linear(3))
        #expect(first.map(\.position.column) == [0, 1])
        let single = peek.visiblePages(atContentOffset: .zero, in: .linear(1))
        #expect(single.map(\.position.column) == [0])
        let map = PageLayout.map(try ClassicMap.map())
        let six = try ClassicMap.cell("6")
        let atSix = peek.visiblePages(atContentOffset: peek.contentOffset(ofSlot: six), in: map)
        #expect(atSix.map(\.position) == [six, try ClassicMap.cell("7")])
        let ring = peek.visiblePages(atContentOffset: .zero, in: .circular(4))
        #expect(ring.map(\.position.column) == [3, 0, 1])
        #expect(ring.map(\.slot.column) == [-1, 0, 1])
        #expect(peek.visiblePages(atContentOffset: .zero, in: .circular(1)).map(\.position.column) == [0])
    }

    @Test("with no peek and no gap a resting page fills the viewport: plain paging")
    func plainPaging() {
        let plain = PeekLayout(viewportSize: Size(width: 1024, height: 768))
        #expect(plain.pageSize == Size(width: 1024, height: 768))
        let pages = plain.visiblePages(atContentOffset: Point(x: 2048, y: 0), in: .linear(5))
        #expect(pages.count == 1 && pages[0].frame == Rect(x: 0, y: 0, width: 1024, height: 768))
        let between = plain.visiblePages(atContentOffset: Point(x: 2048 + 300, y: 0), in: .linear(5))
        #expect(
            between.map(\.frame) == [
                Rect(x: -300, y: 0, width: 1024, height: 768), Rect(x: 724, y: 0, width: 1024, height: 768),
            ])
    }

    @Test("peek and gap are clamped: P to [0, w/4], G to [0, pw/2]")
    func clamping() throws {
        let wide = PeekLayout(viewportSize: Size(width: 400, height: 300), peek: 300, gap: 1000)
        #expect(wide.peek == 100 && wide.pageSize.width == 200 && wide.gap == 100)
        let negative = PeekLayout(viewportSize: Size(width: 400, height: 300), peek: -5, gap: -1)
        #expect(negative.peek == 0 && negative.gap == 0)
        let vertical = PeekLayout(viewportSize: Size(width: 400, height: 300), peek: 30, gap: 8, axis: .vertical)
        #expect(vertical.pageSize == Size(width: 400, height: 240))
        let frames = vertical.visiblePages(
            atContentOffset: Point(x: 0, y: 240), in: .map(try PageMap(rows: [["a"], ["b"], ["c"]])))
        #expect(
            frames.map(\.frame) == [
                Rect(x: 0, y: -206, width: 400, height: 232), Rect(x: 0, y: 34, width: 400, height: 232),
                Rect(x: 0, y: 274, width: 400, height: 232),
            ])
    }

    @Test("every page that shows during a drag is resident once the pager follows the nearest page")
    func visiblePagesAreResident() throws {
        try forEachCase(seed: 0x5EED_0301, cases: 1500) { seed, rng in
            let layout = RandomLayouts.layout(&rng)
            var pager = RandomLayouts.pager(layout, &rng)
            let viewport = Size(
                width: Double.random(in: 100...1200, using: &rng), height: Double.random(in: 100...1200, using: &rng))
            var axis = PageAxis.horizontal
            if layout.isMap && Bool.random(using: &rng) { axis = .vertical }
            let fraction = Double.random(in: 0...0.3, using: &rng)
            let length = axis == .horizontal ? viewport.width : viewport.height
            let peek = PeekLayout(
                viewportSize: viewport, peek: fraction * length, gap: Double.random(in: 0...30, using: &rng), axis: axis
            )
            _ = pager.orient(axis)
            var drag = DragSession(pager: pager, pageSize: peek.pageSize)
            for motionIndex in 0..<8 {
                let d = Double.random(in: -1.2...1.2, using: &rng) * length
                drag.drag(by: axis == .horizontal ? (dx: d, dy: d / 3) : (dx: d / 3, dy: d))
                _ = pager.move(to: drag.nearestPosition)
                _ = pager.orient(axis)
                let visible = peek.visiblePages(atContentOffset: drag.contentOffset, in: layout)
                let context = { "seed \(seed) motion \(motionIndex): \(layout) \(peek) offset \(drag.contentOffset)" }
                try #require(visible.count <= 3, "\(context()): \(visible.count) visible")
                try #require(visible.contains { $0.position == pager.position }, "\(context()): current page not shown")
                for page in visible {
                    try #require(
                        pager.resident.contains(page.position), "\(context()): \(page) not resident \(pager.resident)")
                }
                // Neighbouring frames along the peek axis are separated by exactly the gap.
                for (a, b) in zip(visible, visible.dropFirst()) {
                    let gap = axis == .horizontal ? b.frame.minX - a.frame.maxX : b.frame.minY - a.frame.maxY
                    try #require(abs(gap - peek.gap) <= 1e-6, "\(context()): gap \(gap)")
                }
            }
        }
    }
}
