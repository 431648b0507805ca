import Testing
import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewTestSupport
import TileViewZoom

@Suite("Gallery planner")
struct GalleryPlannerTests {
    typealias Cell = PageMap.Cell

    static func cell(_ column: Int, _ row: Int = 0) -> Cell { Cell(column: column, row: row) }

    static func plan(
        _ layout: PageLayout, _ script: String, start: Cell? = nil,
        viewport: PixelSize = PixelSize(width: 240, height: 160),
        peek: Int = 0, gap: Int = 0, transitions: Int = 0, sizes: FakePageSizes = FakePageSizes()
    ) throws -> [GalleryFramePlan] {
        try GalleryPlanner.plan(
            layout: layout, start: start,
            settings: GallerySettings(viewport: viewport, peek: peek, gap: gap, transitionFrames: transitions),
            // A list of words is a move list; anything with a space or a line break is a script.
            script: script.contains(" ") || script.contains("\n")
                ? try GalleryScript(parsing: script) : GalleryScript(moves: try PageMoveList(parsing: script)),
            imageSize: sizes.reader())
    }

    @Test("linear lists stop at both ends without error, and the diffs are empty there")
    func linearEnds() throws {
        let frames = try Self.plan(.linear(3), "prev,next,next,next,prev")
        #expect(frames.map(\.position.column) == [0, 0, 1, 2, 2, 1])
        #expect(frames[1].loaded.isEmpty && frames[1].evicted.isEmpty)
        #expect(frames[4].loaded.isEmpty && frames[4].evicted.isEmpty)
        #expect(frames[3].resident == [Self.cell(1), Self.cell(2)])
        #expect(frames[0].loaded == [Self.cell(0), Self.cell(1)])
    }

    @Test("goto N jumps without loading the pages between, is animated only to a neighbour, and wraps the short way")
    func gotoJumps() throws {
        let frames = try Self.plan(.linear(8), "goto 6\ngoto 5\ngoto 5", transitions: 2)
        // 1 initial, the jump to 6 (not a neighbour: one frame), to 5 (a neighbour: 2 eased + rest), to 5 again.
        #expect(frames.map(\.position.column) == [0, 5, 5, 4, 4, 4])
        #expect(frames[1].loaded == [Self.cell(4), Self.cell(5), Self.cell(6)])
        #expect(frames[1].evicted == [Self.cell(0), Self.cell(1)])
        let loadedByTheJump = Set(frames[0...1].flatMap(\.loaded))
        #expect(loadedByTheJump.isDisjoint(with: [2, 3].map { Self.cell($0) }), "the pages between are not loaded")
        #expect(frames[2].transition != nil && frames[3].transition != nil && frames[4].transition == nil)
        #expect(frames[5].loaded.isEmpty && frames[5].evicted.isEmpty)
        // On a ring of 8, page 8 is one step back from page 1: animated, the current page changing halfway.
        let ring = try Self.plan(.circular(8), "goto 8", transitions: 2)
        #expect(ring.map(\.position.column) == [0, 0, 7, 7])
        #expect(ring[1].transition != nil && ring[2].transition != nil)
    }

    @Test("goto a page the gallery does not have is an input error naming the move and the page count")
    func gotoMissingPage() throws {
        let error = try #require(throws: TileViewError.self) { try Self.plan(.linear(3), "next\ngoto 4") }
        #expect(error.kind == .input)
        #expect(error.description == "goto 4: there is no page 4: the gallery has 3 pages")
        #expect(throws: TileViewError.self) { try Self.plan(.linear(1), "goto 2") }
    }

    @Test("circular lists wrap both ways with 1, 2, 3 and 10 pages", arguments: [1, 2, 3, 10])
    func circularWrap(count: Int) throws {
        let forward = try Self.plan(.circular(count), Array(repeating: "next", count: count + 1).joined(separator: ","))
        #expect(forward.map(\.position.column) == (0...count + 1).map { $0 % count })
        let backward = try Self.plan(
            .circular(count), Array(repeating: "prev", count: count + 1).joined(separator: ","))
        #expect(backward.map(\.position.column) == (0...count + 1).map { ((-$0 % count) + count) % count })
        for frame in forward + backward {
            let i = frame.position.column
            let expected = Set([i - 1, i, i + 1].map { Self.cell((($0 % count) + count) % count) })
            #expect(Set(frame.resident) == expected, "page \(i) of \(count)")
            #expect(frame.resident.count == min(count, 3))
        }
    }

