import Foundation
import Testing
import TileView
import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewTestSupport
import TileViewZoom

@Suite("Page loader")
struct PageLoaderTests {
    typealias Cell = PageMap.Cell

    /// A job over generated pages.
    static func job(
        _ paths: [String], layout: PageLayout, script: String, viewport: PixelSize = PixelSize(width: 48, height: 32),
        peek: Int = 0, gap: Int = 0, transitions: Int = 0
    ) throws -> GalleryJob {
        let names = paths.map { URL(fileURLWithPath: $0).lastPathComponent }
        return GalleryJob(
            pages: GalleryPages(layout: layout, names: names, paths: paths),
            settings: GallerySettings(viewport: viewport, peek: peek, gap: gap, transitionFrames: transitions),
            script: try GalleryScript(parsing: script))
    }

    @Test("seeded walks: at most three resident, evicted pages hold 0 bytes, pages not shown hold none")
    func loaderLaws() throws {
        try TemporaryFolder.with("loader-laws") { dir in
            let paths = try TestPages.pages(6, into: dir, width: 64, height: 48)
            let seed: UInt64 = 0x10AD_E5
            print("loader walk seed \(seed)")
            var rng = SplitMix64(seed: seed)
            let words = [
                "next", "prev", "next", "double-tap 20,16", "drag -30,0 velocity 0.4,0", "drag 10,0", "pinch 2 5,5",
            ]
            for layout in [PageLayout.linear(6), .circular(6)] {
                let script = (0..<30).map { _ in words[rng.int(below: words.count)] }.joined(separator: "\n")
                let job = try Self.job(paths, layout: layout, script: script, peek: rng.int(below: 10), transitions: 1)
                let frames = try job.plan()
                let loader = job.makeLoader()
                let compositor = job.compositor
                var open: [Cell: TiledImage] = [:]
                for (n, frame) in frames.enumerated() {
                    let shown = Set(frame.placements.map(\.position))
                    let shownNext = n + 1 < frames.count ? Set(frames[n + 1].placements.map(\.position)) : []
                    let change = try loader.makeResident(frame.resident, keepingTiles: shown.intersection(shownNext))
                    #expect(change.loaded == frame.loaded && change.evicted == frame.evicted, "frame \(n)")
                    for position in change.evicted {
                        #expect(
                            open[position]?.residentBytes == 0, "evicted page \(position) frees its tiles, frame \(n)")
                        open[position] = nil
                    }
                    #expect(loader.residentPositions == frame.resident && frame.resident.count <= 3)
                    loader.trim(keeping: shown)
                    for position in loader.residentPositions where !shown.contains(position) {
                        #expect(loader.residentBytes(at: position) == 0, "page \(position) is not shown in frame \(n)")
                    }
                    for position in loader.residentPositions { open[position] = loader.image(at: position) }
                    let image = try compositor.render(frame, loader: loader)
                    #expect(image.size == PixelSize(width: 48, height: 32))
                    for position in loader.residentPositions where loader.residentBytes(at: position) > 0 {
                        #expect(
                            shown.contains(position) && shownNext.contains(position), "only pages shown next keep tiles"
                        )
                    }
                }
                loader.evictAll()
                #expect(open.values.allSatisfy { $0.residentBytes == 0 })
                #expect(loader.residentPositions.isEmpty && loader.loadCount == loader.evictionCount)
            }
        }
    }

    @Test("a page the next frame shows keeps its tiles and is not decoded again")
    func keptTiles() throws {
        try TemporaryFolder.with("loader-keep") { dir in
            let paths = try TestPages.pages(3, into: dir, width: 300, height: 200)
            let job = try Self.job(
                paths, layout: .linear(3), script: "next", viewport: PixelSize(width: 60, height: 40))
            let frames = try job.plan()
            let loader = job.makeLoader()
            let compositor = job.compositor
            try loader.makeResident(frames[0].resident, keepingTiles: [Cell(column: 0, row: 0)])
            let first = try compositor.render(frames[0], loader: loader)
            #expect(loader.residentBytes(at: Cell(column: 0, row: 0)) > 0)
            #expect(loader.residentBytes(at: Cell(column: 1, row: 0)) == 0)
            let passes = loader.decodePasses
            #expect(try compositor.render(frames[0], loader: loader) == first)
            #expect(loader.decodePasses == passes, "served from the page's tiles")
            // Without keeping tiles, the next render decodes again.
            try loader.makeResident(frames[0].resident, keepingTiles: [])
            #expect(loader.residentBytes(at: Cell(column: 0, row: 0)) == 0)
            #expect(try compositor.render(frames[0], loader: loader) == first)
            #expect(loader.decodePasses == passes + 1)
        }
    }

    @Test("a damaged page fails when it is decoded, naming its file")
    func damagedPage() throws {
        try TemporaryFolder.with("loader-damaged") { dir in
            let paths = try TestPages.pages(2, into: dir, width: 200, height: 150)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: paths[1]))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: paths[1]))
            let job = try Self.job(paths, layout: .linear(2), script: "next")
            let frames = try job.plan()  // headers are fine
            let loader = job.makeLoader()
            try loader.makeResident(frames[1].resident)
            #expect {
                _ = try job.compositor.render(frames[1], loader: loader)
            } throws: { error in
                (error as? TileViewError)?.path == paths[1]
            }
        }
    }

    @Test("a page filling the viewport is drawn exactly as TiledImage.render draws its zoom state")
    func sameAsZoom() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
        let job = GalleryJob(
            pages: GalleryPages(files: [path]), settings: GallerySettings(viewport: PixelSize(width: 240, height: 160)),
            script: try GalleryScript(parsing: "double-tap 60,50\npan 30,-10"))
        let frames = try job.plan()
        let loader = job.makeLoader()
        let reference = try TiledImage(path: path)
        for frame in frames {
            try loader.makeResident(frame.resident)
            let ours = try job.compositor.render(frame, loader: loader)
            let theirs = try reference.render(frame.zoom).image
            #expect(ours == theirs, "frame \(frame.index)")
        }
        #expect(frames[2].zoom.zoomScale > frames[0].zoom.zoomScale)
    }

    @Test("every transition frame shows pixels of both pages")
    func transitionFramesShowBothPages() throws {
        let red = RGBA8(r: 220, g: 20, b: 20)
        let blue = RGBA8(r: 20, g: 20, b: 220)
        try TemporaryFolder.with("loader-transition") { dir in
            let paths = try TestPages.write(
                [ImageBuffer(width: 60, height: 40, fill: red), ImageBuffer(width: 60, height: 40, fill: blue)],
                into: dir)
            for (peek, gap) in [(0, 0), (8, 6), (4, 20)] {
                let job = try Self.job(
                    paths, layout: .linear(2), script: "next", viewport: PixelSize(width: 60, height: 40), peek: peek,
                    gap: gap,
                    transitions: 4)
                let frames = try job.plan()
                let loader = job.makeLoader()
                #expect(frames.count == 6)
                for frame in frames where frame.transition != nil {
                    try loader.makeResident(frame.resident)
                    let image = try job.compositor.render(frame, loader: loader)
                    let pixels = (0..<image.height).flatMap { y in (0..<image.width).map { x in image[x, y] } }
                    #expect(
                        pixels.contains(red) && pixels.contains(blue), "peek \(peek) gap \(gap) frame \(frame.index)")
                }
            }
        }
    }

    @Test("peeking: neighbours show at both sides, the gaps show the background")
    func peekFrame() throws {
        let colours = [RGBA8(r: 200, g: 0, b: 0), RGBA8(r: 0, g: 200, b: 0), RGBA8(r: 0, g: 0, b: 200)]
        try TemporaryFolder.with("loader-peek") { dir in
            let paths = try TestPages.write(colours.map { ImageBuffer(width: 64, height: 48, fill: $0) }, into: dir)
            let white = RGBA8(r: 255, g: 255, b: 255)
            let base = try Self.job(
                paths, layout: .linear(3), script: "next", viewport: PixelSize(width: 120, height: 80), peek: 20,
                gap: 10)
            let job = GalleryJob(pages: base.pages, settings: base.settings, script: base.script, background: white)
            let frames = try job.plan()
            let loader = job.makeLoader()
            try loader.makeResident(frames[1].resident)
            let image = try job.compositor.render(frames[1], loader: loader)
            // Slots are 80 wide, frames 70: page 0 ends at 15, page 1 spans 25..<95, page 2 starts at 105.
            #expect([0, 7, 14].map { image[$0, 40] } == Array(repeating: colours[0], count: 3))
            #expect([15, 20, 24, 95, 100, 104].map { image[$0, 40] } == Array(repeating: white, count: 6))
            #expect([25, 60, 94].map { image[$0, 40] } == Array(repeating: colours[1], count: 3))
            #expect([105, 119].map { image[$0, 40] } == Array(repeating: colours[2], count: 2))
            #expect(image[60, 2] == white, "the page is letterboxed inside its frame")
        }
    }

    @Test(
        "a page that keeps no tiles is drawn straight from its decoder: the frames of decoded regions, no region held")
    func streamedPages() throws {
        try TemporaryFolder.with("loader-streamed") { dir in
            let sources = [
                Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_chelsea_420_q90.jpg"),
                Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_chelsea_gray.jpg"),
                Fixtures.corpusRoot.appendingPathComponent("jpeg/gen_chelsea_420_progressive.jpg"),
                Fixtures.corpusRoot.appendingPathComponent("jpeg/exif_Landscape_6.jpg"),
                Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                Fixtures.sampleImages.appendingPathComponent("coffee.png"),
            ]
            var paths: [String] = []
            for (n, source) in sources.enumerated() {
                let path = dir.appendingPathComponent("page-\(n).\(source.pathExtension)")
                try FileManager.default.copyItem(at: source, to: path)
                paths.append(path.path)
            }
            let moves = "next\nnext\nprev\nnext\nnext\nnext\nnext\ndouble-tap 100,80\nnext"
            let job = try Self.job(
                paths, layout: .linear(paths.count), script: moves, viewport: PixelSize(width: 320, height: 240),
                peek: 24, gap: 8)
            let plan = try job.plan()
            let out = dir.appendingPathComponent("out")
            _ = try job.run(into: out.path)
            // The reference: every frame drawn from decoded regions, one call at a time.
            let reference = job.makeLoader()
            for frame in plan {
                try reference.makeResident(frame.resident)
                let expected = try job.compositor.render(frame, loader: reference)
                let written = try PNGDecoder.decode(
                    .file(path: out.appendingPathComponent(String(format: "frame-%04d.png", frame.index)).path)
                ).image
                #expect(written.pixels == expected.pixels, "frame \(frame.index)")
            }
            // The first frame's page comes back as its rendered part, holding a ring of rows, not its region.
            let loader = job.makeLoader()
            try loader.makeResident(plan[0].resident)
            let draws = job.compositor.draws(for: plan[0], loader: loader)
            loader.startDecoding(job.compositor.requests(for: draws), renderers: job.compositor.renderers(for: draws))
            let regions = try loader.finishDecoding()
            // The draw covering most of the viewport: the current page (the others peek in from the sides).
            let drawn = draws.filter { $0.request != nil }
            let largest = try #require(drawn.indices.max { drawn[$0].part.width < drawn[$1].part.width })
            let main = try #require(regions[largest])
            if SystemInfo.availableProcessors > 1 {
                #expect(main.isRenderedPart && main.buffer.size == drawn[largest].part.size)
                #expect(main.byteCount < 451 * 300 * 4 / 2, "a ring of rows, not the level region")
            } else {
                #expect(!main.isRenderedPart, "one processor: no decoding thread, the region is decoded")
            }
        }
    }

    @Test("the decoded bytes of a long walk stay those of one page, whatever the gallery's length")
    func boundedMemory() throws {
        try TemporaryFolder.with("loader-bounded") { dir in
            let paths = try TestPages.pages(12, into: dir, width: 300, height: 200)
            let moves = Array(repeating: "next", count: 11).joined(separator: "\n")
            let job = try Self.job(
                paths, layout: .linear(12), script: moves, viewport: PixelSize(width: 60, height: 40))
            var samples: [Int] = []
            let summary = try job.run(into: nil, onFrame: { _, sample in samples.append(sample.residentBytes) }).summary
            // Fit scale 1/5 draws level 1 (150 x 100, the coarsest), decoded once per page, nothing kept between pages.
            #expect(samples.count == 12 && samples.allSatisfy { $0 == 150 * 100 * 4 }, "\(samples)")
            #expect(summary.peakResidentBytes == 150 * 100 * 4 && summary.maxResident == 3)
            #expect(summary.loads == 12 && summary.evictions == 12 && summary.decodePasses == 12)
        }
    }
}
