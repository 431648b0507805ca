import Foundation
import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// What the feed renderer holds and draws as it scrolls.
@Suite("Feed renderer")
struct FeedRendererTests {
    static let viewport = PixelSize(width: 200, height: 300)

    static func renderer(_ texts: [String], background: RGBA8 = .black, lenient: Bool = false) throws -> FeedRenderer {
        try FeedRenderer(
            specs: texts.map { try FeedSectionSpec(parsing: $0) }, viewportSize: viewport, background: background,
            options: DecodeOptions(lenient: lenient))
    }

    /// The step of a scroll that starts and stays at `offset`.
    static func firstStep(_ layout: FeedLayout, at offset: Int) -> FeedScrollStep {
        var scroller = FeedScroller(layout: layout, offsets: [offset])
        return scroller.next()!
    }

    static var gridSpec: String { "grid:\(FeedTestFolder.url.path):4" }
    static var photoSpec: String { "image:" + Fixtures.sampleImages.appendingPathComponent("retina.jpg").path }

    @Test("after every step of a seeded scroll the thumbnails held are the layout's resident cells, and no more bytes")
    func residentCellsFollowTheLayout() throws {
        let seed: UInt64 = 0xFEED_0005
        print("feed renderer scroll seed \(seed)")
        var rng = SplitMix64(seed: seed)
        let renderer = try Self.renderer(["header:40", Self.gridSpec, Self.photoSpec])
        let offsets = (0..<12).map { _ in rng.int(below: renderer.layout.maximumContainerOffset + 400) }
        var scroller = FeedScroller(layout: renderer.layout, offsets: offsets)
        while let step = scroller.next() {
            _ = try renderer.render(step)
            #expect(
                Set(renderer.cells.buffers.keys) == Set(step.cells.resident.map(\.id)), "offset \(step.containerOffset)"
            )
            #expect(renderer.cells.residentBytes == scroller.pool.residentBytes)
            #expect(renderer.cells.count <= renderer.layout.maxResidentCells)
            guard case .image(let photo) = renderer.sources[2] else { throw CancellationError() }
            #expect(renderer.residentBytes == renderer.cells.residentBytes + photo.residentBytes)
            if !step.residentImageSections.contains(2) {
                #expect(photo.residentBytes == 0, "offset \(step.containerOffset): the photo is out of range and freed")
            }
        }
    }

    @Test("an image section decodes when it shows and frees everything once it leaves the resident range")
    func imageSectionResidency() throws {
        let renderer = try Self.renderer([Self.photoSpec, "header:2000:333333"])
        guard case .image(let photo) = renderer.sources[0] else { throw CancellationError() }
        var scroller = FeedScroller(layout: renderer.layout, offsets: [0, 150, 900, 1500, 100])
        var held: [Int] = []
        while let step = scroller.next() {
            _ = try renderer.render(step)
            held.append(photo.residentBytes)
        }
        // The photo is 200 rows tall: shown at 0 and 150, out of range at 900 and 1500 (down: [y, y + 600)).
        #expect(held[0] > 0 && held[1] > 0)
        #expect(held[2] == 0 && held[3] == 0)
        #expect(held[4] > 0)
        #expect(
            held.max()! <= FeedImageSection.cacheBudget(imageSize: photo.image.imageSize, viewportSize: Self.viewport)
                + 4 * 256 * 256 * 4, "the tile cache stays near its budget")
    }

    @Test("a frame is the viewport: header rows in their colour, cells as their thumbnails, the rest background")
    func drawing() throws {
        let background = RGBA8(r: 1, g: 2, b: 3)
        let renderer = try Self.renderer(["header:30:FF000080", Self.gridSpec], background: background)
        // Offset 20: header rows 20..<30 at the top, then grid rows; cell 0 at viewport (0, 10) 50x50.
        let step = Self.firstStep(renderer.layout, at: 20)
        let frame = try renderer.render(step)
        #expect(frame.size == Self.viewport)
        let header = RGBA8(r: 255, g: 0, b: 0, a: 128).composited(over: background)
        for y in 0..<10 {
            for x in [0, 99, 199] { #expect(frame[x, y] == header, "(\(x), \(y)) header over background") }
        }
        let cell = try #require(step.cells.resident.first { $0.id == CellID(section: 1, item: 5) })
        let thumbnail = try CellThumbnail.render(
            file: try #require(renderer.filePath(of: cell.id)), cellSize: cell.pixelSize, background: background
        ).image
        for (x, y) in [(0, 0), (49, 49), (25, 10), (3, 44)] {
            #expect(
                frame[cell.viewportRect.x + x, cell.viewportRect.y + y] == thumbnail[x, y], "cell 5 pixel (\(x), \(y))")
        }
        // A feed shorter than the viewport: the rows below the content show the background.
        let short = try Self.renderer(["header:100:00FF00"], background: background)
        let shortFrame = try short.render(Self.firstStep(short.layout, at: 0))
        #expect(shortFrame[5, 99] == RGBA8(r: 0, g: 255, b: 0))
        #expect(shortFrame[5, 100] == background && shortFrame[199, 299] == background)
    }

    @Test("the grid shows its folder in natural order: cell 2 holds cell-2, cell 10 holds cell-10")
    func naturalOrderInTheGrid() throws {
        let renderer = try Self.renderer([Self.gridSpec])
        #expect(renderer.filePath(of: CellID(section: 0, item: 1))!.hasSuffix("/cell-2.png"))
        #expect(renderer.filePath(of: CellID(section: 0, item: 9))!.hasSuffix("/cell-10.png"))
        #expect(renderer.filePath(of: CellID(section: 0, item: 299))!.hasSuffix("/cell-300.png"))
    }

    @Test("a grid image that cannot be decoded stops the render naming it; lenient shows the background and warns")
    func damagedCell() throws {
        try TemporaryFolder.with("feed-damaged") { dir in
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"), to: dir.appendingPathComponent("a1.jpg")
            )
            try Data("not an image".utf8).write(to: dir.appendingPathComponent("a2.png"))
            let spec = "grid:\(dir.path):2"
            let strict = try Self.renderer([spec])
            let step = Self.firstStep(strict.layout, at: 0)
            do throws(TileViewError) {
                _ = try strict.render(step)
                Issue.record("a file that is not an image must stop the render")
            } catch {
                #expect(error.path == dir.appendingPathComponent("a2.png").path)
            }
            let background = RGBA8(r: 9, g: 9, b: 9)
            let lenient = try Self.renderer([spec], background: background, lenient: true)
            let frame = try lenient.render(step)
            #expect(frame[150, 50] == background, "the broken cell shows the background")
            #expect(lenient.warnings.contains { $0.contains("a2.png") })
        }
    }
}
