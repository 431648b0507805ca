import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import TileView
import TileViewTestSupport

@testable import TileViewServe

/// Scenes in the view API (docs/design.md section 11): a `.json` identifier opens as `tileview zoom` opens the scene
/// file, its layers resolved beneath the root, and its frames are byte for byte the command's after the same
/// gestures. Layers that leave the root, files that are not scenes, and share links that do not reach a layer are
/// refused.
@Suite("Scene views")
struct SceneViewTests {
    /// `outside.jpg` beside the served folder, and in it: `boards/board.json` (colour layers, `coffee.png` beside it
    /// and `../photos/rocket.jpg` in a sibling folder), scenes whose layer leaves the root (by `..`, an absolute
    /// path, or a link) or is a dotfile, a JSON file that is no scene, and files a scene identifier never names.
    static let base: URL = {
        let base = try! TemporaryFolder.untilExit("scene-views")
        let fm = FileManager.default
        let root = base.appendingPathComponent("root")
        for folder in ["boards", "photos"] {
            try! fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let sample = { (name: String) in Fixtures.sampleImages.appendingPathComponent(name) }
        try! fm.copyItem(at: sample("rocket.jpg"), to: root.appendingPathComponent("photos/rocket.jpg"))
        try! fm.copyItem(at: sample("coffee.png"), to: root.appendingPathComponent("boards/coffee.png"))
        try! fm.copyItem(at: sample("coffee.png"), to: root.appendingPathComponent("boards/.secret.png"))
        try! fm.copyItem(at: sample("chelsea.png"), to: base.appendingPathComponent("outside.png"))
        try! fm.createSymbolicLink(
            atPath: root.appendingPathComponent("boards/link.png").path,
            withDestinationPath: base.appendingPathComponent("outside.png").path)
        let scene = { (layer: String) in
            #"{"width": 400, "height": 300, "background": "202020", "layers": [{"image": "\#(layer)", "center": [200, 150]}]}"#
        }
        let files: [String: String] = [
            "boards/board.json": """
            {"width": 640, "height": 480, "background": "FFFFFF",
             "layers": [{"color": "FF000080", "rect": [0, 0, 640, 60]},
                        {"image": "../photos/rocket.jpg", "rect": [20, 80, 300, 380], "mode": "aspect-fill"},
                        {"image": "./coffee.png", "rect": [340, 80, 280, 200], "mode": "aspect-fit"},
                        {"image": "coffee.png", "center": [480, 380]}]}
            """,
            "boards/climbs.json": scene("../../outside.png"),
            "boards/absolute.json": scene(base.appendingPathComponent("outside.png").path),
            "boards/linked.json": scene("link.png"),
            "boards/hidden.json": scene(".secret.png"),
            "boards/list.json": "[1, 2, 3]",
            "boards/many.json": #"{"width": 100, "height": 100, "layers": ["#
                + Array(repeating: #"{"color": "FF0000", "rect": [0, 0, 100, 100]}"#, count: 257).joined(separator: ",")
                + "]}",
            "boards/.dot.json": scene("coffee.png"),
            "boards/notes.txt": scene("coffee.png"),
        ]
        for (name, text) in files {
            try! text.write(to: root.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        return base
    }()

    static var root: URL { base.appendingPathComponent("root") }
    static let board = "boards%2Fboard.json"
    static let viewport = PixelSize(width: 320, height: 240)

    static func create(_ client: any TestClientProtocol, _ id: String) async throws -> ViewAPITests.Answer {
        try await ViewAPITests.call(
            client, .post, "/api/views",
            ["image": id, "viewport": ["width": viewport.width, "height": viewport.height]])
    }

    @Test("a scene view: kind scene, no placements, each frame byte for byte tileview zoom's of the scene file")
    func sceneFramesEqualZoom() async throws {
        try await ViewAPITests.withClient(ViewAPITests.server(root: Self.root)) { client in
            let created = try await Self.create(client, Self.board)
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["kind"] as? String == "scene")
            #expect((created.json["placements"] as? [Any])?.isEmpty == true, "a scene has no IIIF tiles to place")
            let file = Self.root.appendingPathComponent("boards/board.json")
            var view = created.view
            var latest = created
            var gestures: [String] = []
            let (fitBytes, fitState) = try ViewAPITests.zoomFrame(file, viewport: Self.viewport, gestures: [])
            #expect(created.state == fitState)
            let (status, fitFrame) = try await ViewAPITests.frame(client, view)
            #expect(status == .ok && fitFrame == fitBytes, "the frame at fit")
            for gesture in ["double-tap 100,120", "pan -40,25", "rotate 90", "pinch 2.5 160,120", "two-finger-tap"] {
                gestures.append(gesture)
                let answer = try await ViewAPITests.call(
                    client, .post, "/api/views/\(view)/gestures", ["gesture": gesture])
                #expect(answer.status == .ok, "\(answer.text)")
                view = answer.view
                latest = answer
                let (bytes, state) = try ViewAPITests.zoomFrame(file, viewport: Self.viewport, gestures: gestures)
                #expect(answer.state == state, "\(gestures)")
                let (status, frame) = try await ViewAPITests.frame(client, view)
                #expect(status == .ok && frame == bytes, "frame after \(gestures)")
            }
            // Another server with the key rebuilds it from the token alone.
            let (last, _) = try ViewAPITests.zoomFrame(file, viewport: Self.viewport, gestures: gestures)
            let shown = latest
            try await ViewAPITests.withClient(ViewAPITests.server(root: Self.root)) { other in
                try await ViewAPITests.expectRebuilt(other, shown, frame: last, "a scene view rebuilt elsewhere")
            }
        }
    }

    @Test("a scene view's token covers its layers: a layer changed since is 404 where the view is rebuilt")
    func changedLayerIsNotFound() async throws {
        let base = try TemporaryFolder.untilExit("scene-change")
        try FileManager.default.copyItem(at: Self.root, to: base.appendingPathComponent("root"))
        let root = base.appendingPathComponent("root")
        let token = Mutex("")
        try await ViewAPITests.withClient(ViewAPITests.server(root: root)) { client in
            let created = try await Self.create(client, Self.board)
            #expect(created.status == .created, "\(created.text)")
            token.withLock { $0 = created.view }
        }
        let made = token.withLock { $0 }
        // A layer in another folder than the scene, rewritten with a new modification time.
        let layer = root.appendingPathComponent("photos/rocket.jpg")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: layer.path)
        try await ViewAPITests.withClient(ViewAPITests.server(root: root)) { other in
            let rebuilt = try await ViewAPITests.call(other, .get, "/api/views/\(made)")
            #expect(rebuilt.status == .notFound && rebuilt.text.contains("changed"), "\(rebuilt.text)")
        }
    }

    @Test(
        "a layer above the root, absolute, linked out or a dotfile is 422 naming the layer; too many layers or not a scene: 422 or 404"
    )
    func layersStayBeneathTheRoot() async throws {
        try await ViewAPITests.withClient(ViewAPITests.server(root: Self.root)) { client in
            for (scene, layer) in [
                ("climbs", "../../outside.png"), ("absolute", Self.base.appendingPathComponent("outside.png").path),
                ("linked", "link.png"), ("hidden", ".secret.png"),
            ] {
                let answer = try await Self.create(client, "boards%2F\(scene).json")
                #expect(answer.status == .unprocessableContent, "\(scene): \(answer.text)")
                #expect(answer.text.contains("layers[0]") && answer.text.contains(layer), "\(scene): \(answer.text)")
                #expect(answer.text.contains("beneath the served folder"), "\(scene): \(answer.text)")
            }
            let list = try await Self.create(client, "boards%2Flist.json")
            #expect(list.status == .unprocessableContent && list.text.contains("not a scene"), "\(list.text)")
            // A frame's work is bounded: at most 256 layers, each over the whole frame at worst.
            let many = try await Self.create(client, "boards%2Fmany.json")
            #expect(many.status == .unprocessableContent && many.text.contains("257 layers"), "\(many.text)")
            for id in [
                "boards%2F.dot.json", "boards%2Fnotes.txt", "boards%2Fmissing.json", "..%2Froot%2Fboards%2Fboard.json",
            ] {
                let answer = try await Self.create(client, id)
                #expect(answer.status == .notFound, "\(id): \(answer.text)")
            }
        }
    }

    @Test("a scene's layer identifiers: relative to its folder, . and .. resolved, never above the root")
    func layerIdentifiers() {
        let cases: [(String, String, String?)] = [
            ("board.json", "a.png", "a.png"),
            ("boards/board.json", "a.png", "boards/a.png"),
            ("boards/board.json", "./x/../a.png", "boards/a.png"),
            ("boards/board.json", "../photos/a.png", "photos/a.png"),
            ("boards/board.json", "../../a.png", nil),
            ("board.json", "../a.png", nil),
            ("boards/board.json", "/etc/a.png", nil),
            ("boards/board.json", "..", nil),
            ("boards/deep/board.json", "x//y.png", "boards/deep/x/y.png"),
        ]
        for (scene, name, expected) in cases {
            #expect(ServeRoot.layerIdentifier(name, ofScene: scene) == expected, "\(scene) + \(name)")
        }
    }

    @Test("share links: a folder's reaches a scene only with every layer inside it; the scene's own link shows it")
    func shareGrantsReachLayers() async throws {
        let clock = AccessTests.Clock()
        let server = AccessTests.server(clock: clock, root: try ServeRoot(path: Self.root.path))
        try await AccessTests.withClient(server) { client in
            let body = #"{"image":"boards%2Fboard.json","viewport":{"width":64,"height":48}}"#
            func create(_ grant: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/api/views", method: .post, headers: [.contentType: "application/json", .cookie: grant],
                    body: ByteBuffer(string: body))
            }
            // The folder `boards` does not hold the rocket, which the scene shows from `photos`.
            let (_, _, folderGrant) = try await AccessTests.openShareLink(
                client, "/browse/boards", expiresIn: 600, clock: clock)
            let refused = try await create(folderGrant)
            #expect(refused.status == .forbidden, "\(String(buffer: refused.body))")
            #expect(String(buffer: refused.body).contains("photos/rocket.jpg"))
            // The scene's own link shares what it shows; its frames follow.
            let (_, page, sceneGrant) = try await AccessTests.openShareLink(
                client, "/view/boards%2Fboard.json", expiresIn: 600, clock: clock)
            #expect(String(buffer: page.body).contains(#"data-kind="scene""#))
            let created = try await create(sceneGrant)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let view = try #require(
                (try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])?["view"]
                    as? String)
            #expect(try await AccessTests.get(client, "/api/views/\(view)/frame.png", cookie: sceneGrant).status == .ok)
            // The folder's grant does not reach the view made under the scene's.
            let frame = try await AccessTests.get(client, "/api/views/\(view)/frame.png", cookie: folderGrant)
            #expect(frame.status == .forbidden, "\(String(buffer: frame.body))")
            // The root's grant reaches every layer.
            let (_, _, rootGrant) = try await AccessTests.openShareLink(
                client, "/gallery", expiresIn: 600, clock: clock)
            #expect(try await create(rootGrant).status == .created)
        }
    }

    @Test("the viewer page of a scene draws frame.png (kind scene, no download or information); listings name scenes")
    func scenePage() async throws {
        try await ViewAPITests.withClient(ViewAPITests.server(root: Self.root)) { client in
            let page = try await client.execute(uri: "/view/\(Self.board)", method: .get) { $0 }
            #expect(page.status == .ok)
            let html = String(buffer: page.body)
            #expect(html.contains(#"data-kind="scene""#) && html.contains(#"data-id="boards%2Fboard.json""#))
            #expect(!html.contains(#"data-action="download""#) && !html.contains(#"data-action="info""#))
            let image = try await client.execute(uri: "/view/photos%2Frocket.jpg", method: .get) { $0 }
            #expect(String(buffer: image.body).contains(#"data-action="download""#), "an image keeps its download")
            #expect(try await client.execute(uri: "/view/boards%2Fnotes.txt", method: .get) { $0 }.status == .notFound)
            // The folder's listing names its scenes (JSON objects with a .json name), linked to their views.
            let listing = String(buffer: try await client.execute(uri: "/browse/boards", method: .get) { $0 }.body)
            let scenes = listing.components(separatedBy: "<h2>Scenes</h2>").last ?? ""
            #expect(scenes.contains(#"<a href="/view/boards%2Fboard.json">board.json</a>"#), "\(listing)")
            for absent in ["list.json", ".dot.json", "notes.txt"] {
                #expect(!scenes.contains(absent), "\(absent) is listed as a scene")
            }
        }
    }
}
