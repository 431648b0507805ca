import Testing
import TileViewCore
import TileViewTestSupport

@testable import TileViewFeed

/// The laws of section frames and content offsets, over thousands of random feeds, viewports and offsets.
@Suite("Section frames")
struct FrameLawTests {
    @Test("no frame is taller than the viewport or leaves it, and every frame is the full viewport width")
    func framesStayInside() {
        sweepFeedOffsets("every frame lies inside (0, 0) w x h", seed: 0xFEED_0101, cases: 3000, offsets: 6) {
            feed, layout, y in
            let viewport = PixelRect(size: layout.viewportSize)
            for f in layout.frames(atContainerOffset: y) {
                if f.frame.height > viewport.height || f.frame.height < 0 || !viewport.contains(f.frame)
                    || f.frame.x != 0 || f.frame.width != viewport.width
                {
                    return "offset \(y): \(f) leaves the viewport \(viewport); \(feed)"
                }
            }
            return nil
        }
    }

    @Test("visible frames never overlap, follow feed order, and their heights add up to min(h, contentHeight)")
    func visibleFramesTile() {
        sweepFeedOffsets(
            "visible frames tile the top of the viewport without overlap", seed: 0xFEED_0102, cases: 3000, offsets: 6
        ) { feed, layout, y in
            let h = layout.viewportSize.height
            let visible = layout.frames(atContainerOffset: y).filter(\.isVisible)
            var nextY = 0
            for f in visible {
                if f.frame.y != nextY {
                    return "offset \(y): \(f) starts at \(f.frame.y), expected \(nextY); \(feed)"
                }
                nextY = f.frame.maxY
            }
            if nextY > h { return "offset \(y): heights add up to \(nextY) > h \(h); \(feed)" }
            if nextY != min(h, layout.contentHeight) {
                return "offset \(y): heights add up to \(nextY), expected \(min(h, layout.contentHeight)); \(feed)"
            }
            if visible.map(\.index) != layout.visibleSections(atContainerOffset: y) {
                return "offset \(y): visible frames \(visible.map(\.index)) but visible sections "
                    + "\(layout.visibleSections(atContainerOffset: y)); \(feed)"
            }
            return nil
        }
    }

    @Test("each frame is the intersection of the section with the viewport, moved into viewport space")
    func frameIsIntersection() {
        sweepFeedOffsets(
            "frame = section rect ∩ viewport rect, in viewport space", seed: 0xFEED_0103, cases: 3000, offsets: 6
        ) { feed, layout, y in
            let w = layout.viewportSize.width
            let h = layout.viewportSize.height
            let offset = layout.clampedContainerOffset(y)
            let viewportInContainer = PixelRect(x: 0, y: offset, width: w, height: h)
            for f in layout.frames(atContainerOffset: y) {
                let section = PixelRect(
                    x: 0, y: layout.sectionTops[f.index], width: w, height: layout.sectionHeights[f.index])
                let expected = section.intersection(viewportInContainer)
                if let expected {
                    if f.frame != PixelRect(x: 0, y: expected.y - offset, width: w, height: expected.height) {
                        return "offset \(y): \(f), expected the visible part \(expected); \(feed)"
                    }
                } else if f.frame.height != 0 {
                    return "offset \(y): \(f) is off screen but has height; \(feed)"
                }
            }
            return nil
        }
    }

    @Test("a section above the top has contentOffset = y - top and a frame pinned at the top")
    func sectionAboveTheTop() {
        sweepFeedOffsets("above the top: contentOffset y - top, frame y 0", seed: 0xFEED_0104, cases: 3000, offsets: 6)
        { feed, layout, y in
            let offset = layout.clampedContainerOffset(y)
            for f in layout.frames(atContainerOffset: y) where layout.sectionTops[f.index] < offset {
                let top = layout.sectionTops[f.index]
                if f.contentOffset != offset - top || f.frame.y != 0 {
                    return "offset \(y) (clamped \(offset)): section top \(top) gave \(f); \(feed)"
                }
                let fullyAbove = top + layout.sectionHeights[f.index] <= offset
                if fullyAbove && f.frame.height != 0 { return "offset \(y): \(f) is above but visible; \(feed)" }
            }
            return nil
        }
    }

