import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Motion, rotation and sharp pixels on the command line (docs/design.md section 12): what --animate writes, that the
/// final state never depends on it, that a turned view is the view of the turned image, and --filter nearest.
@Suite("tileview zoom: motion, rotation, nearest")
struct ZoomMotionCommandTests {
    static let coffee = Fixtures.sampleImages.appendingPathComponent("coffee.png").path

    func zoom(_ arguments: [String]) throws -> (result: CommandRunner.Result, state: ZoomSnapshot?) {
        let result = try CommandRunner.run(["zoom"] + arguments + ["--json"])
        let state = try? JSONDecoder().decode(ZoomSnapshot.self, from: Data(result.stdout.utf8))
        return (result, state)
    }

    @Test(
        "--animate writes round(0.3 fps) frames per animated gesture; the last frame and state are the unanimated ones")
    func animatedTapsWriteTheirFrames() throws {
        try TemporaryFolder.with("motion") { dir in
            let gestures = ["--viewport", "320x240", "--tap", "100,100", "--gesture", "two-finger-tap"]
            for fps in [30, 60] {
                let animated = dir.appendingPathComponent("animated-\(fps)")
                let plain = dir.appendingPathComponent("plain-\(fps)")
                let a = try zoom(
                    [Self.coffee] + gestures + [
                        "--animate", "--fps", "\(fps)", "--frames", animated.path, "-o",
                        dir.appendingPathComponent("a.png").path,
                    ])
                let p = try zoom(
                    [Self.coffee] + gestures + ["--frames", plain.path, "-o", dir.appendingPathComponent("p.png").path])
                #expect(a.result.status == 0 && p.result.status == 0, "\(a.result) \(p.result)")
                let perGesture = Int((0.3 * Double(fps)).rounded())
                let animatedFrames = TestPages.frames(in: animated)
                #expect(animatedFrames.count == 1 + 2 * perGesture)
                #expect(TestPages.frames(in: plain).count == 3)
                #expect(a.state != nil && a.state == p.state)
                let plainFrames = TestPages.frames(in: plain)
                func bytes(_ folder: URL, _ name: String) throws -> Data {
                    try Data(contentsOf: folder.appendingPathComponent(name))
                }
                #expect(try bytes(animated, animatedFrames.last!) == bytes(plain, plainFrames.last!))
                // The tap's last frame is the plain run's frame after the tap.
                #expect(try bytes(animated, animatedFrames[perGesture]) == bytes(plain, plainFrames[1]))
            }
        }
    }

    @Test("a fling decelerates to the same rest state with or without --animate and --bounce")
    func flingRestsWhereverItIsDrawn() throws {
        try TemporaryFolder.with("fling") { dir in
            let gestures = ["--viewport", "320x240", "--tap", "160,120", "--gesture", "pan -40,0 velocity -1.5,0.4"]
            let plain = try zoom([Self.coffee] + gestures)
            let bounced = dir.appendingPathComponent("bounced")
            let animated = try zoom(
                [Self.coffee] + gestures + ["--animate", "--bounce", "--fps", "30", "--frames", bounced.path])
            #expect(plain.result.status == 0 && animated.result.status == 0, "\(animated.result)")
            #expect(plain.state != nil && plain.state == animated.state)
            // A fling at 1.5 points/ms against the right edge: many frames, the first ones after the tap moving.
            #expect(TestPages.frames(in: bounced).count > 10)
            // The fling moved the content further than the finger's 40 pixels.
            let tapped = try zoom([Self.coffee, "--viewport", "320x240", "--tap", "160,120"]).state
            let moved = try #require(plain.state).contentOffset.x - (try #require(tapped).contentOffset.x)
            #expect(moved > 40)
        }
    }

