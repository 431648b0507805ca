import Foundation
import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Scenes on the command line: the tutorial's container as goldens, `info`, and errors that name the file and
/// the layer, with nothing written.
@Suite("Scenes on the command line")
struct SceneCommandTests {
    static let container = Fixtures.sampleImages.appendingPathComponent("container.scene.json").path

    @Test("the tutorial's container: fit at 320x480, a double tap on the green square, a two-finger tap")
    func tutorialContainerGoldens() throws {
        try TemporaryFolder.with("scene") { dir in
            let frames = dir.appendingPathComponent("frames")
            let result = try CommandRunner.run([
                "zoom", Self.container, "--viewport", "320x480", "--tap", "160,240", "--gesture", "two-finger-tap",
                "--frames", frames.path, "--json",
            ])
            #expect(result.status == 0, "\(result)")
            let names = ["fit", "double-tap", "two-finger-tap"]
            for (index, name) in names.enumerated() {
                let file = frames.appendingPathComponent(String(format: "frame-%04d.png", index))
                try Golden.assertImage(try TestPages.pixels(file.path), "scene/container-\(name).png") {
                    try Data(contentsOf: file)
                }
            }
            let state = try JSONDecoder().decode(ZoomSnapshot.self, from: Data(result.stdout.utf8))
            try Golden.assertJSON(state, "scene/container-final.json")
            // After a double tap and a two-finger tap by the same step the scale is back at fit.
            #expect(state.zoomScale == state.minimumZoomScale)
        }
    }

    @Test("the double tap shows the tutorial's second screen: red above, the green square and the image in the middle")
    func doubleTapShowsTheContainer() throws {
        try TemporaryFolder.with("scene") { dir in
            let out = dir.appendingPathComponent("tap.png")
            let result = try CommandRunner.run([
                "zoom", Self.container, "--viewport", "320x480", "--tap", "160,240", "-o", out.path, "--json",
            ])
            #expect(result.status == 0, "\(result)")
            let state = try JSONDecoder().decode(ZoomSnapshot.self, from: Data(result.stdout.utf8))
            #expect(state.zoomScale == 0.75)  // fit 0.5 x 1.5
            let frame = try TestPages.pixels(out.path)
            #expect(frame[160, 10] == RGBA8(r: 255, g: 0, b: 0))  // the red bar at the top
            #expect(frame[160, 470] == RGBA8(r: 0, g: 0, b: 255))  // the blue bar at the bottom
            #expect(frame[160, 122] == RGBA8(r: 0, g: 255, b: 0))  // green above the image: scene y 163
        }
    }

    @Test("info describes a scene with its layers and images")
    func info() throws {
        let text = try CommandRunner.run(["info", Self.container])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("scene 640x640 points, 4 layers (3 colour, 1 image"))
        let json = try CommandRunner.run(["info", "--json", Self.container])
        struct Info: Decodable {
            let format: String
            let width: Double
            let layers: Int
            let images: [Image]
            struct Image: Decodable { let format: String }
        }
        let infos = try JSONDecoder().decode([Info].self, from: Data(json.stdout.utf8))
        #expect(infos.count == 1 && infos[0].format == "scene" && infos[0].layers == 4)
        #expect(infos[0].images.map(\.format) == ["png"])
    }

    static let badScenes: [(name: String, text: String, words: [String])] = [
        (
            "unknown-key", #"{"width": 10, "height": 10, "layers": [{"colour": "FF0000", "rect": [0,0,5,5]}]}"#,
            ["layers[0]", "unknown key \"colour\""]
        ),
        (
            "missing-image",
            #"{"width": 10, "height": 10, "layers": [{"color": "FF0000", "rect": [0,0,5,5]}, {"image": "nowhere.png", "center": [5,5]}]}"#,
            ["layers[1]", "nowhere.png", "No such file"]
        ),
        (
            "negative-size", #"{"width": 10, "height": 10, "layers": [{"color": "FF0000", "rect": [0,0,-5,5]}]}"#,
            ["layers[0]", "negative size"]
        ),
        (
            "bad-colour", #"{"width": 10, "height": 10, "layers": [{"color": "reddish", "rect": [0,0,5,5]}]}"#,
            ["layers[0]", "\"color\"", "RRGGBB"]
        ),
        (
            "not-an-image", #"{"width": 10, "height": 10, "layers": [{"image": "notes.txt", "center": [5,5]}]}"#,
            ["layers[0]", "notes.txt", "not an image file tileview reads"]
        ),
        ("broken-json", "{\"width\": 10,\n\"height\": 10, \"layers\": [}", ["not valid JSON", "line 2"]),
    ]

    @Test(
        "a bad scene exits 1 naming the file, the layer and what is wrong, before anything is written",
        arguments: badScenes.map(\.name))
    func badScene(name: String) throws {
        let spec = try #require(Self.badScenes.first { $0.name == name })
        try TemporaryFolder.with("scene-bad") { dir in
            try Data("some notes\n".utf8).write(to: dir.appendingPathComponent("notes.txt"))
            let scene = dir.appendingPathComponent("\(name).json")
            try Data(spec.text.utf8).write(to: scene)
            let out = dir.appendingPathComponent("out.png")
            let frames = dir.appendingPathComponent("frames")
            let result = try CommandRunner.run(["zoom", scene.path, "-o", out.path, "--frames", frames.path])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("tileview: \(scene.path): scene"), "\(result.stderr)")
            for word in spec.words { #expect(result.stderr.contains(word), "\(result.stderr) lacks \(word)") }
            #expect(!FileManager.default.fileExists(atPath: out.path))
            #expect(!FileManager.default.fileExists(atPath: frames.path))
            let info = try CommandRunner.run(["info", scene.path])
            #expect(info.status == 1 && info.stderr.contains("scene"), "\(info)")
        }
    }

    @Test("a JSON file that is not an object is neither an image nor a scene")
    func jsonArrayIsNotAScene() throws {
        try TemporaryFolder.with("scene-array") { dir in
            let file = dir.appendingPathComponent("list.json")
            try Data("[1, 2, 3]".utf8).write(to: file)
            let result = try CommandRunner.run(["zoom", file.path, "-o", dir.appendingPathComponent("x.png").path])
            #expect(result.status == 1)
            #expect(result.stderr.contains("not an image file tileview reads"), "\(result.stderr)")
        }
    }
}
