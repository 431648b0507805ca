import Testing
import TileViewPaging
import TileViewTestSupport

/// Seeded sweeps over random layouts and move sequences; each failure names the seed of its case.
@Suite("Pager laws")
struct PagerLawTests {
    typealias Cell = PageMap.Cell

    /// Where `move` should go from `from`, worked out without `PageLayout.position(after:from:)`.
    static func expectedTarget(_ layout: PageLayout, _ move: PageMove, from: Cell) -> Cell {
        switch layout {
        case .linear(let n):
            guard move.axis == .horizontal else { return from }
            let column = from.column + move.step
            return column >= 0 && column < n ? Cell(column: column, row: 0) : from
        case .circular(let n):
            guard move.axis == .horizontal else { return from }
            return Cell(column: ((from.column + move.step) % n + n) % n, row: 0)
        case .map(let map):
            if move == .next || move == .prev {
                let index = map.pageCells.firstIndex(of: from)! + move.step
                return index >= 0 && index < map.pageCells.count ? map.pageCells[index] : from
            }
            let cell = from.moved(by: move.step, along: move.axis)
            return map.page(at: cell) != nil ? cell : from
        }
    }

    /// Seeded walks: `cases` random layouts, each with a pager at a random start, given to `body` with the case's
    /// seed (for messages) and its generator.
    static func forEachWalk(
        seed: UInt64, cases: Int, _ body: (UInt64, PageLayout, inout Pager, inout SplitMix64) throws -> Void
    ) throws {
        try forEachCase(seed: seed, cases: cases) { seed, rng in
            let layout = RandomLayouts.layout(&rng)
            var pager = RandomLayouts.pager(layout, &rng)
            try body(seed, layout, &pager, &rng)
        }
    }

    /// Seeded walks of `moves` random moves each (see `forEachWalk`): `body` gets the case's seed, the layout, the
    /// pager before the move, the move's index in the walk and the move, and applies it.
    static func forEachRandomMove(
        seed: UInt64, cases: Int, moves: Int, _ body: (UInt64, PageLayout, inout Pager, Int, PageMove) throws -> Void
    ) throws {
        try forEachWalk(seed: seed, cases: cases) { seed, layout, pager, rng in
            for index in 0..<moves {
                try body(seed, layout, &pager, index, RandomLayouts.move(&rng))
            }
        }
    }

    @Test("never more than three resident, always within the neighbours, and the diff is exact")
    func residentLaws() throws {
        try Self.forEachWalk(seed: 0x5EED_0001, cases: 3000) { seed, layout, pager, rng in
            var resident = Set(pager.initialStep.plan.load)
            try #require(pager.initialStep.plan.evict.isEmpty, "seed \(seed)")
            for stepIndex in 0..<30 {
                let move = RandomLayouts.move(&rng)
                let step = pager.apply(move)
                let context = { "seed \(seed) step \(stepIndex) \(move) layout \(layout)" }
                let plan = step.plan
                try #require(plan.resident.count <= 3, "\(context()): \(plan.resident.count) resident")
                try #require(plan.resident.contains(step.position), "\(context()): current page not resident")
                let neighbours = Set(layout.neighbours(of: step.position) + [step.position])
                try #require(plan.resident.allSatisfy(neighbours.contains), "\(context()): \(plan) beyond neighbours")
                try #require(Set(plan.load).isDisjoint(with: resident), "\(context()): loads a resident page")
                try #require(Set(plan.evict).isSubset(of: resident), "\(context()): evicts a page not resident")
                resident = resident.subtracting(plan.evict).union(plan.load)
                try #require(resident == Set(plan.resident), "\(context()): diff does not give the resident set")
                try #require(pager.resident == plan.resident, "\(context()): pager and plan disagree")
                if !step.moved { try #require(plan.isUnchanged, "\(context()): a step that stays changes pages") }
            }
        }
    }

    @Test("goto N lands on the Nth page (or stays when there is none) and loads only pages beside where it lands")
    func gotoLaws() throws {
        try Self.forEachWalk(seed: 0x5EED_0006, cases: 2000) { seed, layout, pager, rng in
            for _ in 0..<10 {
                let number = Int.random(in: 1...(layout.count + 1), using: &rng)
                let from = pager.position
                let before = Set(pager.resident)
                let step = pager.apply(.goto(number))
                let context = "seed \(seed) goto \(number) from \(from) layout \(layout)"
                let expected = layout.position(ofPage: number - 1) ?? from
                try #require(step.position == expected, "\(context): landed on \(step.position)")
                try #require(step.move == .goto(number), "\(context): the step does not record its move")
                let around = Set(layout.neighbours(of: expected) + [expected])
                try #require(
                    step.plan.resident.count <= 3 && step.plan.resident.allSatisfy(around.contains), "\(context)")
                try #require(step.plan.load.allSatisfy(around.contains), "\(context): loads a page it passed over")
                try #require(Set(step.plan.evict) == before.subtracting(step.plan.resident), "\(context): evictions")
            }
        }
    }

