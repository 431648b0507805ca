import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// Section heights, tops and the content height, and the valid container offsets.
@Suite("Layout geometry")
struct LayoutGeometryTests {
    @Test(
        "an image is laid out at the viewport width with height round(w * H / W), halves rounded up",
        arguments: [
            (PixelSize(width: 6000, height: 4000), 1024, 683),  // 682.67
            (PixelSize(width: 4000, height: 3000), 390, 293),  // 292.5: the half goes up
            (PixelSize(width: 3, height: 1), 1000, 333),  // 333.33
            (PixelSize(width: 3, height: 2), 1000, 667),  // 666.67
            (PixelSize(width: 1000, height: 1), 100, 0),  // 0.1: nothing left to show
            (PixelSize(width: 1000, height: 5), 100, 1),  // 0.5: up to 1
            (PixelSize(width: 7, height: 3001), 1, 429),  // 428.71
            (PixelSize(width: 1024, height: 768), 1024, 768),
        ])
    func imageHeight(size: PixelSize, width: Int, expected: Int) {
        #expect(FeedSection.image(pixelSize: size).height(atViewportWidth: width) == expected)
    }

    @Test("every section's height matches its definition, the sections follow each other and add up")
    func heightsAndTops() {
        sweepFeeds(
            "heights follow the definitions; tops are running sums; content height is the total", seed: 0xFEED_0001,
            cases: 3000
        ) { feed, layout, rng in
            var top = 0
            for (index, section) in feed.sections.enumerated() {
                let expected = definedHeight(of: section, atViewportWidth: layout.viewportSize.width)
                if layout.sectionHeights[index] != expected {
                    return "section \(index) height \(layout.sectionHeights[index]), defined \(expected); \(feed)"
                }
                if layout.sectionTops[index] != top {
                    return "section \(index) top \(layout.sectionTops[index]); \(feed)"
                }
                top += expected
            }
            if layout.contentHeight != top { return "content height \(layout.contentHeight), sum \(top); \(feed)" }
            if layout.maximumContainerOffset != max(0, top - layout.viewportSize.height) {
                return "maximum offset \(layout.maximumContainerOffset); \(feed)"
            }
            return nil
        }
    }

    @Test("a clamped offset lies in [0, max(0, contentHeight - h)] and valid offsets are kept")
    func offsetClamping() {
        sweepFeedOffsets(
            "clamping lands in the valid range and keeps valid offsets", seed: 0xFEED_0002, cases: 2000, offsets: 8
        ) { feed, layout, y in
            let clamped = layout.clampedContainerOffset(y)
            guard layout.containerOffsetRange.contains(clamped) else {
                return "\(y) clamped to \(clamped); \(feed)"
            }
            if layout.containerOffsetRange.contains(y) && clamped != y { return "valid \(y) moved; \(feed)" }
            if y < 0 && clamped != 0 { return "\(y) above the top clamped to \(clamped); \(feed)" }
            if y > layout.maximumContainerOffset && clamped != layout.maximumContainerOffset {
                return "\(y) past the end clamped to \(clamped); \(feed)"
            }
            return nil
        }
    }

    @Test("degenerate input is clamped: tiny viewports, negative sizes, zero and excess columns")
    func degenerateInput() {
        let layout = FeedLayout(
            sections: [
                .header(height: -5, colour: .black), .grid(itemCount: -3, columns: 4), .grid(itemCount: 10, columns: 0),
                .grid(itemCount: 10, columns: 50), .image(pixelSize: PixelSize(width: 0, height: -7)),
            ],
            viewportSize: PixelSize(width: 0, height: -100))
        #expect(layout.viewportSize == PixelSize(width: 1, height: 1))
        #expect(layout.sectionHeights == [0, 0, 10, 10, 1])
        #expect(layout.gridGeometries[2]?.columns == 1)
        #expect(layout.gridGeometries[3]?.columns == 1)
        #expect(layout.contentHeight == 21)
        let huge = FeedLayout(
            sections: [
                .image(pixelSize: PixelSize(width: 1, height: Int.max)), .header(height: Int.max, colour: .black),
            ],
            viewportSize: PixelSize(width: Int.max, height: Int.max))
        #expect(huge.viewportSize.width == FeedLayout.largestViewportLength)
        #expect(huge.sectionHeights == [FeedLayout.largestSectionHeight, FeedLayout.largestSectionHeight])
        #expect(huge.frames(atContainerOffset: Int.max).map(\.frame.height).reduce(0, +) == huge.viewportSize.height)
    }

    @Test("grid cells tile the viewport width exactly and are square to within a pixel")
    func gridGeometry() {
        sweep(
            "columns tile [0, w); cells are floor or ceil of w/C on each side; height is the sum of rows",
            seed: 0xFEED_0003, cases: 3000
        ) { rng in
            let w = rng.chance(0.2) ? rng.int(1...12) : rng.int(13...2000)
            let grid = FeedGridGeometry(itemCount: rng.int(0...900), columns: rng.int(1...12), viewportWidth: w)
            let c = grid.columns
            let low = w / c
            let high = (w + c - 1) / c
            var x = 0
            for column in 0..<c {
                if grid.columnX(column) != x { return "column \(column) at \(grid.columnX(column)), expected \(x)" }
                let width = grid.columnWidth(column)
                if width != low && width != high { return "column \(column) width \(width) for w \(w) C \(c)" }
                x += width
            }
            if x != w { return "columns cover \(x) of \(w)" }
            if grid.rows != (grid.itemCount + c - 1) / c { return "rows \(grid.rows) for \(grid.itemCount) items" }
            var y = 0
            for row in 0..<grid.rows {
                if grid.rowY(row) != y { return "row \(row) at \(grid.rowY(row)), expected \(y)" }
                let height = grid.rowHeight(row)
                if height != low && height != high { return "row \(row) height \(height) for w \(w) C \(c)" }
                for localY in [y, y + height - 1] where grid.row(atGridY: localY) != row {
                    return "grid y \(localY) maps to row \(grid.row(atGridY: localY)), expected \(row)"
                }
                y += height
            }
            return y == grid.height ? nil : "rows add up to \(y), height \(grid.height)"
        }
    }
}