    @Test("with N transition frames a move that moves gets N eased frames before the page at rest")
    func transitions() throws {
        let frames = try Self.plan(.linear(3), "next,next,next", transitions: 3)
        // 1 initial + 2 moving moves * (3 + 1) + 1 move at the end that does not move.
        #expect(frames.count == 1 + 2 * 4 + 1)
        #expect(frames.map(\.index) == Array(0..<frames.count))
        let between = frames[1...3]
        #expect(between.map { $0.transition?.index } == [1, 2, 3])
        let fractions = between.compactMap { $0.transition?.fraction }
        #expect(fractions == fractions.sorted() && fractions.allSatisfy { $0 > 0 && $0 < 1 })
        for frame in between {
            #expect(Set(frame.placements.map(\.position)) == [Self.cell(0), Self.cell(1)], "frame \(frame.index)")
        }
        // The resident set follows the page nearest the offset: page 2 loads where page 1 becomes the nearest.
        #expect(between.map(\.position) == [Self.cell(0), Self.cell(1), Self.cell(1)])
        #expect(frames[1].loaded.isEmpty && frames[2].loaded == [Self.cell(2)] && frames[4].loaded.isEmpty)
        #expect(frames[4].transition == nil && frames[4].position == Self.cell(1))
        #expect(frames.last?.transition == nil && frames.last?.placements.count == 1)
    }

    @Test("a fast drag flings to the neighbour; a slow one settles on the nearest page")
    func drags() throws {
        // Page width 240: the finger moves left (content heads for the next page).
        let fling = try Self.plan(.linear(3), "drag -40,0 velocity 0.5,0")
        #expect(fling.last?.position == Self.cell(1))
        let slowShort = try Self.plan(.linear(3), "drag -40,0 velocity 0.05,0")
        #expect(slowShort.last?.position == Self.cell(0))
        let slowLong = try Self.plan(.linear(3), "drag -150,0")
        #expect(slowLong.last?.position == Self.cell(1))
        let backFling = try Self.plan(.linear(3), "next\ndrag 30,0 velocity -0.2,0", transitions: 0)
        #expect(backFling.last?.position == Self.cell(0))
        // Against the first page's edge nothing moves, whatever the velocity.
        let edge = try Self.plan(.linear(3), "drag 100,0 velocity -1,0")
        #expect(edge.last?.position == Self.cell(0))
        // A list has no vertical neighbours.
        let vertical = try Self.plan(.linear(3), "drag 0,-150 velocity 0,1")
        #expect(vertical.last?.position == Self.cell(0))
        // Settling is animated from where the finger lifted when transitions are asked for.
        let animated = try Self.plan(.linear(3), "drag -40,0 velocity 0.5,0", transitions: 2)
        #expect(animated.count == 4 && animated[1].transition != nil && animated[2].loaded == [Self.cell(2)])
        #expect(animated[1].placements.count == 2)
    }

    @Test("a page keeps its zoom while resident and starts at fit when it comes back")
    func zoomMemory() throws {
        let kept = try Self.plan(.linear(5), "double-tap 120,80\nnext\nprev")
        #expect(kept[1].zoom.zoomScale > kept[0].zoom.zoomScale)
        #expect(kept[3].zoom == kept[1].zoom, "page 0 stayed resident at page 1")
        let returned = try Self.plan(.linear(5), "double-tap 120,80\nnext\nnext\nprev\nprev")
        #expect(returned[3].evicted == [Self.cell(0)])
        #expect(returned[5].position == Self.cell(0))
        #expect(returned[5].zoom.zoomScale == returned[5].zoom.minimumZoomScale, "evicted page starts at fit")
        #expect(returned[5].zoom == returned[0].zoom)
    }

    @Test("gesture points are frame pixels: with peeking they are moved into the current page's frame")
    func gesturePointsInPeekFrames() throws {
        let frames = try Self.plan(.linear(3), "double-tap 120,80", peek: 20, gap: 10)
        let page = try #require(frames[1].placements.first { $0.position == Self.cell(0) })
        #expect(page.frame == PixelRect(x: 25, y: 0, width: 190, height: 160))
        // The frame's centre is the page's centre: the tapped image point ends at the page frame's centre.
        var expected = frames[0].zoom
        expected.doubleTap(atViewportPoint: Point(x: 95, y: 80))
        #expect(page.zoom == expected)
    }

