import Testing
import TileViewCore
import TileViewPaging
import TileViewTestSupport

@Suite("Transitions")
struct TransitionPlanTests {
    typealias Cell = PageMap.Cell

    @Test("the easing is smoothstep: 0 at 0, 1 at 1, symmetric and strictly increasing")
    func easing() {
        #expect(TransitionPlan.eased(0) == 0 && TransitionPlan.eased(1) == 1 && TransitionPlan.eased(0.5) == 0.5)
        #expect(TransitionPlan.eased(0.25) == 0.15625)
        #expect(TransitionPlan.eased(-1) == 0 && TransitionPlan.eased(2) == 1)
        var previous = 0.0
        for k in 1...1000 {
            let t = Double(k) / 1000
            let e = TransitionPlan.eased(t)
            #expect(e > previous, "t \(t)")
            #expect(abs(e + TransitionPlan.eased(1 - t) - 1) < 1e-12, "t \(t)")
            previous = e
        }
    }

    @Test("N frames between two pages: known offsets for three frames")
    func threeFrames() {
        let plan = TransitionPlan(from: Point(x: 400, y: 0), to: Point(x: 800, y: 0), frames: 3)
        #expect(plan.fractions == [0.15625, 0.5, 0.84375])
        #expect(plan.offsets == [Point(x: 462.5, y: 0), Point(x: 600, y: 0), Point(x: 737.5, y: 0)])
        #expect(TransitionPlan(from: .zero, to: Point(x: 1, y: 0), frames: 0).offsets.isEmpty)
        #expect(TransitionPlan(from: .zero, to: Point(x: 1, y: 0), frames: -4).offsets.isEmpty)
        #expect(TransitionPlan(from: .zero, to: .zero, frames: 5).offsets.isEmpty)
    }

    @Test("a gap wider than twice the peek keeps the frames G/2 - P away from both pages")
    func gapMargin() throws {
        let peek = PeekLayout(viewportSize: Size(width: 400, height: 300), peek: 2, gap: 24)
        var pager = try #require(Pager(layout: .linear(2)))
        let plan = TransitionPlan(step: pager.apply(.next), peek: peek, frames: 50)
        #expect(plan.from == .zero && plan.to == Point(x: 396, y: 0))
        #expect(plan.offsets.allSatisfy { $0.x > 10 && $0.x < 386 })
        let first = peek.visiblePages(atContentOffset: plan.offsets[0], in: .linear(2))
        #expect(first.map(\.position.column) == [0, 1])
        let plain = TransitionPlan(from: .zero, to: Point(x: 396, y: 0), frames: 50)
        #expect(peek.visiblePages(atContentOffset: plain.offsets[0], in: .linear(2)).count == 1)
    }

    @Test("a circular wrap slides one page on in the direction of the move, both ways")
    func circularWrap() throws {
        let size = Size(width: 300, height: 500)
        for n in [2, 3, 10] {
            var pager = try #require(Pager(layout: .circular(n), start: Cell(column: n - 1, row: 0)))
            let next = TransitionPlan(step: pager.apply(.next), pageSize: size, frames: 4)
            #expect(next.from == Point(x: Double(n - 1) * 300, y: 0) && next.to == Point(x: Double(n) * 300, y: 0))
            let prev = TransitionPlan(step: pager.apply(.prev), pageSize: size, frames: 4)
            #expect(prev.from == Point(x: 0, y: 0) && prev.to == Point(x: -300, y: 0), "n \(n)")
        }
        var one = try #require(Pager(layout: .circular(1)))
        #expect(TransitionPlan(step: one.apply(.next), pageSize: size, frames: 4).offsets.isEmpty)
    }

    @Test("every transition frame lies strictly between the two pages, is monotone, and shows parts of both")
    func transitionLaws() throws {
        var checked = 0
        try forEachCase(seed: 0x5EED_0401, cases: 1500) { seed, rng in
            let layout = RandomLayouts.layout(&rng)
            var pager = RandomLayouts.pager(layout, &rng)
            let viewport = RandomLayouts.pageSize(&rng)
            let frames = Int.random(in: 1...30, using: &rng)
            for _ in 0..<6 {
                let move = RandomLayouts.move(&rng)
                let step = pager.apply(move)
                let axis = step.axis
                let length = axis == .horizontal ? viewport.width : viewport.height
                let peek = PeekLayout(
                    viewportSize: viewport, peek: Double.random(in: 0...0.25, using: &rng) * length,
                    gap: Double.random(in: 0...12, using: &rng), axis: axis)
                let plan = TransitionPlan(step: step, peek: peek, frames: frames)
                let context = { "seed \(seed) \(step) in \(layout) frames \(frames)" }
                guard step.moved else {
                    try #require(plan.offsets.isEmpty, "\(context()): frames for a step that stays")
                    continue
                }
                try #require(plan.offsets.count == frames, "\(context()): \(plan.offsets.count) frames")
                let adjacent =
                    abs(step.targetSlot.column - step.from.column) + abs(step.targetSlot.row - step.from.row) == 1
                var previous = plan.from
                for offset in plan.offsets {
                    for (a, p, b) in [(plan.from.x, offset.x, plan.to.x), (plan.from.y, offset.y, plan.to.y)] {
                        try #require(a == b ? p == a : (min(a, b) < p && p < max(a, b)), "\(context()): \(offset)")
                    }
                    let ahead =
                        (offset.x - previous.x) * (plan.to.x - plan.from.x)
                        + (offset.y - previous.y) * (plan.to.y - plan.from.y)
                    try #require(ahead > 0, "\(context()): not monotone at \(offset)")
                    previous = offset
                    guard adjacent else { continue }
                    let shown = peek.visiblePages(atContentOffset: offset, in: layout).map(\.slot)
                    try #require(
                        shown.contains(step.from) && shown.contains(step.targetSlot),
                        "\(context()): frame at \(offset) shows \(shown)")
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000, "only \(checked) frames checked")
    }
}
