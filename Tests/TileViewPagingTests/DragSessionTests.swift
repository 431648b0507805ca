import Testing
import TileViewCore
import TileViewPaging
import TileViewTestSupport

@Suite("Drags and flings")
struct DragSessionTests {
    typealias Cell = PageMap.Cell
    static let size = Size(width: 400, height: 300)

    static func session(_ layout: PageLayout, at column: Int, row: Int = 0) throws -> DragSession {
        let pager = try #require(Pager(layout: layout, start: Cell(column: column, row: row)))
        return DragSession(pager: pager, pageSize: size)
    }

    /// A session on the classic map (`ClassicMap`), at the page named `name`.
    static func classicSession(at name: String) throws -> DragSession {
        let cell = try ClassicMap.cell(name)
        return try session(.map(try ClassicMap.map()), at: cell.column, row: cell.row)
    }

    @Test("a slow release settles on the nearest page; a fast one flings to the neighbour")
    func releaseRule() throws {
        var drag = try Self.session(.linear(5), at: 2)
        #expect(drag.contentOffset == Point(x: 800, y: 0))
        drag.drag(by: (dx: -100, dy: 0))  // finger left: the offset moves right
        #expect(drag.contentOffset == Point(x: 900, y: 0))
        #expect(drag.release(velocity: (vx: 0.05, vy: 0)).position == Cell(column: 2, row: 0))
        #expect(drag.release(velocity: (vx: 0.099, vy: 0)).flung == false)
        let fling = drag.release(velocity: (vx: 0.1, vy: 0))
        #expect(fling.position == Cell(column: 3, row: 0) && fling.flung)
        #expect(fling.contentOffset == Point(x: 1200, y: 0))
        #expect(drag.release(velocity: (vx: -0.5, vy: 0)).position == Cell(column: 2, row: 0))
        drag.drag(by: (dx: -150, dy: 0))  // 2.625 pages: past halfway
        #expect(drag.release(velocity: (vx: 0, vy: 0)).position == Cell(column: 3, row: 0))
        #expect(drag.release(velocity: (vx: -0.2, vy: 0)).position == Cell(column: 2, row: 0))
        #expect(drag.release(velocity: (vx: 0.2, vy: 0)).position == Cell(column: 3, row: 0))
        #expect(drag.release(velocity: (vx: 0, vy: 5)).position == Cell(column: 3, row: 0))  // off-axis speed
    }

    @Test("a fling from rest goes to the neighbour when there is one and stays at a list's end")
    func flingFromRest() throws {
        let middle = try Self.session(.linear(3), at: 1)
        #expect(middle.release(velocity: (vx: 0.3, vy: 0)).position == Cell(column: 2, row: 0))
        #expect(middle.release(velocity: (vx: -0.3, vy: 0)).position == Cell(column: 0, row: 0))
        let end = try Self.session(.linear(3), at: 2)
        let stay = end.release(velocity: (vx: 2, vy: 0))
        #expect(stay.position == Cell(column: 2, row: 0) && !stay.flung)
    }

    @Test("a drag stops at a linear list's ends")
    func linearEnds() throws {
        var first = try Self.session(.linear(3), at: 0)
        first.drag(by: (dx: 120, dy: 10))  // finger right: would show space before page 0
        #expect(first.contentOffset == Point(x: 0, y: 0) && first.axis == .horizontal)
        first.drag(by: (dx: -2000, dy: 0))
        #expect(first.contentOffset == Point(x: 800, y: 0))
    }

    @Test("a drag locks to the dominant axis of its first motion; a tie locks horizontally")
    func axisLock() throws {
        var vertical = try Self.classicSession(at: "4")
        vertical.drag(by: (dx: 0, dy: 0))
        #expect(vertical.axis == nil)
        vertical.drag(by: (dx: 30, dy: -40))  // finger up: the offset moves down towards 6
        #expect(vertical.axis == .vertical)
        vertical.drag(by: (dx: -300, dy: -20))
        #expect(vertical.contentOffset == Point(x: 400, y: 360))
        var tie = try Self.classicSession(at: "4")
        tie.drag(by: (dx: -50, dy: -50))
        #expect(tie.axis == .horizontal && tie.contentOffset == Point(x: 450, y: 300))
    }

