import Foundation
import Testing
import TileView
import TileViewCore
import TileViewGallery
import TileViewRender
import TileViewTestSupport

/// A turned image draws a frame from the stored block under every row of tiles the frame touches, turned (the
/// stored rows of one row of tiles are a column of the turned image): a view's plan counts that block from the frame
/// itself, not one band whatever the frame shows.
@Suite("Turned frame plans")
struct TurnedFramePlanTests {
    /// What a frame of `image` read: the rows of tiles under its source rect, and their stored block across the
    /// level's whole width (4 bytes a pixel).
    static func block(of frame: RenderedFrame, in image: TiledImage) throws -> (rows: Int, bytes: Int) {
        let source = try #require(frame.sourceRect)
        let grid = image.pyramid.grid(ofLevel: frame.level)
        let rows = Set(grid.tiles(intersecting: source).map(\.row)).count
        return (rows, grid.levelSize.width * grid.tileSize * 4 * rows)
    }

    @Test("a turned image's frame plan holds the block its frame reads, stored and turned; an upright one a band")
    func turnedBlock() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path
        for turns in [0, 1, 2, 3] {
            let image = try TiledImage(path: path, cacheBudgetBytes: 0, clockwiseQuarterTurns: turns)
            // Over a shared cache (the server's), each tile is cut from the stored block and turned on its own.
            let shared = try TiledImage(
                path: path, cacheBudgetBytes: 0,
                sharedTiles: TiledImage.SharedTiles(cache: SharedTileCache(budgetBytes: 64 << 20), image: path),
                clockwiseQuarterTurns: turns)
            let frames: [(zoom: Double, point: Point)] = [
                (1.0, Point(x: 700, y: 300)), (0.6, Point(x: 200, y: 900)), (1.0, Point(x: 0, y: 0)),
            ]
            for (zoom, point) in frames {
                var state = ZoomState(imageSize: image.imageSize.asSize, viewportSize: Size(width: 500, height: 400))
                state.zoom(toImageRect: Rect(x: point.x, y: point.y, width: 500 / zoom, height: 400 / zoom))
                let frame = try image.render(state)
                #expect(try shared.render(state).image == frame.image, "turns \(turns) zoom \(zoom): shared tiles")
                let planned = image.decodePeakBytes(for: state)
                guard turns != 0 else {
                    #expect(planned == image.decodePeakBytes, "upright: one band whatever the frame")
                    continue
                }
                // What the frame read, stored, and (without the shared cache) turned upright whole.
                let (rows, block) = try Self.block(of: frame, in: image)
                #expect(rows >= 2, "turns \(turns) zoom \(zoom): the frame spans rows of tiles")
                #expect(planned >= block * 2, "turns \(turns) zoom \(zoom): \(planned) < the block \(block) twice")
                let sharedPlan = shared.decodePeakBytes(for: state)
                #expect(sharedPlan >= block && sharedPlan < planned, "turns \(turns) zoom \(zoom): \(sharedPlan)")
            }
        }
    }

    @Test("a gallery frame's plan holds the block its turned page's draw reads; upright pages plan one band")
    func turnedGalleryPage() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path
        let upright = try TiledImage(path: path)
        for (script, turned) in [("double-tap 250,200", false), ("rotate 90\ndouble-tap 250,200", true)] {
            let job = GalleryJob(
                pages: GalleryPages(files: [path]),
                settings: GallerySettings(viewport: PixelSize(width: 500, height: 400)),
                script: try GalleryScript(parsing: script))
            let session = try GallerySession(job: job)
            for action in job.script.actions { try session.apply(action) }
            let planned = session.decodePeakBytes
            guard turned else {
                #expect(planned == upright.decodePeakBytes, "upright: one band")
                continue
            }
            // The page's draw, as the compositor makes it: the rows of tiles under its source rect, stored and turned.
            let draw = try #require(
                job.compositor.draws(for: session.current) { _, turns in
                    (try? upright.turned(by: turns)).map { .pyramid($0.pyramid) }
                }.first)
            let source = try #require(draw.renderer?.sourceRect)
            let grid = try upright.turned(by: 1).pyramid.grid(ofLevel: draw.level)
            let rows = Set(grid.tiles(intersecting: source).map(\.row)).count
            #expect(rows >= 2)
            #expect(planned >= grid.levelSize.width * grid.tileSize * 4 * rows * 2, "\(planned)")
        }
    }

    @Test("a scene frame's plan holds the block its turned layer's draw reads; an upright scene plans one band")
    func turnedSceneLayer() throws {
        let path = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path
        try TemporaryFolder.with("turned-scene") { dir in
            // One layer covering a scene of the image's size: its draw is the image's own frame.
            let scenePath = dir.appendingPathComponent("scene.json").path
            try Data(
                #"{"width": 1411, "height": 1411, "layers": [{"image": "\#(path)", "rect": [0, 0, 1411, 1411]}]}"#.utf8
            ).write(to: URL(fileURLWithPath: scenePath))
            let upright = try SceneImage(path: scenePath, cacheBudgetBytes: 0)
            for turns in [0, 1, 3] {
                let scene = try upright.rotated(clockwiseQuarterTurns: turns)
                let image = try TiledImage(path: path, cacheBudgetBytes: 0, clockwiseQuarterTurns: turns)
                var state = ZoomState(imageSize: scene.contentSize, viewportSize: Size(width: 500, height: 400))
                state.zoom(toImageRect: Rect(x: 700, y: 300, width: 500, height: 400))
                let planned = scene.decodePeakBytes(for: state)
                guard turns != 0 else {
                    #expect(planned == upright.decodePeakBytes, "upright: one band whatever the frame")
                    continue
                }
                let frame = try image.render(state)
                #expect(
                    try scene.render(state, displacedBy: .zero, background: .black, filter: .automatic).image
                        == frame.image, "turns \(turns): the scene draws the image")
                let (rows, block) = try Self.block(of: frame, in: image)
                #expect(rows >= 2, "turns \(turns): the frame spans rows of tiles")
                #expect(planned >= block * 2, "turns \(turns): \(planned) < the block \(block) twice")
            }
        }
    }
}
