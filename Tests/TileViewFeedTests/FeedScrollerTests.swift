import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// Walking a feed through a list of offsets: directions, clamping and agreement with the layout.
@Suite("Feed scroller")
struct FeedScrollerTests {
    static let layout = FeedLayout(
        sections: [.header(height: 50, colour: .black), .grid(itemCount: 100, columns: 5)],
        viewportSize: PixelSize(width: 500, height: 300))

    @Test("the first step looks towards the first change; later steps follow the last change of offset")
    func directions() {
        let offsets = [200, 200, 400, 400, 100, 100, 900]
        let steps = Array(FeedScroller(layout: Self.layout, offsets: offsets))
        #expect(steps.map(\.scrollDirection) == [.down, .down, .down, .down, .up, .up, .down])
        #expect(steps.map(\.step) == Array(0..<7))
        #expect(
            Array(FeedScroller(layout: Self.layout, offsets: [7, 7])).map(\.scrollDirection) == [
                .stationary, .stationary,
            ])
        #expect(Array(FeedScroller(layout: Self.layout, offsets: [500, 0])).map(\.scrollDirection) == [.up, .up])
        #expect(Array(FeedScroller(layout: Self.layout, offsets: [Int]())).isEmpty)
    }

    @Test("each step is what the layout says for its clamped offset and direction, and the pool follows")
    func stepsAgreeWithTheLayout() {
        sweepFeeds("steps agree with frames, residentCells and residentImageSections", seed: 0xFEED_0701, cases: 500) {
            feed, layout, rng in
            let offsets = (0..<rng.int(1...10)).map { _ in RandomFeed.offset(in: layout, &rng) }
            var scroller = FeedScroller(layout: layout, offsets: offsets)
            var previous: [CellRef] = []
            var most = 0
            while let step = scroller.next() {
                let y = step.requestedOffset
                let d = step.scrollDirection
                guard step.containerOffset == layout.clampedContainerOffset(y),
                    step.frames == layout.frames(atContainerOffset: y),
                    step.cells
                        == CellPoolUpdate(
                            from: previous, to: layout.residentCells(atContainerOffset: y, scrollDirection: d)),
                    step.residentImageSections
                        == layout.residentImageSections(atContainerOffset: y, scrollDirection: d),
                    step.record == layout.record(atContainerOffset: y, scrollDirection: d),
                    step.visibleCells(in: layout.viewportSize).map(\.id)
                        == layout.visibleCells(atContainerOffset: y).map(\.id)
                else { return "step \(step.step) at \(y) \(d) disagrees with the layout; \(feed)" }
                previous = step.cells.resident
                most = max(most, previous.count)
            }
            return scroller.pool.peakResidentCount == most ? nil : "peak \(scroller.pool.peakResidentCount) != \(most)"
        }
    }
}