    @Test("a turned view is the view of the turned image; four quarter turns give the upright view back")
    func rotationTurnsTheImage() throws {
        try TemporaryFolder.with("rotate") { dir in
            let source = try TestPages.pixels(Self.coffee)
            // The image turned 90 degrees clockwise, written as a file of its own.
            var turned = ImageBuffer(width: source.height, height: source.width)
            for y in 0..<source.height {
                for x in 0..<source.width { turned[source.height - 1 - y, x] = source[x, y] }
            }
            let turnedFile = dir.appendingPathComponent("turned.png")
            try TestPages.writePNG(turned, to: turnedFile)
            for extra in [[], ["--tap", "100,80"]] {
                let a = dir.appendingPathComponent("a.png").path
                let b = dir.appendingPathComponent("b.png").path
                let rotated = try zoom(
                    [Self.coffee, "--viewport", "300x200", "--gesture", "rotate 90"] + extra + ["-o", a])
                let plain = try zoom([turnedFile.path, "--viewport", "300x200"] + extra + ["-o", b])
                #expect(rotated.result.status == 0 && plain.result.status == 0, "\(rotated.result)")
                #expect(try TestPages.pixels(a) == TestPages.pixels(b), "after \(extra)")
                #expect(rotated.state?.image == plain.state?.image)
                #expect(rotated.state?.rotation == 90)
            }
            // Four turns: exact at fit, and zoomed in a square viewport (where no turn clamps the view).
            let turns = Array(repeating: ["--gesture", "rotate 90"], count: 4).flatMap { $0 }
            for before in [["--viewport", "300x200"], ["--viewport", "200x200", "--tap", "90,70"]] {
                let c = dir.appendingPathComponent("c.png").path
                let d = dir.appendingPathComponent("d.png").path
                let four = try zoom([Self.coffee] + before + turns + ["-o", c])
                let none = try zoom([Self.coffee] + before + ["-o", d])
                #expect(four.result.status == 0, "\(four.result)")
                #expect(four.state == none.state && four.state?.rotation == nil)
                #expect(try Data(contentsOf: URL(fileURLWithPath: c)) == Data(contentsOf: URL(fileURLWithPath: d)))
            }
        }
    }

    @Test("--filter nearest at 4x: every frame pixel is one source pixel")
    func nearestShowsSourcePixels() throws {
        try TemporaryFolder.with("nearest") { dir in
            var rng = SplitMix64(seed: 9)
            var source = ImageBuffer(width: 40, height: 30)
            for y in 0..<30 {
                for x in 0..<40 {
                    source[x, y] = RGBA8(
                        r: UInt8(rng.int(below: 256)), g: UInt8(rng.int(below: 256)), b: UInt8(rng.int(below: 256)))
                }
            }
            let file = dir.appendingPathComponent("noise.png")
            try TestPages.writePNG(source, to: file)
            let out = dir.appendingPathComponent("sharp.png").path
            let smooth = dir.appendingPathComponent("smooth.png").path
            // 160x120 showing the 40x30 image at 4x: zoom-to the whole image with --max-scale 4.
            let base = [file.path, "--viewport", "160x120", "--max-scale", "4", "--gesture", "zoom-to 0,0,40,30"]
            #expect(try zoom(base + ["--filter", "nearest", "-o", out]).state?.zoomScale == 4)
            _ = try zoom(base + ["-o", smooth])
            let frame = try TestPages.pixels(out)
            for y in 0..<120 {
                for x in 0..<160 where frame[x, y] != source[x / 4, y / 4] {
                    Issue.record("(\(x), \(y)) is \(frame[x, y]), not source pixel (\(x / 4), \(y / 4))")
                    return
                }
            }
            #expect(try TestPages.pixels(smooth) != frame)
        }
    }

