import Foundation
import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// The layout of a header, a 300-cell grid and a photo, scrolled from top to past the end, against a golden JSON.
@Suite("Feed golden")
struct FeedGoldenTests {
    /// `header:120:1E90FF grid:DIR:4` (300 images) `image:PHOTO` (6000x4000) in a 400x800 viewport: header
    /// [0, 120), grid of 75 rows of 100 px [120, 7620), photo 400x267 [7620, 7887).
    static let layout = FeedLayout(
        sections: [
            .header(height: 120, colour: RGBA8(r: 0x1E, g: 0x90, b: 0xFF)), .grid(itemCount: 300, columns: 4),
            .image(pixelSize: PixelSize(width: 6000, height: 4000)),
        ],
        viewportSize: PixelSize(width: 400, height: 800))

    /// The golden's shape: the `frames` records of `tileview feed --json` and the layout part of its `summary`.
    struct Golden: Codable, Equatable {
        struct Summary: Codable, Equatable {
            var contentHeight: Int
            var maxResidentCells: Int
        }

        var frames: [FeedFrameRecord]
        var summary: Summary
    }

    /// Offsets 0, 800, ..., 8000 (the last past the end, shown at 7087), then back up by 3500: 4500, 1000.
    static var golden: Golden {
        let offsets = Array(OffsetRange(from: 0, to: 8000, step: 800)) + [4500, 1000]
        var scroller = FeedScroller(layout: layout, offsets: offsets)
        var frames: [FeedFrameRecord] = []
        while let step = scroller.next() { frames.append(step.record) }
        return Golden(
            frames: frames,
            summary: Golden.Summary(
                contentHeight: layout.contentHeight, maxResidentCells: scroller.pool.peakResidentCount))
    }

    @Test("the layout matches the hand computation: sections, content height, frames at 600")
    func handComputed() {
        let layout = Self.layout
        #expect(layout.sectionTops == [0, 120, 7620])
        #expect(layout.sectionHeights == [120, 7500, 267])
        #expect(layout.contentHeight == 7887)
        #expect(layout.maximumContainerOffset == 7087)
        let frames = layout.frames(atContainerOffset: 600)
        #expect(frames.map(\.frame.y) == [0, 0, 800])
        #expect(frames.map(\.frame.height) == [0, 800, 0])
        #expect(frames.map(\.contentOffset) == [600, 480, 0])
        // Viewport [600, 1400): grid rows 4 (420-520) to 12 (1320-1420): 9 rows, 36 cells; down adds 8 more rows.
        #expect(layout.visibleCells(atContainerOffset: 600).count == 36)
        #expect(layout.residentCells(atContainerOffset: 600, scrollDirection: .down).count == 68)
        #expect(layout.maxResidentCells == 68)
    }

    @Test("the frame records match the golden Tests/Goldens/feed/header-grid-photo.json")
    func matchesGolden() throws {
        let golden = Self.golden
        try TileViewTestSupport.Golden.checkJSON(golden, "feed/header-grid-photo.json") { stored in
            #expect(stored.summary == golden.summary)
            #expect(stored.frames.count == golden.frames.count)
            for (index, (expected, actual)) in zip(stored.frames, golden.frames).enumerated() {
                #expect(actual == expected, "frame \(index) at offset \(actual.offset)")
            }
        }
    }

    @Test(
        "a frame record has exactly the design's key names: offset, sections {index, frame, contentOffset}, residentCells"
    )
    func keyNames() throws {
        let data = try JSONEncoder().encode(Self.layout.record(atContainerOffset: 0, scrollDirection: .down))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["offset", "sections", "residentCells"])
        let sections = try #require(object["sections"] as? [[String: Any]])
        #expect(sections.count == 3)
        for section in sections {
            #expect(Set(section.keys) == ["index", "frame", "contentOffset"])
            let frame = try #require(section["frame"] as? [String: Any])
            #expect(Set(frame.keys) == ["x", "y", "width", "height"])
        }
    }
}
