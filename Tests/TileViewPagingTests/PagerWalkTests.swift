import Testing
import TileViewPaging

@Suite("Pager walks")
struct PagerWalkTests {
    typealias Cell = PageMap.Cell

    static func list(_ columns: [Int]) -> [Cell] { columns.map { Cell(column: $0, row: 0) } }

    @Test("classic map from 6: left stays, right goes to 7, down to 8, down again stays")
    func classicWalk() throws {
        let map = try ClassicMap.map()
        var pager = try #require(Pager(layout: .map(map), start: try ClassicMap.cell("6")))
        let names = try PageMoveList(parsing: "left,right,down,down").map { move -> String? in
            map.page(at: pager.apply(move).position)
        }
        #expect(names == ["6", "7", "8", "8"])
    }

    @Test("classic map resident sets follow the axis of travel and hold at most three pages")
    func classicResident() throws {
        let map = try ClassicMap.map()
        func cells(_ names: String...) throws -> [Cell] { try names.map { try ClassicMap.cell($0) }.sorted() }
        var pager = try #require(Pager(layout: .map(map), start: try ClassicMap.cell("6")))
        #expect(pager.initialStep.plan.resident == (try cells("6", "7")))
        #expect(pager.initialStep.plan.load == (try cells("6", "7")))
        let left = pager.apply(.left)
        #expect(!left.moved && left.plan.isUnchanged)
        let right = pager.apply(.right)
        #expect(right.plan.resident == (try cells("6", "7")) && right.plan.isUnchanged)
        let down = pager.apply(.down)
        #expect(down.plan.resident == (try cells("7", "8")))
        #expect(down.plan.load == (try cells("8")))
        #expect(down.plan.evict == (try cells("6")))
        let up = pager.apply(.up)
        #expect(up.plan.resident == (try cells("5", "7", "8")))
        #expect(up.plan.load == (try cells("5")))
        // 4 has three neighbours; arriving from the left keeps 3 and 5 and leaves 6 out.
        var middle = try #require(Pager(layout: .map(map), start: try ClassicMap.cell("3")))
        #expect(middle.apply(.right).plan.resident == (try cells("3", "4", "5")))
        #expect(middle.layout.neighbours(of: middle.position) == (try cells("3", "5", "6")))
        #expect(middle.apply(.down).plan.resident == (try cells("4", "6")))
    }

    @Test("a pager starting on a map cell with only vertical neighbours plans vertically")
    func initialAxis() throws {
        let pager = try #require(Pager(layout: .map(try ClassicMap.map())))
        #expect(pager.position == Cell(column: 0, row: 0))
        #expect(pager.axis == .vertical)
        #expect(pager.resident == [Cell(column: 0, row: 0), Cell(column: 0, row: 1)])
    }

    @Test("next and prev on a map follow row-major page order and stop at the first and last page")
    func mapPageOrder() throws {
        let map = try ClassicMap.map()
        var pager = try #require(Pager(layout: .map(map)))
        var names: [String] = []
        for _ in 0..<9 { names.append(map.page(at: pager.apply(.next).position) ?? "?") }
        #expect(names == ["2", "3", "4", "5", "6", "7", "8", "8", "8"])
        #expect(!pager.apply(.next).moved)
        for _ in 0..<7 { _ = pager.apply(.prev) }
        #expect(map.page(at: pager.position) == "1")
        #expect(!pager.apply(.prev).moved)
    }

    @Test("a linear list stops at both ends without changing the resident set")
    func linearEnds() throws {
        var pager = try #require(Pager(layout: .linear(4)))
        #expect(pager.resident == Self.list([0, 1]))
        let before = pager.apply(.prev)
        #expect(!before.moved && before.plan.isUnchanged && before.position == Cell(column: 0, row: 0))
        #expect(!pager.apply(.left).moved && !pager.apply(.up).moved && !pager.apply(.down).moved)
        let steps = (0..<5).map { _ in pager.apply(.next) }
        #expect(steps.map(\.position.column) == [1, 2, 3, 3, 3])
        #expect(steps.map(\.moved) == [true, true, true, false, false])
        #expect(steps[0].plan.load == Self.list([2]) && steps[0].plan.evict == [])
        #expect(steps[1].plan.load == Self.list([3]) && steps[1].plan.evict == Self.list([0]))
        #expect(steps[2].plan.load == [] && steps[2].plan.evict == Self.list([1]))
        #expect(pager.resident == Self.list([2, 3]))
        #expect(!pager.apply(.right).moved)
        let one = try #require(Pager(layout: .linear(1)))
        #expect(one.resident == Self.list([0]))
    }