    @Test("a turned scene is the scene turned: its rects move with the container, its images turn with it")
    func scenesTurn() throws {
        try TemporaryFolder.with("scene-turn") { dir in
            // 300x200 with rects; turned clockwise by hand: (x, y, w, h) -> (200 - y - h, x, h, w) in a 200x300.
            let upright =
                #"{"width": 300, "height": 200, "background": "FFFFFF", "layers": [{"color": "FF0000", "rect": [0, 0, 300, 30]}, {"color": "00FF0080", "rect": [50, 60, 120, 90]}]}"#
            let turned =
                #"{"width": 200, "height": 300, "background": "FFFFFF", "layers": [{"color": "FF0000", "rect": [170, 0, 30, 300]}, {"color": "00FF0080", "rect": [50, 50, 90, 120]}]}"#
            let a = dir.appendingPathComponent("upright.json")
            let b = dir.appendingPathComponent("turned.json")
            try Data(upright.utf8).write(to: a)
            try Data(turned.utf8).write(to: b)
            for extra in [[], ["--tap", "70,90"]] {
                let x = dir.appendingPathComponent("x.png").path
                let y = dir.appendingPathComponent("y.png").path
                let one = try zoom([a.path, "--viewport", "160x240", "--gesture", "rotate 90"] + extra + ["-o", x])
                let two = try zoom([b.path, "--viewport", "160x240"] + extra + ["-o", y])
                #expect(one.result.status == 0 && two.result.status == 0, "\(one.result)")
                #expect(try TestPages.pixels(x) == TestPages.pixels(y), "after \(extra)")
            }
            // The tutorial's container: four turns at fit give the upright frame; one turn puts the red bar right.
            let scene = Fixtures.sampleImages.appendingPathComponent("container.scene.json").path
            let c = dir.appendingPathComponent("c.png").path
            let d = dir.appendingPathComponent("d.png").path
            let e = dir.appendingPathComponent("e.png").path
            let turns = Array(repeating: ["--gesture", "rotate 90"], count: 4).flatMap { $0 }
            _ = try zoom([scene, "--viewport", "320x480"] + turns + ["-o", c])
            _ = try zoom([scene, "--viewport", "320x480", "-o", d])
            #expect(try Data(contentsOf: URL(fileURLWithPath: c)) == Data(contentsOf: URL(fileURLWithPath: d)))
            _ = try zoom([scene, "--viewport", "320x480", "--gesture", "rotate 90", "-o", e])
            let frame = try TestPages.pixels(e)
            // At fit 0.5 the 640x640 container fills 320x320 from y = 80; the red bar is now its right 40 pixels.
            #expect(frame[310, 240] == RGBA8(r: 255, g: 0, b: 0) && frame[10, 240] == RGBA8(r: 0, g: 0, b: 255))
        }
    }

    @Test("motion options that do nothing are usage errors")
    func usageAndSceneRotation() throws {
        let file = Self.coffee
        for arguments in [
            ["--animate"], ["--bounce"], ["--animate", "--fps", "0", "--frames", "/tmp/x"], ["--filter", "blurry"],
        ] {
            let result = try CommandRunner.run(["zoom", file] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
    }

    @Test("a gallery page turns as tileview zoom turns it and keeps its turn while resident; a scene is a page")
    func galleryPagesTurnAndScenesArePages() throws {
        try TemporaryFolder.with("gallery-turn") { dir in
            let rocket = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
            let scene = Fixtures.sampleImages.appendingPathComponent("container.scene.json").path
            let coffee = Self.coffee
            try Data("rotate 90\ndouble-tap 100,60\nnext\nprev\nnext\nnext\nprev\n".utf8).write(
                to: dir.appendingPathComponent("walk.txt"))
            let gallery = try CommandRunner.run(
                ["gallery", rocket, scene, coffee, "--viewport", "200x150", "--script", "walk.txt", "-o", "out"],
                in: dir)
            #expect(gallery.status == 0, "\(gallery)")
            func frame(_ n: Int) throws -> ImageBuffer {
                try TestPages.pixels(dir.appendingPathComponent(String(format: "out/frame-%04d.png", n)).path)
            }
            func zoomed(_ file: String, _ gestures: [String], _ name: String) throws -> ImageBuffer {
                let result = try CommandRunner.run(
                    ["zoom", file, "--viewport", "200x150", "-o", name] + gestures.flatMap { ["--gesture", $0] },
                    in: dir)
                #expect(result.status == 0, "\(result)")
                return try TestPages.pixels(dir.appendingPathComponent(name).path)
            }
            // Frames: 0 fit, 1 turned, 2 turned and tapped, 3 the scene, 4 back (turn and tap kept), 5 the scene,
            // 6 coffee (rocket evicted), 7 the scene again.
            #expect(try frame(1) == zoomed(rocket, ["rotate 90"], "r1.png"))
            #expect(try frame(2) == zoomed(rocket, ["rotate 90", "double-tap 100,60"], "r2.png"))
            #expect(try frame(3) == zoomed(scene, [], "s.png"))
            #expect(try frame(4) == frame(2), "the page keeps its turn and zoom while resident")
            #expect(try frame(5) == frame(3))
            #expect(try frame(6) == zoomed(coffee, [], "c.png"))
            #expect(try frame(7) == frame(3))
        }
    }
}
