import Foundation
import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// The frames of a header, a 300-cell grid and a photo at several offsets, against golden PNGs.
@Suite("Feed golden frames")
struct FeedGoldenFrameTests {
    /// `header:60:1E90FF grid:FOLDER:4 image:rocket.jpg` in 200x300: header [0, 60), 75 rows of 50 px
    /// [60, 3810), the 640x427 photo at 200 px wide, 133 rows [3810, 3943); offsets up to 3643.
    static let viewport = PixelSize(width: 200, height: 300)
    static let tops = [0, 60, 3810]
    static let heights = [60, 3750, 133]
    /// Top; the header half gone; mid-grid; past the end (shown at 3643); back up to 1000.
    static let offsets = [0, 30, 1800, 3700, 1000]

    static var specs: [FeedSectionSpec] {
        get throws {
            try [
                FeedSectionSpec(parsing: "header:60:1E90FF"),
                FeedSectionSpec(parsing: "grid:\(FeedTestFolder.url.path):4"),
                FeedSectionSpec(parsing: "image:" + Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path),
            ]
        }
    }

    /// What is compared besides the pixels: the layout record and the decoded bytes held after each frame.
    struct Record: Codable, Equatable {
        var layout: FeedFrameRecord
        var residentBytes: Int
    }

    @Test("frames at 0, 30, 1800, 3700 (past the end) and back at 1000 match Tests/Goldens/feed-frames exactly")
    func goldenFrames() throws {
        let renderer = try FeedRenderer(specs: Self.specs, viewportSize: Self.viewport)
        #expect(renderer.layout.sectionTops == Self.tops)
        #expect(renderer.layout.sectionHeights == Self.heights)
        var scroller = FeedScroller(layout: renderer.layout, offsets: Self.offsets)
        var records: [Record] = []
        while let step = scroller.next() {
            let frame = try renderer.render(step)
            #expect(frame.size == Self.viewport)
            try Golden.assertImage(frame, "feed-frames/\(FrameWriter.frameName(step.step))") {
                Data(try PNGEncoder.encode(frame, options: PNGEncodeOptions(compression: .level(9))))
            }
            records.append(Record(layout: step.record, residentBytes: renderer.residentBytes))
        }
        try Golden.assertJSON(records, "feed-frames/records.json")
    }

    @Test("each frame's record follows the layout laws: pinned above, height 0 off screen, content offset y - top")
    func recordLaws() throws {
        let renderer = try FeedRenderer(specs: Self.specs, viewportSize: Self.viewport)
        let h = Self.viewport.height
        let maxOffset = Self.tops[2] + Self.heights[2] - h
        var scroller = FeedScroller(layout: renderer.layout, offsets: Self.offsets)
        while let step = scroller.next() {
            let record = step.record
            let y = min(max(step.requestedOffset, 0), maxOffset)
            #expect(record.offset == y)
            var covered = 0
            for (index, section) in record.sections.enumerated() {
                let top = Self.tops[index]
                let bottom = top + Self.heights[index]
                let visible = max(0, min(bottom, y + h) - max(top, y))
                #expect(section.index == index)
                #expect(section.frame.height == visible, "offset \(y) section \(index): the visible rows")
                #expect(section.frame.width == Self.viewport.width && section.frame.x == 0)
                #expect(section.frame.y == min(max(top - y, 0), h), "offset \(y) section \(index): pinned at the top")
                #expect(
                    section.contentOffset == max(0, y - top), "offset \(y) section \(index): container offset - top")
                if visible > 0 {
                    #expect(section.frame.y == covered, "visible frames tile the viewport in feed order")
                    covered += visible
                }
            }
            #expect(covered == h)
            // Two screens of 50-pixel rows meet at most 13 rows of 4 cells.
            #expect(record.residentCells <= 52)
            #expect(
                record.residentCells
                    == renderer.layout.residentCells(
                        atContainerOffset: step.requestedOffset, scrollDirection: step.scrollDirection
                    ).count)
            _ = try renderer.render(step)
            #expect(renderer.cells.count == record.residentCells, "the thumbnails held are the record's resident cells")
        }
    }
}