    @Test("circular lists of 1, 2, 3 and 10 pages wrap next and prev modulo n")
    func circularWrap() throws {
        for n in [1, 2, 3, 10] {
            var pager = try #require(Pager(layout: .circular(n), start: Cell(column: n - 1, row: 0)))
            let next = pager.apply(.next)
            #expect(next.position.column == (n == 1 ? 0 : 0), "n = \(n)")
            #expect(next.moved == (n > 1), "n = \(n)")
            #expect(next.targetSlot.column == (n == 1 ? 0 : n), "n = \(n): next from n-1 arrives in slot n")
            let prev = pager.apply(.prev)
            #expect(prev.position.column == (n == 1 ? 0 : n - 1), "n = \(n)")
            #expect(prev.targetSlot.column == (n == 1 ? 0 : -1), "n = \(n): prev from 0 arrives in slot -1")
            var walker = try #require(Pager(layout: .circular(n)))
            var forward: [Int] = []
            for _ in 0..<(2 * n + 1) { forward.append(walker.apply(.next).position.column) }
            #expect(forward == (1...(2 * n + 1)).map { $0 % n }, "n = \(n)")
            var backward: [Int] = []
            for _ in 0..<(2 * n + 1) { backward.append(walker.apply(.prev).position.column) }
            #expect(backward == (0...(2 * n)).reversed().map { $0 % n }, "n = \(n)")
        }
    }

    @Test("circular resident sets are the current page and its neighbours modulo n, deduplicated below three")
    func circularResident() throws {
        #expect(try #require(Pager(layout: .circular(1))).resident == Self.list([0]))
        #expect(try #require(Pager(layout: .circular(2))).resident == Self.list([0, 1]))
        #expect(try #require(Pager(layout: .circular(3))).resident == Self.list([0, 1, 2]))
        var ten = try #require(Pager(layout: .circular(10)))
        #expect(ten.resident == Self.list([0, 1, 9]))
        let back = ten.apply(.prev)
        #expect(back.plan.resident == Self.list([0, 8, 9]))
        #expect(back.plan.load == Self.list([8]) && back.plan.evict == Self.list([1]))
        var three = try #require(Pager(layout: .circular(3)))
        #expect(three.apply(.next).plan.isUnchanged)
    }

    @Test("a huge list pages in constant time: only the three resident pages are ever listed")
    func hugeList() throws {
        let n = 50_000_000
        var pager = try #require(Pager(layout: .circular(n)))
        #expect(pager.apply(.prev).plan.resident == Self.list([0, n - 2, n - 1]))
        var linear = try #require(Pager(layout: .linear(n), start: Cell(column: n - 1, row: 0)))
        #expect(!linear.apply(.next).moved && linear.apply(.prev).plan.resident == Self.list([n - 3, n - 2, n - 1]))
    }

    @Test("a pager needs a page to start on")
    func invalidStarts() throws {
        #expect(Pager(layout: .linear(0)) == nil)
        #expect(Pager(layout: .circular(-3)) == nil)
        #expect(Pager(layout: .linear(3), start: Cell(column: 3, row: 0)) == nil)
        #expect(Pager(layout: .map(try ClassicMap.map()), start: Cell(column: 1, row: 0)) == nil)
    }

    @Test("jumping to a page plans along the axis the jump travelled and refuses holes")
    func jumps() throws {
        let map = try ClassicMap.map()
        var pager = try #require(Pager(layout: .map(map), start: try ClassicMap.cell("4")))
        let hole = pager.move(to: Cell(column: 0, row: 2))
        #expect(!hole.moved && hole.plan.isUnchanged)
        let down = pager.move(to: try ClassicMap.cell("6"))
        #expect(down.moved && down.axis == .vertical)
        let oriented = pager.orient(.horizontal)
        let six = try ClassicMap.cell("6")
        let seven = try ClassicMap.cell("7")
        let four = try ClassicMap.cell("4")
        #expect(!oriented.moved && oriented.plan.resident == [six, seven])
        #expect(oriented.plan.evict == [four])
        var ring = try #require(Pager(layout: .circular(5)))
        #expect(ring.move(to: Cell(column: 4, row: 0)).targetSlot.column == -1)
        #expect(ring.move(to: Cell(column: 1, row: 0)).targetSlot.column == 6)
    }
}
