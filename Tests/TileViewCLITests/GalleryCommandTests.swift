import Foundation
import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// `tileview gallery` end to end, on small generated pages and the sample photos.
@Suite("tileview gallery")
struct GalleryCommandTests {
    static func run(_ arguments: [String], in dir: URL) throws -> CommandRunner.Result {
        try CommandRunner.run(["gallery"] + arguments, in: dir)
    }

    /// Writes `text` as the file `name` in `dir` (a script, a map).
    static func writeText(_ text: String, as name: String, in dir: URL) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Writes the test pages `names` (`TestPages.write`, `width` x `height`) and the script `script`, as
    /// `scriptName`, into `dir`.
    static func writePages(
        _ names: [String], width: Int = 40, height: Int = 30, script: String, as scriptName: String, in dir: URL
    ) throws {
        try TestPages.write(names, into: dir, width: width, height: height)
        try writeText(script, as: scriptName, in: dir)
    }

    @Test("the classic map walk from 6: left stays, right 7, down 8, down stays, with its records")
    func classicMapWalk() throws {
        try TemporaryFolder.with("gallery-map") { dir in
            let maps = dir.appendingPathComponent("maps")
            try FileManager.default.createDirectory(at: maps, withIntermediateDirectories: true)
            try TestPages.write((1...8).map(String.init), into: maps)
            try Self.writeText("# the classic map\n1 . 2\n3 4 5\n. 6 7\n. . 8\n", as: "classic.map", in: maps)
            let result = try Self.run(
                [
                    "--map", "maps/classic.map", "--start", "6", "--moves", "left,right,down,down", "--viewport",
                    "32x24",
                    "-o", "out", "--json",
                ],
                in: dir)
            #expect(result.status == 0, "\(result)")
            let json = try GalleryJSON.parse(result.stdout)
            #expect(json.steps.map(\.step) == [0, 1, 2, 3, 4])
            #expect(json.steps.map(\.move) == [nil, "left", "right", "down", "down"])
            #expect(json.steps.map(\.page) == ["6", "6", "7", "8", "8"])
            #expect(json.steps.map(\.cell) == [[1, 2], [1, 2], [2, 2], [2, 3], [2, 3]])
            #expect(json.steps.map(\.resident) == [["6", "7"], ["6", "7"], ["6", "7"], ["7", "8"], ["7", "8"]])
            #expect(json.steps.map(\.loaded) == [["6", "7"], [], [], ["8"], []])
            #expect(json.steps.map(\.evicted) == [[], [], [], ["6"], []])
            #expect(json.steps.map(\.frame) == (0...4).map { "out/frame-000\($0).png" })
            #expect(json.summary.frames == 5 && json.summary.maxResident == 2)
            #expect(TestPages.frames(in: dir.appendingPathComponent("out")).count == 5)
            for k in 0...4 {
                let frame = try TestPages.pixels(dir.appendingPathComponent("out/frame-000\(k).png").path)
                #expect(frame.size == PixelSize(width: 32, height: 24))
            }
        }
    }

