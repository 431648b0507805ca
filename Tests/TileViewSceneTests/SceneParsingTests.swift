import Testing
import TileViewCore
import TileViewScene
import TileViewTestSupport

@Suite("Scene files: parsing and errors")
struct SceneParsingTests {
    static let tutorial = """
        {"width": 640, "height": 640, "background": "FFFFFF",
         "layers": [{"color": "FF0000", "rect": [0, 0, 640, 80]},
                    {"color": "0000FF", "rect": [0, 560, 640, 80]},
                    {"color": "00FF0080", "rect": [160, 160, 320, 320]},
                    {"image": "slow.png", "center": [320, 320]},
                    {"image": "photo.jpg", "rect": [20, 100, 200, 150], "mode": "aspect-fit"}]}
        """

    func parse(_ text: String) throws(SceneError) -> Scene { try Scene(parsing: Array(text.utf8)) }

    @Test func parsesTheDesignExample() throws {
        let scene = try parse(Self.tutorial)
        #expect(scene.size == Size(width: 640, height: 640))
        #expect(scene.background == RGBA8(r: 255, g: 255, b: 255))
        #expect(scene.layers.count == 5)
        #expect(scene.layers[0] == .color(RGBA8(r: 255, g: 0, b: 0), rect: Rect(x: 0, y: 0, width: 640, height: 80)))
        #expect(
            scene.layers[2]
                == .color(RGBA8(r: 0, g: 255, b: 0, a: 0x80), rect: Rect(x: 160, y: 160, width: 320, height: 320)))
        #expect(scene.layers[3] == .image(path: "slow.png", placement: .center(Point(x: 320, y: 320))))
        #expect(
            scene.layers[4]
                == .image(
                    path: "photo.jpg", placement: .rect(Rect(x: 20, y: 100, width: 200, height: 150), mode: .aspectFit))
        )
        #expect(scene.imagePaths == ["slow.png", "photo.jpg"])
    }

    @Test func defaultsAreTransparentAndFill() throws {
        let scene = try parse(#"{"width": 10.5, "height": 4, "layers": [{"image": "a.png", "rect": [0, 0, 1, 1]}]}"#)
        #expect(scene.background == nil)
        #expect(
            scene.layers == [
                .image(path: "a.png", placement: .rect(Rect(x: 0, y: 0, width: 1, height: 1), mode: .fill))
            ])
    }

    /// Each bad scene and the words its error must contain (layer and what is wrong).
    static let bad: [(String, [String])] = [
        (#"[1, 2]"#, ["JSON object"]),
        (#"{"width": 10, "height": 10}"#, ["missing \"layers\""]),
        (#"{"height": 10, "layers": []}"#, ["missing \"width\""]),
        (#"{"width": 0, "height": 10, "layers": []}"#, ["\"width\"", "above 0"]),
        (#"{"width": -5, "height": 10, "layers": []}"#, ["\"width\""]),
        (#"{"width": 10, "height": 1e9, "layers": []}"#, ["\"height\"", "at most"]),
        (#"{"width": "10", "height": 10, "layers": []}"#, ["\"width\" must be a number"]),
        (#"{"width": 10, "height": 10, "layers": [], "depth": 3}"#, ["unknown key \"depth\""]),
        (#"{"width": 10, "height": 10, "background": "red", "layers": []}"#, ["\"background\"", "RRGGBB"]),
        (#"{"width": 10, "height": 10, "layers": {}}"#, ["\"layers\" must be an array"]),
        (#"{"width": 10, "height": 10, "layers": [3]}"#, ["layers[0]", "an object"]),
        (
            #"{"width": 10, "height": 10, "layers": [{"colour": "FF0000", "rect": [0,0,1,1]}]}"#,
            ["layers[0]", "unknown key \"colour\""]
        ),
        (#"{"width": 10, "height": 10, "layers": [{"color": "FF0000"}]}"#, ["layers[0]", "needs \"rect\""]),
        (
            #"{"width": 10, "height": 10, "layers": [{"color": "FF00", "rect": [0,0,1,1]}]}"#,
            ["layers[0]", "\"color\"", "RRGGBB"]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"color": "GG0000", "rect": [0,0,1,1]}]}"#,
            ["layers[0]", "\"color\""]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"color": "FF0000", "rect": [0,0,1]}]}"#,
            ["layers[0]", "4 numbers"]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"color": "FF0000", "rect": [0,0,-1,1]}]}"#,
            ["layers[0]", "negative size"]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"color": "FF0000", "rect": [0,0,1,1]}, {"image": "a.png"}]}"#,
            ["layers[1]", "\"rect\" or \"center\""]
        ),
        (#"{"width": 10, "height": 10, "layers": [{"image": "", "center": [1,1]}]}"#, ["layers[0]", "\"image\""]),
        (#"{"width": 10, "height": 10, "layers": [{"image": 4, "center": [1,1]}]}"#, ["layers[0]", "\"image\""]),
        (
            #"{"width": 10, "height": 10, "layers": [{"image": "a.png", "center": [1,1], "rect": [0,0,1,1]}]}"#,
            ["layers[0]", "not both"]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"image": "a.png", "center": [1,1], "mode": "fill"}]}"#,
            ["layers[0]", "\"mode\""]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"image": "a.png", "rect": [0,0,1,1], "mode": "stretch"}]}"#,
            ["layers[0]", "\"mode\"", "aspect-fit"]
        ),
        (
            #"{"width": 10, "height": 10, "layers": [{"image": "a.png", "color": "FFFFFF", "rect": [0,0,1,1]}]}"#,
            ["layers[0]", "not both"]
        ),
        (#"{"width": 10, "height": 10, "layers": [{}]}"#, ["layers[0]", "needs \"color\""]),
        (#"{"width": 10, "height": 10, "layers": [], }"#, ["not valid JSON", "line 1"]),
        (#"{"width": 10, "width": 10, "layers": []}"#, ["not valid JSON", "twice"]),
        ("{\"width\": 10,\n \"height\": 10,\n \"layers\": [01]}", ["line 3", "leading zeros"]),
        (
            #"{"width": 10, "height": 10, "layers": [{"color": "FF0000", "rect": [0,0,1,null]}]}"#,
            ["layers[0]", "4 numbers"]
        ),
        ("", ["not valid JSON"]),
    ]

    @Test(arguments: 0..<bad.count) func badScenesSayWhereAndWhy(_ index: Int) {
        let (text, words) = Self.bad[index]
        do {
            _ = try parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            for word in words { #expect(error.description.contains(word), "\(error.description) lacks \(word)") }
        }
    }

    @Test func sniffsJSONObjectsOnly() {
        #expect(Scene.sniff(Array("  \n{\"width\"".utf8)))
        #expect(Scene.sniff([0xEF, 0xBB, 0xBF] + Array("{".utf8)))
        #expect(!Scene.sniff([0x89, 0x50, 0x4E, 0x47]))
        #expect(!Scene.sniff([0xFF, 0xD8, 0xFF]))
        #expect(!Scene.sniff(Array("[{}]".utf8)))
        #expect(!Scene.sniff([UInt8]()))
    }

    @Test func jsonStringsAndNumbers() throws {
        let value = try JSONValue(
            parsing: Array(#"{"a": "x\u00e9\ud83d\ude00\n", "b": [-0.5e2, 0, true, false, null]}"#.utf8))
        #expect(
            value
                == .object([
                    ("a", .string("xé😀\n")),
                    ("b", .array([.number(-50), .number(0), .bool(true), .bool(false), .null])),
                ]))
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(deep.utf8)) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array("\"a\tb\"".utf8)) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array("1.".utf8)) }
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array("1e999".utf8)) }
    }

    /// Random cuts and byte changes of a good scene never crash the parser: each either parses into a scene that
    /// keeps the parser's rules (a size within the bounds, rects of no negative size, image paths not empty) or
    /// gives an error with a reason that names a layer of the file, if any; the same bytes always give the same
    /// outcome; and the sweep sees both outcomes (the uncut file among the accepted).
    @Test func damagedScenesGiveErrorsNotCrashes() {
        var rng = SplitMix64(seed: 12)
        let good = Array(Self.tutorial.utf8)
        var accepted = 0
        var refused = 0
        for round in 0..<2000 {
            var bytes = Array(good.prefix(round == 0 ? good.count : Int.random(in: 0...good.count, using: &rng)))
            for _ in 0..<(round == 0 ? 0 : Int.random(in: 0...3, using: &rng)) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            let outcome = Result { () throws(SceneError) in try Scene(parsing: bytes) }
            let again = Result { () throws(SceneError) in try Scene(parsing: bytes) }
            #expect(outcome == again, "round \(round): the same bytes, another outcome")
            switch outcome {
            case .success(let scene):
                accepted += 1
                #expect(scene.size.width > 0 && scene.size.width <= Scene.largestSide, "round \(round)")
                #expect(scene.size.height > 0 && scene.size.height <= Scene.largestSide, "round \(round)")
                #expect(scene.layers.count <= 5, "round \(round): \(scene.layers.count) layers from 5")
                for layer in scene.layers {
                    switch layer {
                    case .color(_, let rect): #expect(rect.width >= 0 && rect.height >= 0, "round \(round)")
                    case .image(let path, let placement):
                        #expect(!path.isEmpty, "round \(round)")
                        if case .rect(let rect, _) = placement {
                            #expect(rect.width >= 0 && rect.height >= 0, "round \(round)")
                        }
                    }
                }
            case .failure(let error):
                refused += 1
                #expect(!error.reason.isEmpty, "round \(round)")
                if let layer = error.layer { #expect((0..<5).contains(layer), "round \(round): \(error)") }
            }
        }
        #expect(accepted >= 1 && refused >= 1000, "accepted \(accepted), refused \(refused)")
    }
}
