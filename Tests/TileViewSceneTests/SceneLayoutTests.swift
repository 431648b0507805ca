import Testing
import TileViewCore
import TileViewScene
import TileViewTestSupport

@Suite("Scene layout: placements and draw plans")
struct SceneLayoutTests {
    let image = Size(width: 400, height: 200)

    @Test func centerUsesTheImagesOwnSize() {
        let (frame, clip) = ScenePlacement.center(Point(x: 320, y: 320)).layout(imageSize: image)
        #expect(frame == Rect(x: 120, y: 220, width: 400, height: 200))
        #expect(clip == frame)
    }

    @Test func fillStretches() {
        let r = Rect(x: 10, y: 20, width: 100, height: 100)
        #expect(ScenePlacement.rect(r, mode: .fill).layout(imageSize: image) == (r, r))
    }

    @Test func aspectFitAndFill() {
        let r = Rect(x: 0, y: 0, width: 100, height: 100)
        let fit = ScenePlacement.rect(r, mode: .aspectFit).layout(imageSize: image)
        #expect(fit.frame == Rect(x: 0, y: 25, width: 100, height: 50))
        #expect(fit.clip == fit.frame)
        let fill = ScenePlacement.rect(r, mode: .aspectFill).layout(imageSize: image)
        #expect(fill.frame == Rect(x: -50, y: 0, width: 200, height: 100))
        #expect(fill.clip == r)
    }

    /// For seeded random rects and image sizes: aspect-fit lies inside its rect and touches two sides; aspect-fill
    /// covers it and touches two sides; both keep the image's aspect and centre.
    @Test func aspectModesLaws() {
        forEachSeed(1...300) { _, rng in
            let r = Rect(
                x: .random(in: -500...500, using: &rng), y: .random(in: -500...500, using: &rng),
                width: .random(in: 1...900, using: &rng), height: .random(in: 1...900, using: &rng))
            let size = Size(width: .random(in: 1...5000, using: &rng), height: .random(in: 1...5000, using: &rng))
            let fit = ScenePlacement.rect(r, mode: .aspectFit).layout(imageSize: size).frame
            let fill = ScenePlacement.rect(r, mode: .aspectFill).layout(imageSize: size).frame
            let tolerance = 1e-9 * max(r.width, r.height, 1)
            for f in [fit, fill] {
                #expect(abs(f.width / f.height - size.width / size.height) <= 1e-9 * size.width / size.height)
                #expect(abs(f.center.x - r.center.x) <= tolerance && abs(f.center.y - r.center.y) <= tolerance)
            }
            #expect(fit.width <= r.width + tolerance && fit.height <= r.height + tolerance)
            #expect(abs(fit.width - r.width) <= tolerance || abs(fit.height - r.height) <= tolerance)
            #expect(fill.width >= r.width - tolerance && fill.height >= r.height - tolerance)
            #expect(abs(fill.width - r.width) <= tolerance || abs(fill.height - r.height) <= tolerance)
        }
    }

    @Test func drawPlanMapsScenePointsToTheViewport() {
        let scene = Scene(
            size: Size(width: 640, height: 640), background: RGBA8(r: 255, g: 255, b: 255),
            layers: [
                .color(RGBA8(r: 255, g: 0, b: 0), rect: Rect(x: 0, y: 0, width: 640, height: 80)),
                .color(RGBA8(r: 0, g: 0, b: 0, a: 0), rect: Rect(x: 0, y: 0, width: 10, height: 10)),
                .image(path: "a.png", placement: .center(Point(x: 320, y: 320))),
                .image(path: "missing.png", placement: .center(Point(x: 320, y: 320))),
                .color(RGBA8(r: 0, g: 0, b: 255), rect: Rect(x: 0, y: 5000, width: 640, height: 80)),
            ])
        let plan = SceneDrawPlan(
            scene: scene, scale: 0.5, origin: Point(x: 0, y: 80), frameSize: PixelSize(width: 320, height: 480),
            imageSize: { $0 == 2 ? Size(width: 100, height: 50) : nil })
        #expect(
            plan.draws == [
                .fill(RGBA8(r: 255, g: 255, b: 255), rect: Rect(x: 0, y: 80, width: 320, height: 320)),
                .fill(RGBA8(r: 255, g: 0, b: 0), rect: Rect(x: 0, y: 80, width: 320, height: 40)),
                .image(
                    layer: 2, frame: Rect(x: 135, y: 227.5, width: 50, height: 25),
                    clip: Rect(x: 135, y: 227.5, width: 50, height: 25)),
            ])
    }

    @Test("a scene turned four times is itself; one turn moves (x, y) to (H - y, x) and swaps the size")
    func turning() {
        let scene = Scene(
            size: Size(width: 300, height: 200), background: nil,
            layers: [
                .color(RGBA8(r: 1, g: 2, b: 3), rect: Rect(x: 10, y: 20, width: 30, height: 40)),
                .image(path: "a.png", placement: .center(Point(x: 100, y: 50))),
                .image(path: "b.png", placement: .rect(Rect(x: 0, y: 0, width: 50, height: 60), mode: .aspectFill)),
            ])
        #expect(scene.rotated(clockwiseQuarterTurns: 4) == scene)
        #expect(scene.rotated(clockwiseQuarterTurns: 1).rotated(clockwiseQuarterTurns: -1) == scene)
        let once = scene.rotated(clockwiseQuarterTurns: 1)
        #expect(once.size == Size(width: 200, height: 300))
        #expect(once.layers[0] == .color(RGBA8(r: 1, g: 2, b: 3), rect: Rect(x: 140, y: 10, width: 40, height: 30)))
        #expect(once.layers[1] == .image(path: "a.png", placement: .center(Point(x: 150, y: 100))))
        #expect(
            once.layers[2]
                == .image(path: "b.png", placement: .rect(Rect(x: 140, y: 0, width: 60, height: 50), mode: .aspectFill))
        )
    }
}
