import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// The reuse plan between two resident sets, and a pool scrolled through random feeds.
@Suite("Cell pool")
struct CellPoolTests {
    /// Checks one update against the sets it was made from; nil when every law holds.
    static func violation(of update: CellPoolUpdate, from previous: [CellRef], to next: [CellRef]) -> String? {
        let before = Set(previous.map(\.id))
        let after = Set(next.map(\.id))
        let entering = update.entering.map(\.id)
        let leaving = update.leaving.map(\.id)
        if update.resident != next { return "resident is not the new set" }
        if entering != next.map(\.id).filter({ !before.contains($0) }) {
            return "entering \(entering) is not new - old"
        }
        if leaving != previous.map(\.id).filter({ !after.contains($0) }) {
            return "leaving \(leaving) is not old - new"
        }
        if before.union(entering).subtracting(leaving) != after { return "old + entering - leaving is not new" }
        // Each reuse pairs a leaving and an entering cell of one size; no cell is used twice.
        let sizes = Dictionary(uniqueKeysWithValues: (update.entering + update.leaving).map { ($0.id, $0.pixelSize) })
        var givers = Set<CellID>()
        var takers = Set<CellID>()
        for reuse in update.reuses {
            guard leaving.contains(reuse.from), entering.contains(reuse.to), sizes[reuse.from] == sizes[reuse.to],
                givers.insert(reuse.from).inserted, takers.insert(reuse.to).inserted
            else { return "bad reuse \(reuse)" }
        }
        if Set(update.allocations.map(\.id)) != Set(entering).subtracting(takers)
            || update.allocations.count + update.reuses.count != entering.count
        {
            return "allocations \(update.allocations.map(\.id)) are not the entering cells without a buffer"
        }
        if Set(update.releases.map(\.id)) != Set(leaving).subtracting(givers)
            || update.releases.count + update.reuses.count != leaving.count
        {
            return "releases \(update.releases.map(\.id)) are not the leaving cells whose buffer nobody took"
        }
        // Greedy and maximal: no released buffer fits an allocation.
        let releasedSizes = Set(update.releases.map(\.pixelSize))
        if let missed = update.allocations.first(where: { releasedSizes.contains($0.pixelSize) }) {
            return "\(missed.id) allocates although a buffer of its size was released"
        }
        return nil
    }

    @Test("every move: entering = new - old, leaving = old - new, buffers reused only between cells of one size")
    func updateLaws() {
        sweepFeeds("the update is the exact diff and a valid reuse plan", seed: 0xFEED_0401, cases: 1500) {
            feed, layout, rng in
            let y0 = RandomFeed.offset(in: layout, &rng)
            let y1 =
                rng.chance(0.5)
                ? layout.clampedContainerOffset(y0) + rng.int(-layout.viewportSize.height...layout.viewportSize.height)
                : RandomFeed.offset(in: layout, &rng)
            let d0 = rng.pick(ResidencyLawTests.directions)
            let d1 = FeedScrollDirection(from: y0, to: y1)
            let previous = layout.residentCells(atContainerOffset: y0, scrollDirection: d0)
            let next = layout.residentCells(atContainerOffset: y1, scrollDirection: d1)
            let update = CellPoolUpdate(from: previous, to: next)
            return Self.violation(of: update, from: previous, to: next).map { "\(y0) -> \(y1): \($0); \(feed)" }
        }
    }

    @Test("scrolling a pool anywhere never holds more than maxResidentCells, and holds what the layout says")
    func poolStaysWithinTheBound() {
        sweepFeeds("pool resident = layout resident, count <= bound, peak = max count", seed: 0xFEED_0402, cases: 600) {
            feed, layout, rng in
            let bound = layout.maxResidentCells
            var pool = CellPool(layout: layout)
            var previousY = 0
            var most = 0
            for _ in 0..<12 {
                let y =
                    rng.chance(0.6)
                    ? layout.clampedContainerOffset(previousY)
                        + rng.int(-2 * layout.viewportSize.height...2 * layout.viewportSize.height)
                    : RandomFeed.offset(in: layout, &rng)
                let direction = FeedScrollDirection(from: previousY, to: y)
                let before = pool.resident
                let update = pool.scroll(toContainerOffset: y, scrollDirection: direction)
                let expected = layout.residentCells(atContainerOffset: y, scrollDirection: direction)
                if let problem = Self.violation(of: update, from: before, to: expected) {
                    return "\(previousY) -> \(y): \(problem); \(feed)"
                }
                if pool.resident != expected || pool.containerOffset != layout.clampedContainerOffset(y) {
                    return "\(previousY) -> \(y): pool holds \(pool.resident.count), layout says \(expected.count)"
                }
                if pool.resident.count > bound { return "\(y): \(pool.resident.count) > bound \(bound); \(feed)" }
                if pool.residentBytes != expected.reduce(0, { $0 + $1.pixelSize.pixelCount * 4 }) {
                    return "\(y): resident bytes \(pool.residentBytes); \(feed)"
                }
                most = max(most, pool.resident.count)
                previousY = y
            }
            return pool.peakResidentCount == most ? nil : "peak \(pool.peakResidentCount), most \(most); \(feed)"
        }
    }

    @Test("scrolling down a long grid by small steps reuses every buffer of the cells that leave")
    func steadyScrollReusesBuffers() {
        // 3 columns at width 300: every cell is 100x100, so each leaving buffer fits an entering cell.
        let layout = FeedLayout(
            sections: [.grid(itemCount: 3000, columns: 3)], viewportSize: PixelSize(width: 300, height: 500))
        var pool = CellPool(layout: layout)
        let first = pool.scroll(toContainerOffset: 0, scrollDirection: .down)
        #expect(first.entering.count == 30 && first.allocations.count == 30 && first.leaving.isEmpty)
        for y in stride(from: 100, through: 20_000, by: 100) {
            let update = pool.scroll(toContainerOffset: y, scrollDirection: .down)
            #expect(update.entering.count == 3 && update.leaving.count == 3, "offset \(y): \(update)")
            #expect(update.reuses.count == 3 && update.allocations.isEmpty && update.releases.isEmpty, "offset \(y)")
        }
        #expect(pool.peakResidentCount == 30)
        #expect(layout.maxResidentCells == 33)  // a window of 1000 rows starting mid-row touches 11 rows
    }
}