    @Test("no move into a hole: every move lands where the grid says, or stays")
    func movesFollowTheGrid() throws {
        try Self.forEachRandomMove(seed: 0x5EED_0002, cases: 3000, moves: 30) { seed, layout, pager, stepIndex, move in
            let from = pager.position
            let step = pager.apply(move)
            let expected = Self.expectedTarget(layout, move, from: from)
            let context = { "seed \(seed) step \(stepIndex): \(move) from \(from) in \(layout)" }
            try #require(step.position == expected, "\(context()): went to \(step.position), expected \(expected)")
            try #require(layout.holdsPage(step.position), "\(context()): landed on \(step.position), no page")
            try #require(step.from == from && step.moved == (expected != from), "\(context())")
        }
    }

    @Test("a move that moves is undone by its reverse")
    func reverseUndoes() throws {
        try Self.forEachRandomMove(seed: 0x5EED_0003, cases: 2000, moves: 20) { seed, _, pager, _, move in
            let from = pager.position
            guard pager.apply(move).moved else { return }
            let reverse = try #require(move.reversed)
            let back = pager.apply(reverse)
            try #require(back.position == from, "seed \(seed): \(move) then \(reverse) from \(from)")
        }
    }

    @Test("circular wrap is consistent in both directions: k nexts land on i + k, k prevs on i - k, modulo n")
    func circularConsistency() throws {
        try forEachCase(seed: 0x5EED_0004, cases: 2000) { seed, rng in
            let n = Int.random(in: 1...12, using: &rng)
            let start = Int.random(in: 0..<n, using: &rng)
            let k = Int.random(in: 0...40, using: &rng)
            var pager = try #require(Pager(layout: .circular(n), start: Cell(column: start, row: 0)))
            let forward = pager
            for _ in 0..<k { _ = pager.apply(Bool.random(using: &rng) ? .next : .right) }
            let context = { "seed \(seed): n \(n) start \(start) k \(k)" }
            try #require(pager.position.column == (start + k) % n, "\(context()) forward")
            for _ in 0..<k { _ = pager.apply(Bool.random(using: &rng) ? .prev : .left) }
            try #require(pager == forward, "\(context()): back to the start with the same resident set")
            for _ in 0..<k { _ = pager.apply(.prev) }
            try #require(pager.position.column == ((start - k) % n + n) % n, "\(context()) backward")
            let expected = Set(
                [start - k - 1, start - k, start - k + 1].map { Cell(column: (($0 % n) + n) % n, row: 0) })
            try #require(Set(pager.resident) == expected, "\(context()): resident \(pager.resident)")
        }
    }

    @Test("a circular step's target slot is one page beside the old one in the direction of the move")
    func circularTargetSlots() throws {
        try forEachCase(seed: 0x5EED_0005, cases: 1000) { seed, rng in
            let n = Int.random(in: 2...12, using: &rng)
            var pager = RandomLayouts.pager(.circular(n), &rng)
            for _ in 0..<20 {
                let move = RandomLayouts.move(&rng)
                let step = pager.apply(move)
                guard step.moved else { continue }
                try #require(step.targetSlot.column == step.from.column + move.step, "seed \(seed): \(step)")
                try #require(((step.targetSlot.column % n) + n) % n == step.position.column, "seed \(seed)")
            }
        }
    }
}