    @Test("a section whose top is in or below the viewport has contentOffset 0; below it, frame y h and height 0")
    func sectionBelowTheTop() {
        sweepFeedOffsets(
            "top at or below y: contentOffset 0; below the viewport: y h, height 0", seed: 0xFEED_0105, cases: 3000,
            offsets: 6
        ) { feed, layout, y in
            let h = layout.viewportSize.height
            let offset = layout.clampedContainerOffset(y)
            for f in layout.frames(atContainerOffset: y) where layout.sectionTops[f.index] >= offset {
                let top = layout.sectionTops[f.index]
                if f.contentOffset != 0 { return "offset \(y): section top \(top) gave \(f); \(feed)" }
                if top >= offset + h && (f.frame.y != h || f.frame.height != 0) {
                    return "offset \(y): section top \(top) below the viewport gave \(f); \(feed)"
                }
                if top < offset + h && f.frame.y != top - offset {
                    return "offset \(y): section top \(top) gave \(f), expected y \(top - offset); \(feed)"
                }
            }
            return nil
        }
    }

    @Test("an offset beyond either end shows the same frames as the end it is clamped to")
    func offsetsBeyondTheEnds() {
        sweepFeeds("frames(y) = frames(clamp(y))", seed: 0xFEED_0106, cases: 2000) { feed, layout, rng in
            let beyond = [
                -1, -rng.int(1...100_000), Int.min, layout.maximumContainerOffset + rng.int(1...100_000), Int.max,
            ]
            for y in beyond
            where layout.frames(atContainerOffset: y)
                != layout.frames(atContainerOffset: layout.clampedContainerOffset(y))
            {
                return "offset \(y) differs from its clamped offset; \(feed)"
            }
            return nil
        }
    }

    @Test("the worked example: header 100, a 3-column grid of 10 and a 4:3 photo at 300x400, offset 150")
    func workedExample() {
        // Header [0, 100); grid: cells 100 px, 4 rows, [100, 500); photo 300x225, [500, 725). Content 725.
        let layout = FeedLayout(
            sections: [
                .header(height: 100, colour: .black), .grid(itemCount: 10, columns: 3),
                .image(pixelSize: PixelSize(width: 4000, height: 3000)),
            ],
            viewportSize: PixelSize(width: 300, height: 400))
        #expect(layout.sectionTops == [0, 100, 500])
        #expect(layout.sectionHeights == [100, 400, 225])
        #expect(layout.contentHeight == 725)
        #expect(layout.maximumContainerOffset == 325)
        let frames = layout.frames(atContainerOffset: 150)
        #expect(
            frames == [
                SectionFrame(index: 0, frame: PixelRect(x: 0, y: 0, width: 300, height: 0), contentOffset: 150),
                SectionFrame(index: 1, frame: PixelRect(x: 0, y: 0, width: 300, height: 350), contentOffset: 50),
                SectionFrame(index: 2, frame: PixelRect(x: 0, y: 350, width: 300, height: 50), contentOffset: 0),
            ])
        // Grid rows 0-3 span container [100, 200), [200, 300), [300, 400), [400, 500): the viewport [150, 550)
        // touches all of them, ten cells; the last row holds item 9 alone.
        let cells = layout.visibleCells(atContainerOffset: 150)
        #expect(cells.map(\.item) == Array(0..<10))
        #expect(cells.first?.viewportRect == PixelRect(x: 0, y: -50, width: 100, height: 100))
        #expect(cells.last?.viewportRect == PixelRect(x: 0, y: 250, width: 100, height: 100))
        // Far past the end: clamped to 325.
        let end = layout.frames(atContainerOffset: 10_000)
        #expect(end.map(\.frame.y) == [0, 0, 175])
        #expect(end.map(\.frame.height) == [0, 175, 225])
        #expect(end.map(\.contentOffset) == [325, 225, 0])
    }
}