    @Test("linear lists stop at both ends; --dir takes PNG and JPEG files in natural name order")
    func linearEndsAndFolderOrder() throws {
        try TemporaryFolder.with("gallery-linear") { dir in
            let pages = dir.appendingPathComponent("pages")
            try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
            try TestPages.write(["img10.png", "img2.PNG", "img1.png"], into: pages)
            try Self.writeText("not a page", as: "notes.txt", in: pages)
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                to: pages.appendingPathComponent("img3.jpg")
            )
            let result = try Self.run(
                [
                    "--dir", "pages", "--moves", "prev,next,next,next,next,prev", "--viewport", "24x16", "-o", "out",
                    "--json",
                ], in: dir)
            #expect(result.status == 0, "\(result)")
            let json = try GalleryJSON.parse(result.stdout)
            #expect(
                json.steps.map(\.page) == [
                    "img1.png", "img1.png", "img2.PNG", "img3.jpg", "img10.png", "img10.png", "img3.jpg",
                ])
            #expect(json.steps.allSatisfy { $0.cell == nil })
            #expect(json.steps[1].loaded.isEmpty && json.steps[5].loaded.isEmpty && json.steps[5].evicted.isEmpty)
            let started = try Self.run(
                ["--dir", "pages", "--start", "img3.jpg", "--viewport", "24x16", "-o", "out2", "--json"], in: dir)
            #expect(
                try GalleryJSON.parse(started.stdout).steps.map(\.resident) == [["img2.PNG", "img3.jpg", "img10.png"]])
        }
    }

    @Test("circular lists wrap both ways with 1, 2, 3 and 10 pages", arguments: [1, 2, 3, 10])
    func circularWrap(count: Int) throws {
        try TemporaryFolder.with("gallery-circular") { dir in
            let names = (0..<count).map { "p\($0).png" }
            try TestPages.write(names, into: dir, width: 8, height: 6)
            for (word, step) in [("next", 1), ("prev", -1)] {
                let moves = Array(repeating: word, count: count + 1).joined(separator: ",")
                let result = try Self.run(
                    names + ["--circular", "--moves", moves, "--viewport", "8x6", "-o", "out-\(word)", "--json"],
                    in: dir)
                #expect(result.status == 0, "\(result)")
                let json = try GalleryJSON.parse(result.stdout)
                let expected = (0...count + 1).map { names[(($0 * step) % count + count) % count] }
                #expect(json.steps.map(\.page) == expected, "\(word) over \(count)")
                #expect(json.steps.allSatisfy { $0.resident.count == min(count, 3) && $0.resident.contains($0.page) })
                #expect(json.summary.maxResident == min(count, 3))
            }
        }
    }

    @Test("peeking frames: neighbours at the sides, gaps, and a transition, against golden PNGs")
    func peekGoldens() throws {
        try TemporaryFolder.with("gallery-peek") { dir in
            let files = ["rocket.jpg", "coffee.png", "hubble_deep_field.jpg"].map {
                Fixtures.sampleImages.appendingPathComponent($0).path
            }
            let result = try Self.run(
                files + [
                    "--viewport", "240x160", "--peek", "24", "--gap", "8", "--transition-frames", "1", "--moves",
                    "next",
                    "--background", "202020", "-o", "out",
                ], in: dir)
            #expect(result.status == 0, "\(result)")
            // The first page with its right neighbour peeking, the transition frame, the middle page at rest.
            let frames = TestPages.frames(in: dir.appendingPathComponent("out"))
            #expect(frames.count == 3)
            for name in frames {
                let produced = dir.appendingPathComponent("out").appendingPathComponent(name)
                let pixels = try TestPages.pixels(produced.path)
                #expect(pixels.size == PixelSize(width: 240, height: 160))
                try Golden.assertImage(pixels, "gallery/peek-" + name) { try Data(contentsOf: produced) }
            }
        }
    }

    @Test("transition frames each show parts of both pages")
    func transitionFrames() throws {
        try TemporaryFolder.with("gallery-transition") { dir in
            let red = RGBA8(r: 230, g: 10, b: 10)
            let blue = RGBA8(r: 10, g: 10, b: 230)
            try TestPages.writePNG(
                ImageBuffer(width: 48, height: 32, fill: red), to: dir.appendingPathComponent("red.png"))
            try TestPages.writePNG(
                ImageBuffer(width: 48, height: 32, fill: blue), to: dir.appendingPathComponent("blue.png"))
            let result = try Self.run(
                [
                    "red.png", "blue.png", "--viewport", "48x32", "--transition-frames", "3", "--moves", "next,prev",
                    "-o",
                    "out", "--json",
                ],
                in: dir)
            #expect(result.status == 0, "\(result)")
            let json = try GalleryJSON.parse(result.stdout)
            #expect(json.steps.count == 1 + 4 + 4)
            let between = json.steps.filter { $0.transition != nil }
            #expect(between.map { $0.transition!.index } == [1, 2, 3, 1, 2, 3])
            #expect(
                between.prefix(3).allSatisfy { $0.transition!.from == "red.png" && $0.transition!.to == "blue.png" })
            for step in between {
                let frame = try TestPages.pixels(dir.appendingPathComponent(step.frame!).path)
                let pixels = (0..<frame.height).flatMap { y in (0..<frame.width).map { frame[$0, y] } }
                #expect(pixels.contains(red) && pixels.contains(blue), "frame \(step.step)")
            }
            let rest = try TestPages.pixels(dir.appendingPathComponent("out/frame-0004.png").path)
            #expect(rest[0, 16] == blue && rest[47, 16] == blue)
        }
    }

    @Test("drags: a fling goes to the neighbour; a slow drag settles on the nearest page")
    func drags() throws {
        try TemporaryFolder.with("gallery-drag") { dir in
            let names = ["a.png", "b.png", "c.png"]
            let script = """
                # viewport 100 wide: the finger moves left to head for the next page
                drag -20,0 velocity 0.5,0
                drag -20,0 velocity 0.05,0
                drag -60,0
                drag 10,0 velocity -0.3,0
                drag 0,-80 velocity 0,2
                drag -90,0 velocity 1,0
                """
            try Self.writePages(names, script: script, as: "walk.txt", in: dir)
            let result = try Self.run(
                names + ["--script", "walk.txt", "--viewport", "100x60", "-o", "out", "--json"], in: dir)
            #expect(result.status == 0, "\(result)")
            let json = try GalleryJSON.parse(result.stdout)
            #expect(json.steps.map(\.page) == ["a.png", "b.png", "b.png", "c.png", "b.png", "b.png", "c.png"])
            #expect(json.steps[1].move == "drag -20,0 velocity 0.5,0")
            #expect(json.steps[5].move == "drag 0,-80 velocity 0,2")
        }
    }

    @Test("a page keeps its zoom while resident and starts at fit when it comes back")
    func zoomMemory() throws {
        try TemporaryFolder.with("gallery-zoom") { dir in
            let names = (0..<5).map { "z\($0).png" }
            try Self.writePages(
                names, width: 120, height: 90, script: "double-tap 20,15\nnext\nprev\nnext\nnext\nprev\nprev\n",
                as: "zoom.txt", in: dir)
            let result = try Self.run(
                names + ["--script", "zoom.txt", "--viewport", "40x30", "-o", "out", "--json"], in: dir)
            #expect(result.status == 0, "\(result)")
            let scales = try GalleryJSON.parse(result.stdout).steps.map(\.zoomScale)
            #expect(scales[1] > scales[0])
            #expect(scales[3] == scales[1], "still resident after one page away")
            #expect(scales[7] == scales[0], "evicted two pages away: back at fit")
        }
    }

    @Test("the first frame is what tileview zoom shows for the first page")
    func firstFrameIsTheZoomFrame() throws {
        try TemporaryFolder.with("gallery-first") { dir in
            let page = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
            let gallery = try Self.run([page, "--viewport", "200x150", "-o", "out"], in: dir)
            let zoom = try CommandRunner.run(["zoom", page, "--viewport", "200x150", "-o", "zoom.png"], in: dir)
            #expect(gallery.status == 0 && zoom.status == 0, "\(gallery) \(zoom)")
            #expect(gallery.stdout == "out: 1 frame\n")
            #expect(gallery.stderr.isEmpty, "no progress line when standard error is not a terminal")
            #expect(
                try TestPages.pixels(dir.appendingPathComponent("out/frame-0000.png").path)
                    == TestPages.pixels(dir.appendingPathComponent("zoom.png").path))
        }
    }

    @Test("shards K/N together give exactly the frames and steps of the unsharded run")
    func shardsReassemble() throws {
        try TemporaryFolder.with("gallery-shards") { dir in
            let names = (0..<4).map { "s\($0).png" }
            try Self.writePages(
                names, width: 90, height: 60,
                script: "next\ndouble-tap 10,10\nnext\ndrag -30,0 velocity 0.4,0\nprev\npan 5,0\nprev\nprev\n",
                as: "walk.txt", in: dir)
            let common =
                names + [
                    "--script", "walk.txt", "--viewport", "48x32", "--peek", "6", "--transition-frames", "2", "--json",
                ]
            let whole = try Self.run(common + ["-o", "whole"], in: dir)
            #expect(whole.status == 0, "\(whole)")
            let wholeSteps = try GalleryJSON.parse(whole.stdout).steps
            var merged: [GalleryJSON.Step] = []
            for k in 0..<3 {
                let shard = try Self.run(common + ["-o", "sharded", "--shard", "\(k)/3"], in: dir)
                #expect(shard.status == 0, "\(shard)")
                let json = try GalleryJSON.parse(shard.stdout)
                #expect(json.steps.allSatisfy { $0.step % 3 == k } && json.summary.shard == "\(k)/3")
                #expect(json.summary.frames == json.steps.count)
                merged += json.steps
            }
            func named(_ steps: [GalleryJSON.Step]) -> [String] {
                steps.sorted { $0.step < $1.step }.map { step in
                    "\(step.step) \(step.move ?? "-") \(step.page) \(step.resident) \(step.loaded) \(step.evicted) \(step.zoomScale) "
                        + "\(step.transition.map { "\($0.index)/\($0.of) \($0.fraction)" } ?? "") \(step.frame!.split(separator: "/").last!)"
                }
            }
            #expect(wholeSteps.count > 12)
            #expect(named(merged) == named(wholeSteps))
            let wholeFrames = TestPages.frames(in: dir.appendingPathComponent("whole"))
            #expect(TestPages.frames(in: dir.appendingPathComponent("sharded")) == wholeFrames)
            for name in wholeFrames {
                let a = try Data(contentsOf: dir.appendingPathComponent("whole").appendingPathComponent(name))
                let b = try Data(contentsOf: dir.appendingPathComponent("sharded").appendingPathComponent(name))
                #expect(a == b, "\(name)")
            }
        }
    }

    /// Invocations that must fail before any frame: arguments, exit status, words the message must hold.
    static let failures: [(arguments: [String], status: Int32, message: String)] = [
        (["p0.png", "--moves", "next,jump"], 64, "jump"),
        (["p0.png", "p1.png", "--start", "2"], 64, "--start"),
        (["p0.png", "--start", "p9.png"], 64, "p9.png"),
        (["p0.png", "--moves", "next", "--script", "walk.txt"], 64, "not both"),
        (["--viewport", "10x10"], 64, "FILES"),
        (["p0.png", "--dir", "."], 64, "one way"),
        (["p0.png", "--shard", "3/3"], 64, "--shard"),
        (["p0.png", "--peek", "-1"], 64, "--peek"),
        (["--map", "grid.map", "--circular"], 64, "--circular"),
        (["--map", "missing.map"], 1, "missing.map"),
        (["--map", "holes.map"], 1, "holes.map"),
        (["p0.png", "--script", "missing.txt"], 1, "missing.txt"),
        (["p0.png", "--script", "bad.txt"], 1, "line 2"),
        (["p0.png", "nope.png", "--moves", "next"], 1, "nope.png"),
        (["p0.png", "garbage.png"], 1, "garbage.png"),
        (["--dir", "empty"], 1, "empty"),
        (["--dir", "no-such-folder"], 1, "no-such-folder"),
    ]

    @Test("usage and file errors come before any frame, with exit 64 or 1 and a message naming the problem")
    func errorsBeforeAnyFrame() throws {
        try TemporaryFolder.with("gallery-errors") { dir in
            try TestPages.write(["p0.png", "p1.png"], into: dir)
            try Data((0..<64).map { UInt8($0 * 7 % 256) }).write(to: dir.appendingPathComponent("garbage.png"))
            for (text, name) in [
                ("next\nleap 3\n", "bad.txt"), ("next\n", "walk.txt"), (". .\n. .\n", "holes.map"),
                ("p0.png p1.png\n", "grid.map"),
            ] {
                try Self.writeText(text, as: name, in: dir)
            }
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
            for (k, failure) in Self.failures.enumerated() {
                let out = "out-\(k)"
                let result = try Self.run(failure.arguments + ["-o", out], in: dir)
                #expect(result.status == failure.status, "\(failure.arguments): \(result)")
                #expect(result.stderr.contains(failure.message), "\(failure.arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(failure.arguments)")
                #expect(
                    TestPages.frames(in: dir.appendingPathComponent(out)).isEmpty,
                    "\(failure.arguments) wrote frames")
            }
        }
    }

    @Test("a page that fails to decode mid-run stops the run with exit 1, naming the file; written frames are whole")
    func damagedPageMidRun() throws {
        try TemporaryFolder.with("gallery-damaged") { dir in
            try TestPages.write(["a.png", "b.png"], into: dir, width: 200, height: 150)
            let bytes = try Data(contentsOf: dir.appendingPathComponent("b.png"))
            try bytes.prefix(bytes.count * 2 / 3).write(to: dir.appendingPathComponent("b.png"))
            let result = try Self.run(
                ["a.png", "b.png", "--moves", "next", "--viewport", "50x40", "-o", "out"], in: dir)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("b.png"), "\(result.stderr)")
            for name in TestPages.frames(in: dir.appendingPathComponent("out")) {
                #expect(
                    try TestPages.pixels(dir.appendingPathComponent("out").appendingPathComponent(name).path).width
                        == 50)
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path)
            #expect(
                leftovers.allSatisfy { ($0.hasPrefix("frame-") && $0.hasSuffix(".png")) || $0 == ".tileview-journal" },
                "no temporary files (the journal of finished frames stays, for --resume): \(leftovers)")
        }
    }
}