    @Test("peeking: the current page sits at P + G/2 in a frame of w - 2P - G, neighbours at the sides")
    func peekPlacements() throws {
        let frames = try Self.plan(.linear(3), "next", peek: 24, gap: 8)
        let rest = frames[1]
        #expect(rest.placements.map(\.position) == [Self.cell(0), Self.cell(1), Self.cell(2)])
        #expect(rest.placements.map(\.frame.x) == [-164, 28, 220])
        #expect(rest.placements.allSatisfy { $0.frame.size == PixelSize(width: 184, height: 160) })
        #expect(rest.placements.allSatisfy { $0.zoom.viewportSize == Size(width: 184, height: 160) })
        // The first page has no left neighbour: only it and its right neighbour show.
        #expect(frames[0].placements.map(\.position) == [Self.cell(0), Self.cell(1)])
    }

    @Test("the classic map walk from 6: left stays, right 7, down 8, down stays")
    func classicMap() throws {
        let map = try PageMap(parsing: "1 . 2\n3 4 5\n. 6 7\n. . 8")
        let frames = try Self.plan(.map(map), "left,right,down,down", start: map.cell(ofPage: "6"))
        #expect(frames.map { map.page(at: $0.position) } == ["6", "6", "7", "8", "8"])
        #expect(
            frames[3].evicted.map { map.page(at: $0) } == ["6"] && frames[3].loaded.map { map.page(at: $0) } == ["8"])
    }

    @Test("planning reads the sizes of resident pages only, and a failing read stops the plan")
    func headerReads() throws {
        let sizes = FakePageSizes()
        _ = try Self.plan(.linear(100), "next,next", sizes: sizes)
        #expect(sizes.asked == Set((0...3).map { Self.cell($0) }))
        let failing: GalleryPlanner.ImageSizeReader = { (position: Cell) throws(TileViewError) -> Size in
            if position.column == 2 { throw TileViewError(.read, path: "page-2.png", reason: "cannot open") }
            return Size(width: 10, height: 10)
        }
        #expect(throws: TileViewError(.read, path: "page-2.png", reason: "cannot open")) {
            _ = try GalleryPlanner.plan(
                layout: .linear(4), settings: GallerySettings(viewport: PixelSize(width: 10, height: 10)),
                script: GalleryScript(moves: try PageMoveList(parsing: "next")), imageSize: failing)
        }
    }

    @Test("seeded walks: resident sets of at most three neighbours, diffs between frames, every visible page resident")
    func walkLaws() throws {
        let seed: UInt64 = 0x9A11_3E
        print("planner walk seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let map = try PageMap(parsing: "1 . 2\n3 4 5\n. 6 7\n. . 8")
        let layouts: [PageLayout] = [.linear(1), .linear(4), .circular(2), .circular(5), .map(map)]
        let words = [
            "next", "prev", "left", "right", "up", "down", "drag -90,0 velocity 0.3,0", "drag 0,70", "pan 5,5",
        ]
        for (k, layout) in layouts.enumerated() {
            let script = (0..<25).map { _ in words[rng.int(below: words.count)] }.joined(separator: "\n")
            let frames = try GalleryPlanner.plan(
                layout: layout,
                settings: GallerySettings(
                    viewport: PixelSize(width: 200, height: 120), peek: rng.int(below: 40), gap: rng.int(below: 12),
                    transitionFrames: rng.int(below: 3)),
                script: try GalleryScript(parsing: script), imageSize: FakePageSizes().reader())
            var previous: [Cell] = []
            for frame in frames {
                #expect(frame.resident.count <= 3, "layout \(k) frame \(frame.index)")
                #expect(frame.resident.contains(frame.position), "layout \(k) frame \(frame.index)")
                #expect(
                    frame.placements.allSatisfy { frame.resident.contains($0.position) },
                    "layout \(k) frame \(frame.index)")
                let allowed = Set(layout.neighbours(of: frame.position) + [frame.position])
                #expect(frame.resident.allSatisfy { allowed.contains($0) }, "layout \(k) frame \(frame.index)")
                #expect(frame.loaded == Array(Set(frame.resident).subtracting(previous)).sorted())
                #expect(frame.evicted == Array(Set(previous).subtracting(frame.resident)).sorted())
                previous = frame.resident
            }
        }
    }
}

/// Planning without files: every page has the same size, and the reader counts the pages it was asked about.
final class FakePageSizes: @unchecked Sendable {
    let size: Size
    private(set) var asked: Set<PageMap.Cell> = []

    init(width: Double = 400, height: Double = 300) {
        size = Size(width: width, height: height)
    }

    func reader() -> GalleryPlanner.ImageSizeReader {
        { (position: PageMap.Cell) throws(TileViewError) -> Size in
            self.asked.insert(position)
            return self.size
        }
    }
}