    @Test("on the classic map a drag from 6 cannot go left or down, and goes right to 7 and up to 4")
    func classicMapDrags() throws {
        let six = try ClassicMap.cell("6")
        var left = try Self.classicSession(at: "6")
        left.drag(by: (dx: 250, dy: 0))
        #expect(left.contentOffset == Point(x: 400, y: 600))
        #expect(left.release(velocity: (vx: -1, vy: 0)).position == six)
        var down = try Self.classicSession(at: "6")
        down.drag(by: (dx: 0, dy: -250))
        #expect(down.contentOffset == Point(x: 400, y: 600))
        var right = try Self.classicSession(at: "6")
        right.drag(by: (dx: -1000, dy: 0))
        #expect(right.contentOffset == Point(x: 800, y: 600))
        #expect(right.release(velocity: (vx: 0, vy: 0)).position == (try ClassicMap.cell("7")))
        var up = try Self.classicSession(at: "6")
        up.drag(by: (dx: 0, dy: 100))
        #expect(up.release(velocity: (vx: 0, vy: -0.4)).position == (try ClassicMap.cell("4")))
    }

    @Test("a circular drag wraps through the ends; a one-page ring does not move")
    func circularDrags() throws {
        var ring = try Self.session(.circular(3), at: 0)
        ring.drag(by: (dx: 250, dy: 0))
        #expect(ring.contentOffset == Point(x: -250, y: 0))
        let back = ring.release(velocity: (vx: 0, vy: 0))
        #expect(back.position == Cell(column: 2, row: 0) && back.slot == Cell(column: -1, row: 0))
        #expect(back.contentOffset == Point(x: -400, y: 0))
        var one = try Self.session(.circular(1), at: 0)
        one.drag(by: (dx: 250, dy: 0))
        #expect(one.contentOffset == .zero)
        #expect(one.release(velocity: (vx: -3, vy: 0)).position == Cell(column: 0, row: 0))
    }

    /// The area of the viewport that the plain-paging page frames cover.
    static func coveredArea(_ layout: PageLayout, _ offset: Point, _ size: Size) -> Double {
        let viewport = Rect(origin: .zero, size: size)
        return PeekLayout(viewportSize: size).visiblePages(atContentOffset: offset, in: layout)
            .compactMap { $0.frame.intersection(viewport) }
            .reduce(0) { $0 + $1.width * $1.height }
    }

