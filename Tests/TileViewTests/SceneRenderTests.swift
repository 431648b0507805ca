import Foundation
import Testing
import TileView
import TileViewCodecs
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Scenes zoom like images (docs/design.md section 12): the laws of the issue, over seeded random scenes and gestures.
@Suite("Scene rendering")
struct SceneRenderTests {
    /// Random gestures a user could make on a viewport of `viewport`.
    static func gestures(_ rng: inout SplitMix64, viewport: Size) -> [ZoomGesture] {
        (0..<rng.int(below: 5)).map { _ in
            let p = Point(
                x: Double(rng.int(below: Int(viewport.width))), y: Double(rng.int(below: Int(viewport.height))))
            switch rng.int(below: 4) {
            case 0: return .doubleTap(viewportPoint: p)
            case 1: return .twoFingerTap
            case 2: return .pinch(factor: 0.5 + Double(rng.int(below: 300)) / 100, viewportPoint: p)
            default:
                return .pan(
                    viewportDelta: Point(x: Double(rng.int(below: 400)) - 200, y: Double(rng.int(below: 400)) - 200))
            }
        }
    }

    static func writeScene(_ text: String, in dir: URL, name: String = "scene.json") throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("the zoom state of a scene is the state of a plain image of the same size, gesture for gesture")
    func stateIsThatOfAnImageOfTheSameSize() throws {
        try TemporaryFolder.with("scene-state") { dir in
            var rng = SplitMix64(seed: 41)
            for _ in 0..<20 {
                let size = Size(width: Double(50 + rng.int(below: 3000)), height: Double(50 + rng.int(below: 3000)))
                let path = try Self.writeScene(
                    #"{"width": \#(size.width), "height": \#(size.height), "layers": []}"#, in: dir)
                let viewport = PixelSize(width: 40 + rng.int(below: 400), height: 40 + rng.int(below: 400))
                let session = ZoomSession(
                    image: try ZoomContentFiles.open(path), view: ViewSettings(viewport: viewport, maximumScale: 2))
                var plain = ZoomState(imageSize: size, viewportSize: viewport.asSize, maximumScaleSetting: 2)
                for gesture in Self.gestures(&rng, viewport: viewport.asSize) {
                    try session.apply(gesture)
                    plain.apply(gesture)
                    #expect(session.state == plain)
                }
            }
        }
    }

    /// A colour at random, opaque, never the viewport's background.
    static func colour(_ rng: inout SplitMix64) -> RGBA8 {
        RGBA8(r: UInt8(1 + rng.int(below: 255)), g: UInt8(rng.int(below: 256)), b: UInt8(rng.int(below: 256)))
    }

    @Test("inside each rectangle, away from its edges, the frame shows its colour unless a later layer covers it")
    func rectanglesShowTheirColours() throws {
        try TemporaryFolder.with("scene-rects") { dir in
            var rng = SplitMix64(seed: 7)
            for trial in 0..<25 {
                let size = Size(width: Double(100 + rng.int(below: 900)), height: Double(100 + rng.int(below: 900)))
                var rects: [(RGBA8, Rect)] = []
                for _ in 0..<(1 + rng.int(below: 6)) {
                    let w = Double(10 + rng.int(below: Int(size.width) / 2))
                    let h = Double(10 + rng.int(below: Int(size.height) / 2))
                    let x = Double(rng.int(below: Int(size.width - w))) + Double(rng.int(below: 4)) / 4
                    let y = Double(rng.int(below: Int(size.height - h))) + Double(rng.int(below: 4)) / 4
                    rects.append((Self.colour(&rng), Rect(x: x, y: y, width: w, height: h)))
                }
                let layers = rects.map { c, r in
                    #"{"color": "\#(c)", "rect": [\#(r.minX), \#(r.minY), \#(r.width), \#(r.height)]}"#
                }
                let path = try Self.writeScene(
                    #"{"width": \#(size.width), "height": \#(size.height), "layers": [\#(layers.joined(separator: ","))]}"#,
                    in: dir)
                let viewport = PixelSize(width: 60 + rng.int(below: 300), height: 60 + rng.int(below: 300))
                let session = ZoomSession(
                    image: try ZoomContentFiles.open(path), view: ViewSettings(viewport: viewport, maximumScale: 4))
                for gesture in Self.gestures(&rng, viewport: viewport.asSize) { try session.apply(gesture) }
                let frame = try session.render().image
                let state = session.state
                var checked = 0
                for _ in 0..<400 {
                    let x = rng.int(below: viewport.width)
                    let y = rng.int(below: viewport.height)
                    // The pixel's square in scene points, grown by a point: inside a rect means wholly inside.
                    let a = state.imagePoint(atViewportPoint: Point(x: Double(x) - 1, y: Double(y) - 1))
                    let b = state.imagePoint(atViewportPoint: Point(x: Double(x) + 2, y: Double(y) + 2))
                    let square = Rect(x: a.x, y: a.y, width: b.x - a.x, height: b.y - a.y)
                    func inside(_ r: Rect) -> Bool {
                        square.minX >= r.minX && square.maxX <= r.maxX && square.minY >= r.minY && square.maxY <= r.maxY
                    }
                    guard let top = rects.lastIndex(where: { inside($0.1) }) else { continue }
                    let coveredLater = rects[(top + 1)...].contains { $0.1.intersection(square) != nil }
                    guard !coveredLater else { continue }
                    checked += 1
                    #expect(frame[x, y] == rects[top].0, "trial \(trial) pixel (\(x), \(y))")
                }
                _ = checked
            }
        }
    }

    @Test("a scene holding only an image, as large as the scene, renders exactly as tileview zoom renders the image")
    func loneImageSceneEqualsTheImage() throws {
        try TemporaryFolder.with("scene-lone") { dir in
            let files = ["jpeg/gen_chelsea_420_q90.jpg", "png/basi6a08.png", "jpeg/exif_Landscape_6.jpg"]
            var rng = SplitMix64(seed: 3)
            for (n, file) in files.enumerated() {
                let image = Fixtures.corpusRoot.appendingPathComponent(file).path
                let size = try TiledImage(path: image).imageSize
                let path = try Self.writeScene(
                    #"{"width": \#(size.width), "height": \#(size.height), "layers": [{"image": "\#(image)", "center": [\#(Double(size.width) / 2), \#(Double(size.height) / 2)]}]}"#,
                    in: dir, name: "lone-\(n).json")
                for _ in 0..<4 {
                    let viewport = PixelSize(width: 40 + rng.int(below: 300), height: 40 + rng.int(below: 300))
                    let gestures = Self.gestures(&rng, viewport: viewport.asSize)
                    let background = RGBA8(r: 10, g: 20, b: 30)
                    let view = ViewSettings(viewport: viewport, maximumScale: 3, background: background)
                    let scene = ZoomSession(image: try ZoomContentFiles.open(path, cacheBudgetBytes: 0), view: view)
                    let plain = ZoomSession(image: try TiledImage(path: image, cacheBudgetBytes: 0), view: view)
                    for g in gestures {
                        try scene.apply(g)
                        try plain.apply(g)
                    }
                    let same = try scene.render().image == plain.render().image
                    #expect(same, "\(file) after \(gestures)")
                }
            }
        }
    }

    @Test("an image layer shows the pixels a zoom of the image shows at the layer's scale and position")
    func imageLayerPixelsAreTheImagesZoom() throws {
        try TemporaryFolder.with("scene-layer") { dir in
            let image = Fixtures.sampleImages.appendingPathComponent("chelsea.png").path
            let tiled = try TiledImage(path: image)
            let path = try Self.writeScene(
                #"""
                {"width": 900, "height": 700, "background": "336699", "layers": [
                  {"color": "FF0000", "rect": [0, 0, 900, 80]},
                  {"image": "\#(image)", "center": [450, 350]},
                  {"image": "\#(image)", "rect": [10, 500, 300, 150], "mode": "fill"}]}
                """#, in: dir)
            let layerFrames = [
                Rect(x: 450 - 225.5, y: 350 - 150, width: 451, height: 300),
                Rect(x: 10, y: 500, width: 300, height: 150),
            ]
            var rng = SplitMix64(seed: 5)
            var compared = 0
            for _ in 0..<8 {
                let viewport = PixelSize(width: 100 + rng.int(below: 300), height: 100 + rng.int(below: 300))
                let session = ZoomSession(
                    image: try ZoomContentFiles.open(path, cacheBudgetBytes: 0),
                    view: ViewSettings(viewport: viewport, maximumScale: 3))
                for g in Self.gestures(&rng, viewport: viewport.asSize) { try session.apply(g) }
                let frame = try session.render().image
                let s = session.state.zoomScale
                let origin = session.state.imageFrame.origin
                for layerFrame in layerFrames {
                    // The zoom of the image alone at the layer's scale and position: the same renderer, the same level.
                    let scaleX = layerFrame.width / Double(tiled.imageSize.width) * s
                    let scaleY = layerFrame.height / Double(tiled.imageSize.height) * s
                    let level = tiled.pyramid.level(forZoomScale: max(scaleX, scaleY))
                    let levelSize = tiled.pyramid.levelSize(ofLevel: level)
                    let geometry = FrameGeometry(
                        frameSize: viewport, zoomScale: scaleX, zoomScaleY: scaleY,
                        imageFrameOrigin: Point(x: origin.x + layerFrame.minX * s, y: origin.y + layerFrame.minY * s),
                        imageSize: tiled.imageSize, levelSize: levelSize)
                    guard let pixels = try tiled.region(PixelRect(size: levelSize), level: level) else { continue }
                    let reference = FrameRenderer(geometry: geometry).render(
                        source: pixels.buffer, sourceOrigin: pixels.origin)
                    // Pixels wholly inside the layer's frame (a pixel away from its edges) are the image's zoom.
                    let inner = geometry.imageFrame
                    for y in 0..<viewport.height where Double(y) >= inner.minY + 1 && Double(y) + 2 <= inner.maxY {
                        for x in 0..<viewport.width where Double(x) >= inner.minX + 1 && Double(x) + 2 <= inner.maxX {
                            compared += 1
                            if frame[x, y] != reference[x, y] {
                                Issue.record("pixel (\(x), \(y)) of \(layerFrame) at scale \(s)")
                                return
                            }
                        }
                    }
                }
            }
            #expect(compared > 10_000)
        }
    }
}