    @Test("a drag never shows space without a page, moves along one axis only and stops only at an edge")
    func dragLaws() throws {
        var clamps = 0
        var flings = 0
        var verticalLocks = 0
        try forEachCase(seed: 0x5EED_0201, cases: 2500) { seed, rng in
            let layout = RandomLayouts.layout(&rng)
            let pager = RandomLayouts.pager(layout, &rng)
            let size = RandomLayouts.pageSize(&rng)
            var drag = DragSession(pager: pager, pageSize: size)
            let start = drag.contentOffset
            for motionIndex in 0..<10 {
                let scale = Double.random(in: 0...1.6, using: &rng)
                var dx = Double.random(in: -1...1, using: &rng) * scale * size.width
                var dy = Double.random(in: -1...1, using: &rng) * scale * size.height
                if Int.random(in: 0..<8, using: &rng) == 0 { dy = Bool.random(using: &rng) ? dx : -dx }
                if Int.random(in: 0..<8, using: &rng) == 0 { dx = 0 }
                let before = drag
                drag.drag(by: (dx: dx, dy: dy))
                let context = { "seed \(seed) motion \(motionIndex) (\(dx), \(dy)) \(layout) \(size)" }
                let offset = drag.contentOffset
                try #require(layout.isAccessible(contentOffset: offset, pageSize: size), "\(context()) \(offset)")
                let covered = Self.coveredArea(layout, offset, size)
                let area = size.width * size.height
                try #require(abs(covered - area) <= 1e-6 * area, "\(context()): pages cover \(covered) of \(area)")
                guard let axis = drag.axis else {
                    try #require(dx == 0 && dy == 0 && offset == start, "\(context()): moved without an axis")
                    continue
                }
                if before.axis == nil {
                    let expected: PageAxis = abs(dx) >= abs(dy) ? .horizontal : .vertical
                    try #require(axis == expected, "\(context()): locked \(axis)")
                }
                let (along, across, startAcross, finger) =
                    axis == .horizontal
                    ? (offset.x - before.contentOffset.x, offset.y, start.y, dx)
                    : (offset.y - before.contentOffset.y, offset.x, start.x, dy)
                try #require(across == startAcross, "\(context()): moved off its axis")
                let slack = 1e-9 * (abs(finger) + abs(offset.x) + abs(offset.y) + 1)
                try #require(along * finger <= 0 && abs(along) <= abs(finger) + slack, "\(context()): moved \(along)")
                if before.axis == nil && axis == .vertical { verticalLocks += 1 }
                if abs(along) < abs(finger) - slack {
                    clamps += 1
                    // Clamped: the offset rests on a page whose next slot in the finger's direction is empty space.
                    let length = axis == .horizontal ? size.width : size.height
                    let g = PageMath.gridCoordinate(
                        forOffset: axis == .horizontal ? offset.x : offset.y, pageLength: length)
                    try #require(g == g.rounded(), "\(context()): stopped between pages at \(g)")
                    let here =
                        axis == .horizontal
                        ? Cell(column: Int(g), row: pager.position.row)
                        : Cell(column: pager.position.column, row: Int(g))
                    let beyond = here.moved(by: finger < 0 ? 1 : -1, along: axis)
                    try #require(layout.position(atSlot: beyond) == nil, "\(context()): stopped before \(beyond)")
                }
            }
            if try checkRelease(drag, layout, size, &rng, seed) { flings += 1 }
        }
        #expect(clamps > 1000 && flings > 500 && verticalLocks > 500, "\(clamps) \(flings) \(verticalLocks)")
    }

    /// The release rule, recomputed from the offset: fling to the slot beyond the offset, or settle on the nearest.
    /// Returns whether the release flung.
    func checkRelease(
        _ drag: DragSession, _ layout: PageLayout, _ size: Size, _ rng: inout SplitMix64, _ seed: UInt64
    ) throws -> Bool {
        let v = Double.random(in: -0.3...0.3, using: &rng)
        let other = Double.random(in: -0.05...0.05, using: &rng)
        let axis = drag.axis ?? .horizontal
        let release = drag.release(velocity: axis == .horizontal ? (vx: v, vy: other) : (vx: other, vy: v))
        let length = axis == .horizontal ? size.width : size.height
        let along = axis == .horizontal ? drag.contentOffset.x : drag.contentOffset.y
        let g = PageMath.gridCoordinate(forOffset: along, pageLength: length)
        let start = drag.start
        func slot(_ coordinate: Int) -> Cell {
            axis == .horizontal ? Cell(column: coordinate, row: start.row) : Cell(column: start.column, row: coordinate)
        }
        let nearest = slot(PageMath.pageIndex(forOffset: along, pageWidth: length))
        var expected = nearest
        var flung = false
        if abs(v) >= 0.1 {
            let beyond = slot(Int(v > 0 ? g.rounded(.down) + 1 : g.rounded(.up) - 1))
            if layout.position(atSlot: beyond) != nil {
                expected = beyond
                flung = true
            }
        }
        let context = "seed \(seed) release v \(v) at \(g) along \(axis) in \(layout)"
        try #require(release.slot == expected, "\(context): slot \(release.slot), expected \(expected)")
        try #require(release.position == layout.position(atSlot: expected), "\(context): position \(release.position)")
        try #require(release.flung == flung, "\(context): flung flag")
        try #require(abs(Double(expected.coordinate(along: axis)) - g) <= 1, "\(context): target more than a page away")
        try #require(release.contentOffset == layout.contentOffset(ofSlot: expected, pageSize: size), "\(context)")
        return flung
    }
}
