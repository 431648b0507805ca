import Foundation
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing
import TileView
import TileViewTestSupport

@testable import TileViewServe

/// The view API (docs/design.md section 11) through Hummingbird's test client: the life of a view, expiry, the bound on
/// views, every gesture and move, residency, errors, and frames byte for byte equal to what `tileview zoom` and
/// `tileview gallery` write (`ZoomJob`, `GalleryJob` with `GalleryRun`) after the same steps.
@Suite("View API")
struct ViewAPITests {
    /// A served folder of the sample images, each page of a gallery, and an album inside it.
    static let pagesRoot: URL = {
        let root = try! TemporaryFolder.untilExit("views")
        let fm = FileManager.default
        try! fm.createDirectory(at: root.appendingPathComponent("album"), withIntermediateDirectories: true)
        for name in try! fm.contentsOfDirectory(atPath: Fixtures.sampleImages.path).sorted()
        where ImageFolder.isImageName(name) {
            try! fm.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
        for name in ["coffee.png", "rocket.jpg"] {
            try! fm.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent(name),
                to: root.appendingPathComponent("album/\(name)"))
        }
        return root
    }()

    /// One key for every test server: a token one made, another rebuilds (as replicas sharing `--sign-key` do).
    static let key = ViewKey.random()

    static func server(maxViews: Int = 64, idle: Double = 900, root: URL = pagesRoot) -> TileServer {
        var settings = ServeSettings(root: try! ServeRoot(path: root.path), maxViews: maxViews, viewIdleSeconds: idle)
        settings.viewKey = key
        return TileServer(settings: settings)
    }

    /// Runs `body` with clients of two servers with one key: what the first's views answer, the second rebuilds
    /// from their tokens alone.
    static func withTwoClients(
        _ body: @Sendable (any TestClientProtocol, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withClient { first in
            try await withClient { second in try await body(first, second) }
        }
    }

    /// The answer without its token (two answers at one place differ in their tokens' expiry at most).
    static func placeless(_ answer: Answer) -> NSDictionary {
        var json = answer.json
        json["view"] = nil
        return NSDictionary(dictionary: json)
    }

    /// Checks that `other`, which never saw the view, rebuilds it from `answer`'s token: the same answer and, with
    /// `frame`, the same frame bytes.
    static func expectRebuilt(
        _ other: any TestClientProtocol, _ answer: Answer, frame: [UInt8]? = nil, _ what: String
    ) async throws {
        let rebuilt = try await call(other, .get, "/api/views/\(answer.view)")
        #expect(rebuilt.status == .ok, "\(what): \(rebuilt.text)")
        #expect(placeless(rebuilt).isEqual(to: placeless(answer) as! [AnyHashable: Any]), "\(what): \(rebuilt.text)")
        if let frame {
            let (status, bytes) = try await Self.frame(other, answer.view)
            #expect(status == .ok && bytes == frame, "\(what): the rebuilt frame")
        }
    }

    static func withClient(
        _ server: TileServer = server(), _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let app = try buildApplication(server)
        try await app.test(.router) { client in try await body(client) }
    }

    struct Answer: @unchecked Sendable {
        let status: HTTPResponse.Status
        let json: [String: Any]
        let text: String
        var view: String { json["view"] as? String ?? "" }
        var state: ZoomSnapshot? {
            (json["state"]).flatMap { try? JSONSerialization.data(withJSONObject: $0) }
                .flatMap { try? JSONDecoder().decode(ZoomSnapshot.self, from: $0) }
        }
        var page: [String: Any]? { json["page"] as? [String: Any] }
    }

    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: [String: Any]? = nil
    ) async throws -> Answer {
        let bytes = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await client.execute(
            uri: uri, method: method, headers: body == nil ? [:] : [.contentType: "application/json"],
            body: bytes.map { ByteBuffer(bytes: $0) }
        ) { response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]
            return Answer(status: response.status, json: json ?? [:], text: text)
        }
    }

    static func frame(_ client: any TestClientProtocol, _ view: String) async throws -> (HTTPResponse.Status, [UInt8]) {
        try await client.execute(uri: "/api/views/\(view)/frame.png", method: .get) { response in
            (response.status, Array(response.body.readableBytesView))
        }
    }

    /// `tileview zoom FILE --viewport WxH --gesture ...`: the frame it writes and its state.
    static func zoomFrame(_ file: URL, viewport: PixelSize, gestures: [String]) throws -> ([UInt8], ZoomSnapshot) {
        try TemporaryFolder.with("zoom-cli") { dir in
            let output = dir.appendingPathComponent("frame.png").path
            let result = try ZoomJob(
                file: file.path, view: ViewSettings(viewport: viewport),
                gestures: try gestures.map { try ZoomGesture(parsing: $0) }, output: output
            ).run()
            return (try Fixtures.bytes(URL(fileURLWithPath: output)), result.state.snapshot)
        }
    }

    /// `tileview gallery --dir DIR --script ...`: the last frame it writes and its last step record.
    static func galleryFrame(
        _ folder: URL, settings: GallerySettings, circular: Bool, steps: [String]
    ) throws -> ([UInt8], GalleryStepRecord) {
        try TemporaryFolder.with("gallery-cli") { dir in
            let pages = try GalleryPages.reading(folder: folder.path, circular: circular)
            let job = GalleryJob(
                pages: pages, settings: settings,
                script: GalleryScript(actions: try steps.map { try GalleryAction(parsing: $0) }))
            let frames = try job.run(into: dir.path).frames
            let last = frames[frames.count - 1]
            return (
                try Fixtures.bytes(URL(fileURLWithPath: FrameWriter.framePath(folder: dir.path, index: last.index))),
                GalleryStepRecord(last, pages: pages, framePath: nil)
            )
        }
    }

    static func record(_ json: [String: Any]?) throws -> [String: Any] {
        var json = try #require(json)
        json["frame"] = nil
        return json
    }

    static func recordJSON(_ record: GalleryStepRecord) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(record)) as? [String: Any])
    }

    // MARK: - Image views

    @Test(
        "a view's frame decodes in one pass (its plan is the viewport's); an IIIF answer, whose plan counts parts, in parts"
    )
    func viewsDecodeInOnePass() async throws {
        try await TemporaryFolder.with("view-one-pass") { folder in
            try DiskCacheRouteTests.largeJPEG(at: folder.appendingPathComponent("large.jpg"))
            let server = Self.server(root: folder)
            let inParts = DecodeParts.threads.count > 1
            try await Self.withClient(server) { client in
                let created = try await Self.call(
                    client, .post, "/api/views", ["image": "large.jpg", "viewport": ["width": 320, "height": 240]])
                #expect(created.status == .created, "\(created.text)")
                let (status, _) = try await Self.frame(client, created.view)
                #expect(status == .ok)
                // The frame read the 1/8 level whole, in one pass: no parts made the index on the way.
                #expect(server.tiles.indexesMadeInParts == 0)
                let small = try await client.execute(
                    uri: "/iiif/3/large.jpg/full/!512,512/0/default.jpg", method: .get
                ) { $0.status }
                #expect(small == .ok)
            }
            // The same level was cached by the frame: a fresh server's IIIF answer reads it in parts.
            let fresh = Self.server(root: folder)
            try await Self.withClient(fresh) { client in
                let small = try await client.execute(
                    uri: "/iiif/3/large.jpg/full/!512,512/0/default.jpg", method: .get
                ) { $0.status }
                #expect(small == .ok)
                #expect(fresh.tiles.indexesMadeInParts == (inParts ? 1 : 0))
            }
        }
    }

    @Test("an image view: created at fit, gestures, the same state and PNG bytes as tileview zoom, deleted")
    func imageLifecycle() async throws {
        let server = Self.server()
        try await Self.withClient(server) { client in
            let created = try await Self.call(
                client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 320, "height": 240]])
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["kind"] as? String == "image")
            #expect(created.json["page"] is NSNull)
            let file = Self.pagesRoot.appendingPathComponent("rocket.jpg")
            let viewport = PixelSize(width: 320, height: 240)
            #expect(created.state == (try Self.zoomFrame(file, viewport: viewport, gestures: [])).1)
            let placements = try #require(created.json["placements"] as? [[String: Any]])
            #expect(placements.count == 1 && placements[0]["id"] as? String == "rocket.jpg")

            // Each answer gives the view's next token; the client follows it.
            var view = created.view
            var gestures: [String] = []
            for gesture in [
                "double-tap 120,80", "pan -30,12", "pinch 1.7 200,100", "two-finger-tap", "zoom-to 10,20,100,80",
            ] {
                gestures.append(gesture)
                let answer = try await Self.call(client, .post, "/api/views/\(view)/gestures", ["gesture": gesture])
                #expect(answer.status == .ok, "\(answer.text)")
                #expect(answer.view != view, "a new token for a new place")
                view = answer.view
                let (bytes, state) = try Self.zoomFrame(file, viewport: viewport, gestures: gestures)
                #expect(answer.state == state, "\(gestures)")
                let (status, frame) = try await Self.frame(client, view)
                #expect(status == .ok && frame == bytes, "frame after \(gestures)")
            }
            let got = try await Self.call(client, .get, "/api/views/\(view)")
            let now = try Self.zoomFrame(file, viewport: viewport, gestures: gestures).1
            #expect(got.status == .ok && got.state == now)
            // An earlier token is the view where that token was: the step applies there (a second tab, a retry).
            let earlier = try await Self.call(client, .get, "/api/views/\(created.view)")
            #expect(earlier.status == .ok && earlier.state == created.state)

            // DELETE closes the view on this server: every token of it is 404 here (the earliest too), and its
            // live copy is let go.
            let deleted = try await Self.call(client, .delete, "/api/views/\(view)")
            #expect(deleted.status == .noContent && server.views.count == 0)
            for token in [view, created.view] {
                let closed = try await Self.call(client, .get, "/api/views/\(token)")
                #expect(closed.status == .notFound && closed.text.contains("closed"), "\(closed.text)")
            }
            #expect(try await Self.call(client, .get, "/api/views/\(view)/frame.png").status == .notFound)
            // A token with one character changed names no view.
            let forged = String(view.dropLast()) + (view.last == "A" ? "B" : "A")
            for (method, uri) in [
                (HTTPRequest.Method.get, "/api/views/\(forged)"), (.delete, "/api/views/\(forged)"),
                (.get, "/api/views/\(forged)/frame.png"),
            ] {
                let answer = try await Self.call(client, method, uri)
                #expect(answer.status == .notFound, "\(uri)")
            }
            let gone = try await Self.call(
                client, .post, "/api/views/\(forged)/gestures", ["gesture": "two-finger-tap"])
            #expect(gone.status == .notFound && gone.text.contains("signature"), "\(gone.text)")
        }
    }

    @Test(
        "seeded random gesture sequences, turns among them: every frame is the bytes tileview zoom writes",
        arguments: 0..<6)
    func randomGestures(_ index: Int) async throws {
        var random = SplitMix64(seed: SplitMix64.caseSeed(0x7E57_0011, index))
        let names = ["rocket.jpg", "coffee.png", "astronaut.png", "hubble_deep_field.jpg", "chelsea.png", "retina.jpg"]
        let name = names[index % names.count]
        let viewport = PixelSize(width: 64 + Int(random.next() % 400), height: 48 + Int(random.next() % 300))
        var gestures: [String] = []
        for step in 0..<6 {
            let x = random.uniform(0, Double(viewport.width))
            let y = random.uniform(0, Double(viewport.height))
            let f = { (v: Double) in String(format: "%.3f", v) }
            // Step 2 always turns the image (the viewer's rotate button), so every sequence draws a turned image.
            let gesture =
                switch step == 2 ? 5 : random.next() % 5 {
                case 5: "rotate \([90, 180, 270, -90][Int(random.next() % 4)])"
                case 0: "double-tap \(f(x)),\(f(y))"
                case 1: "two-finger-tap"
                case 2: "pinch \(f(random.logUniform(0.3, 4))) \(f(x)),\(f(y))"
                case 3: "pan \(f(random.uniform(-300, 300))),\(f(random.uniform(-300, 300)))"
                default: "zoom-to \(f(x)),\(f(y)),\(f(random.uniform(5, 300))),\(f(random.uniform(5, 300)))"
                }
            gestures.append(gesture)
        }
        try await Self.withTwoClients { [gestures] client, other in
            let created = try await Self.call(
                client, .post, "/api/views",
                ["image": name, "viewport": ["width": viewport.width, "height": viewport.height], "maxScale": 2])
            #expect(created.status == .created, "\(created.text)")
            var view = created.view
            for gesture in gestures {
                let answer = try await Self.call(client, .post, "/api/views/\(view)/gestures", ["gesture": gesture])
                #expect(answer.status == .ok, "\(answer.text)")
                view = answer.view
                // Another server with the key, which never saw this view, answers its token alike.
                try await Self.expectRebuilt(other, answer, "\(name) after \(gesture)")
            }
            let file = Self.pagesRoot.appendingPathComponent(name)
            let job = ZoomJob(
                file: file.path, view: ViewSettings(viewport: viewport, maximumScale: 2),
                gestures: try gestures.map { try ZoomGesture(parsing: $0) })
            let (status, frame) = try await Self.frame(client, view)
            let expected = try TemporaryFolder.with("zoom-cli") { dir in
                var job = job
                job.output = dir.appendingPathComponent("f.png").path
                _ = try job.run()
                return try Fixtures.bytes(URL(fileURLWithPath: job.output!))
            }
            #expect(status == .ok && frame == expected, "\(name) \(viewport) \(gestures)")
            let (otherStatus, otherFrame) = try await Self.frame(other, view)
            #expect(otherStatus == .ok && otherFrame == expected, "rebuilt: \(name) \(viewport) \(gestures)")
        }
    }

    // MARK: - Gallery views

    /// Walks a gallery view with seeded random moves (`goto N` among them), gestures and drags, comparing every step's record and
    /// the last frame with `tileview gallery` on the same steps; residency never above three.
    @Test(
        "gallery walks (linear, circular, with peek and gap): records, residency and frames equal the CLI's",
        arguments: [(false, 0, 0), (true, 0, 0), (false, 40, 8), (true, 24, 0)])
    func galleryWalk(_ circular: Bool, _ peek: Int, _ gap: Int) async throws {
        var random = SplitMix64(seed: SplitMix64.caseSeed(0x6A11, peek * 2 + (circular ? 1 : 0)))
        let viewport = PixelSize(width: 300, height: 200)
        let settings = GallerySettings(viewport: viewport, peek: peek, gap: gap)
        let walk = (0..<10).map { index in
            // Step 4 is always a jump and step 6 a turn, so every walk has both.
            if index == 6 { return "rotate 90" }
            let roll = index == 4 ? 9 : random.next() % 10
            return roll < 5
                ? (roll < 3 ? "next" : "prev")
                : roll < 7
                    ? "double-tap \(Int(random.next() % 300)),\(Int(random.next() % 200))"
                    : roll < 8
                        ? "pinch 1.5 150,100"
                        : roll < 9
                            ? "drag -\(40 + Int(random.next() % 100)),0 velocity 0.6,0"
                            : index != 4 && random.next() % 2 == 0 ? "drag 20,3" : "goto \(1 + random.next() % 6)"
        }
        try await Self.withTwoClients { client, other in
            let created = try await Self.call(
                client, .post, "/api/views",
                [
                    "folder": "", "viewport": ["width": viewport.width, "height": viewport.height],
                    "circular": circular, "peek": peek, "gap": gap,
                ])
            #expect(created.status == .created, "\(created.text)")
            #expect(created.json["pages"] as? Int == 6)
            var view = created.view
            var steps: [String] = []
            for (n, step) in walk.enumerated() {
                steps.append(step)
                let isGesture = step.hasPrefix("double-tap") || step.hasPrefix("pinch") || step.hasPrefix("rotate")
                let answer = try await Self.call(
                    client, .post, "/api/views/\(view)/\(isGesture ? "gestures" : "moves")",
                    isGesture ? ["gesture": step] : ["move": step])
                #expect(answer.status == .ok, "\(step): \(answer.text)")
                view = answer.view
                let loaded = try #require(answer.json["loaded"] as? [String])
                #expect(loaded.count <= 3, "\(loaded)")
                let page = try Self.record(answer.page)
                let resident = try #require(page["resident"] as? [String])
                #expect(Set(loaded) == Set(resident), "the loader holds exactly the resident set")
                if n % 3 == 2 || n == 9 {
                    let (bytes, record) = try Self.galleryFrame(
                        Self.pagesRoot, settings: settings, circular: circular, steps: steps)
                    let expected = try Self.recordJSON(record)
                    #expect(NSDictionary(dictionary: page).isEqual(to: expected), "\(steps): \(page) vs \(expected)")
                    let (status, frame) = try await Self.frame(client, view)
                    #expect(status == .ok && frame == bytes, "frame after \(steps)")
                    // Rebuilt from the token alone: the same answer (record, residency, zooms) and frame.
                    try await Self.expectRebuilt(other, answer, frame: bytes, "\(steps)")
                } else {
                    try await Self.expectRebuilt(other, answer, "\(steps)")
                }
            }
        }
    }

    @Test("a gallery's pages by range (the strip of a large folder): identifiers and names in page order")
    func pageRanges() async throws {
        try await Self.withTwoClients { client, other in
            let gallery = try await Self.call(
                client, .post, "/api/views", ["folder": "", "viewport": ["width": 200, "height": 150]])
            let total = try #require(gallery.json["pages"] as? Int)
            let names = try FileManager.default.contentsOfDirectory(atPath: Self.pagesRoot.path)
                .filter(ImageFolder.isImageName)
            #expect(total == names.count && total >= 4)
            let all = NaturalOrder.sorted(names)
            let part = try await Self.call(client, .get, "/api/views/\(gallery.view)/pages?from=1&count=2")
            #expect(part.json["from"] as? Int == 1 && part.json["total"] as? Int == total, "\(part.text)")
            #expect(
                part.json["names"] as? [String] == [all[1], all[2]]
                    && part.json["ids"] as? [String] == [all[1], all[2]])
            // Past the last page: the pages there are, from the last; another server answers from the token.
            let tail = try await Self.call(other, .get, "/api/views/\(gallery.view)/pages?from=\(total - 1)&count=500")
            #expect(tail.json["names"] as? [String] == [all[total - 1]], "\(tail.text)")
            let beyond = try await Self.call(
                client, .get, "/api/views/\(gallery.view)/pages?from=11196684060794441856125501440")
            #expect(beyond.status == .ok && (beyond.json["ids"] as? [Any])?.isEmpty == true, "\(beyond.text)")
            for query in ["from=-1", "count=0", "count=501", "from=x"] {
                let refused = try await Self.call(client, .get, "/api/views/\(gallery.view)/pages?\(query)")
                #expect(refused.status == .badRequest, "\(query): \(refused.text)")
            }
            let image = try await Self.call(
                client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 200, "height": 150]])
            #expect(try await Self.call(client, .get, "/api/views/\(image.view)/pages").status == .conflict)
            #expect(try await Self.call(client, .get, "/api/views/nonsense/pages").status == .notFound)
        }
    }

    @Test("a gallery starts where asked; the page record and state describe it")
    func galleryStart() async throws {
        try await Self.withClient { client in
            let byName = try await Self.call(
                client, .post, "/api/views",
                ["folder": "album", "viewport": ["width": 200, "height": 150], "start": "rocket.jpg"])
            #expect(byName.status == .created, "\(byName.text)")
            #expect(byName.page?["page"] as? String == "rocket.jpg")
            #expect(byName.json["pageIndex"] as? Int == 1)
            let byIndex = try await Self.call(
                client, .post, "/api/views",
                ["folder": "album", "viewport": ["width": 200, "height": 150], "start": 1])
            #expect(byIndex.page?["page"] as? String == "rocket.jpg")
            let bad = try await Self.call(
                client, .post, "/api/views",
                ["folder": "album", "viewport": ["width": 200, "height": 150], "start": 7])
            #expect(bad.status == .notFound)
            #expect(bad.text.contains("neither a page as written nor an index from 0 to 1"), "\(bad.text)")
        }
    }

    // MARK: - Bounds and errors

    @Test("idle views expire: a token is 404 after the idle time, and each answer's token lives the idle time again")
    func expiry() async throws {
        // The views' clock is the test's: time moves only when the test says.
        let time = Locked(1_800_000_000.0)
        var settings = Self.server(idle: 60).settings
        settings.viewClock = { time.withLock { $0 } }
        @Sendable func wait(_ seconds: Double) { time.withLock { $0 += seconds } }
        let server = TileServer(settings: settings)
        try await Self.withClient(server) { client in
            let created = try await Self.call(
                client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 100, "height": 100]])
            wait(59)
            let used = try await Self.call(client, .get, "/api/views/\(created.view)")
            #expect(used.status == .ok)
            wait(59)  // 118 s since it was made, 59 since it was last used: its first token expired, its next not
            #expect(try await Self.call(client, .get, "/api/views/\(used.view)/frame.png").status == .ok)
            let first = try await Self.call(client, .get, "/api/views/\(created.view)")
            #expect(first.status == .notFound && first.text.contains("expired"), "\(first.text)")
            #expect(server.views.count == 1)
            wait(61)
            #expect(try await Self.call(client, .get, "/api/views/\(used.view)").status == .notFound)
            #expect(try await Self.call(client, .get, "/api/views/\(used.view)/frame.png").status == .notFound)
            #expect(server.views.count == 0, "the live copy is let go after the idle time too")
        }
    }

    @Test("the live views are bounded: the view idle longest is dropped first, and rebuilt from its token")
    func bound() async throws {
        let server = Self.server(maxViews: 3)
        try await Self.withClient(server) { client in
            var views: [String] = []
            for _ in 0..<3 {
                views.append(
                    try await Self.call(
                        client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 50, "height": 50]]
                    ).view)
            }
            // Use the first: the second is now idle longest.
            #expect(try await Self.call(client, .get, "/api/views/\(views[0])").status == .ok)
            let fourth = try await Self.call(
                client, .post, "/api/views", ["folder": "album", "viewport": ["width": 50, "height": 50]])
            #expect(fourth.status == .created)
            #expect(server.views.count == 3 && server.views.counters.dropped == 1)
            // The second's live copy was dropped; its token still names it, and it is rebuilt (dropping the third,
            // now idle longest), never more than three at once.
            #expect(server.views.counters.rebuilt == 0)
            #expect(try await Self.call(client, .get, "/api/views/\(views[1])").status == .ok)
            #expect(server.views.counters.rebuilt == 1)
            // views[0] is live; views[2] (dropped for the second) and then the fourth are rebuilt, each dropping
            // the one idle longest.
            for view in [views[0], views[2], fourth.view] {
                #expect(try await Self.call(client, .get, "/api/views/\(view)").status == .ok)
            }
            let counters = server.views.counters
            #expect(server.views.count == 3 && counters.rebuilt == 3 && counters.dropped == 4, "\(counters)")
        }
    }

    @Test("the live views are bounded in bytes too: a large gallery drops the idle longest; one too large is not kept")
    func byteBound() async throws {
        // Galleries of 2,000 and 8,000 links: about 0.21 and 0.84 MB of pages each, under a bound of 512 KiB.
        let root = try TemporaryFolder.untilExit("view-bytes")
        for (folder, count) in [("two", 2000), ("eight", 8000)] {
            try Fixtures.links(to: "rocket.jpg", count: count, in: root.appendingPathComponent(folder)) {
                "photo-\($0).jpg"
            }
        }
        var settings = ServeSettings(root: try ServeRoot(path: root.path))
        settings.viewKey = Self.key
        settings.viewMaxBytes = 512 << 10
        let server = TileServer(settings: settings)
        try await Self.withClient(server) { client in
            let viewport = ["width": 50, "height": 50]
            var galleries: [String] = []
            for _ in 0..<2 {
                let created = try await Self.call(client, .post, "/api/views", ["folder": "two", "viewport": viewport])
                #expect(created.status == .created, "\(created.text)")
                galleries.append(created.view)
            }
            #expect(server.views.count == 2 && server.views.bytes <= 512 << 10 && server.views.bytes > 400_000)
            // A third does not fit beside them: the first, idle longest, is dropped.
            _ = try await Self.call(client, .post, "/api/views", ["folder": "two", "viewport": viewport])
            #expect(server.views.count == 2 && server.views.counters.dropped == 1, "\(server.views.counters)")
            // A gallery over the bound alone is answered and never kept: each step rebuilds it from its token.
            let large = try await Self.call(client, .post, "/api/views", ["folder": "eight", "viewport": viewport])
            #expect(large.status == .created && server.views.counters.dropped == 2, "\(server.views.counters)")
            let moved = try await Self.call(client, .post, "/api/views/\(large.view)/moves", ["move": "next"])
            #expect(moved.status == .ok && moved.json["pageIndex"] as? Int == 1, "\(moved.text)")
            #expect(server.views.counters.rebuilt == 1 && server.views.bytes <= 512 << 10)
        }
    }

    @Test("a gallery is opened and reopened from its token within the work budget: too large a folder is 400")
    func galleryWithinBudget() async throws {
        let root = try TemporaryFolder.untilExit("view-budget")
        try Fixtures.links(to: "rocket.jpg", count: 5000, in: root.appendingPathComponent("five")) { "photo-\($0).jpg" }
        // One request to a server of --work-mb `workMiB` (all with one key): a new view, or the view of a token.
        func ask(workMiB: Int, token: String? = nil) async throws -> Answer {
            var settings = ServeSettings(root: try ServeRoot(path: root.path), workBytes: workMiB << 20)
            settings.viewKey = Self.key
            return try await buildApplication(TileServer(settings: settings)).test(.router) { client in
                guard let token else {
                    return try await Self.call(
                        client, .post, "/api/views", ["folder": "five", "viewport": ["width": 50, "height": 50]])
                }
                return try await Self.call(client, .get, "/api/views/\(token)")
            }
        }
        let refused = try await ask(workMiB: 1).text
        #expect(refused.contains("a gallery of the 5000 entries of five needs about"), "\(refused)")
        let range = try #require(
            refused.range(of: #"--work-mb (\d+) or more would open it"#, options: .regularExpression))
        let named = try #require(Int(refused[range].split(separator: " ")[1]))
        let created = try await ask(workMiB: named)
        #expect(created.status == .created, "--work-mb \(named): \(created.text)")
        // A server with less rebuilds no such view from its token; one with as much does.
        let reopened = try await ask(workMiB: named - 1, token: created.view)
        #expect(reopened.status == .badRequest && reopened.text.contains("reopening the gallery"), "\(reopened.text)")
        #expect(try await ask(workMiB: named, token: created.view).status == .ok)
    }

    @Test("bad bodies, gestures and moves are 400 with the command line's message; unknown things 404")
    func errors() async throws {
        try await Self.withClient { client in
            let image = try await Self.call(
                client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 100, "height": 80]])
            let gallery = try await Self.call(
                client, .post, "/api/views", ["folder": "album", "viewport": ["width": 100, "height": 80]])
            let gestureError = try #require(throws: ZoomGestureParseError.self) {
                try ZoomGesture(parsing: "pinch x 1,2")
            }
            let badGesture = try await Self.call(
                client, .post, "/api/views/\(image.view)/gestures", ["gesture": "pinch x 1,2"])
            #expect(badGesture.status == .badRequest && badGesture.text == "\(gestureError)\n")
            let moveError = try #require(throws: PageMoveError.self) { try PageMoveList(parsing: "sideways") }
            let badMove = try await Self.call(client, .post, "/api/views/\(gallery.view)/moves", ["move": "sideways"])
            #expect(badMove.status == .badRequest && badMove.text == "\(moveError)\n")
            let imageMove = try await Self.call(client, .post, "/api/views/\(image.view)/moves", ["move": "next"])
            #expect(imageMove.status == .conflict)
            let twoMoves = try await Self.call(client, .post, "/api/views/\(gallery.view)/moves", ["move": "next,next"])
            #expect(twoMoves.status == .badRequest)
            let gotoZero = try await Self.call(client, .post, "/api/views/\(gallery.view)/moves", ["move": "goto 0"])
            #expect(gotoZero.status == .badRequest && gotoZero.text.contains("a page number from 1 up"))
            let pastTheEnd = try await Self.call(client, .post, "/api/views/\(gallery.view)/moves", ["move": "goto 3"])
            #expect(pastTheEnd.status == .conflict, "\(pastTheEnd.text)")
            #expect(pastTheEnd.text == "goto 3: there is no page 3: the gallery has 2 pages\n")
            let gotoTwo = try await Self.call(client, .post, "/api/views/\(gallery.view)/moves", ["move": "GOTO 2"])
            #expect(gotoTwo.status == .ok && gotoTwo.json["pageIndex"] as? Int == 1, "\(gotoTwo.text)")
            let extraKey = try await Self.call(
                client, .post, "/api/views/\(gallery.view)/moves", ["move": "next", "speed": 2])
            #expect(extraKey.status == .badRequest && extraKey.text.contains("\"speed\""), "\(extraKey.text)")

            let bodies: [[String: Any]] = [
                [:], ["image": "rocket.jpg"], ["image": "rocket.jpg", "viewport": ["width": 0, "height": 10]],
                ["image": "rocket.jpg", "viewport": ["width": 4097, "height": 10]],
                ["image": "rocket.jpg", "viewport": ["width": 10, "height": 10, "depth": 1]],
                ["image": "rocket.jpg", "viewport": ["width": 10, "height": 10], "zoom": 2],
                ["image": "rocket.jpg", "viewport": ["width": 10, "height": "10"]],
                ["image": "rocket.jpg", "folder": "", "viewport": ["width": 10, "height": 10]],
                ["image": "rocket.jpg", "viewport": ["width": 10, "height": 10], "peek": 4],
                ["folder": "", "viewport": ["width": 10, "height": 10], "peek": -1],
                ["image": "rocket.jpg", "viewport": ["width": 10, "height": 10], "maxScale": 0],
                ["image": "rocket.jpg", "viewport": ["width": 10, "height": 10], "maxScale": NSNull()],
            ]
            for body in bodies {
                let answer = try await Self.call(client, .post, "/api/views", body)
                #expect(answer.status == .badRequest, "\(body): \(answer.text)")
                #expect(answer.text.hasSuffix("\n") && !answer.text.dropLast().contains("\n"), "one line")
            }
            let notJSON = try await client.execute(
                uri: "/api/views", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"image\": ")
            ) { $0.status }
            #expect(notJSON == .badRequest)
            for id in ServeFixture.escapes + ["missing.jpg"] {
                let answer = try await Self.call(
                    client, .post, "/api/views", ["image": id, "viewport": ["width": 10, "height": 10]])
                #expect(answer.status == .notFound, "\(id)")
            }
            for folder in ["..", "%2E%2E", "missing", "rocket.jpg", ".hidden"] {
                let answer = try await Self.call(
                    client, .post, "/api/views", ["folder": folder, "viewport": ["width": 10, "height": 10]])
                #expect(answer.status == .notFound, "\(folder)")
            }
            #expect(try await Self.call(client, .get, "/api/views/nope").status == .notFound)
            #expect(
                try await Self.call(client, .post, "/api/views/nope/gestures", ["gesture": "two-finger-tap"]).status
                    == .notFound)
        }
    }

    @Test("a corrupt page gives 422 for its frame and the view and server go on")
    func corruptPage() async throws {
        try await Self.withClient(TileServer(settings: ServeSettings(root: ServeFixture.root))) { client in
            let gallery = try await Self.call(
                client, .post, "/api/views", ["folder": "", "viewport": ["width": 120, "height": 90]])
            #expect(gallery.status == .created, "\(gallery.text)")
            // The root's served images in natural order: broken.jpg, inside.jpg, rocket.jpg (no link out, no FIFO).
            #expect(gallery.json["pages"] as? Int == 3)
            #expect(gallery.page?["page"] as? String == "broken.jpg")
            #expect(try await Self.frame(client, gallery.view).0 == .unprocessableContent)
            let next = try await Self.call(client, .post, "/api/views/\(gallery.view)/moves", ["move": "next"])
            #expect(next.status == .ok && next.page?["page"] as? String == "inside.jpg")
            #expect(try await Self.frame(client, next.view).0 == .ok)
        }
    }

    @Test("a method a served path does not take is 405 with Allow; paths not served stay 404")
    func methods() async throws {
        try await Self.withClient { client in
            let cases: [(HTTPRequest.Method, String, String?)] = [
                (.trace, "/api/views", "POST"), (.get, "/api/views", "POST"),
                (.put, "/api/views/x", "GET, HEAD, DELETE"),
                (.get, "/api/views/x/gestures", "POST"), (.post, "/api/views/x/frame.png", "GET, HEAD"),
                (.post, "/iiif/3/rocket.jpg/info.json", "GET, HEAD"), (.delete, "/", "GET, HEAD"),
                (.put, "/favicon.ico", nil), (.get, "/api/nothing", nil),
            ]
            for (method, uri, allow) in cases {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == (allow == nil ? .notFound : .methodNotAllowed), "\(method) \(uri)")
                    #expect(response.headers[.allow] == allow, "\(method) \(uri)")
                }
            }
        }
    }

    @Test("/api/openapi.json is OpenAPI 3.1 and names every route")
    func openAPI() async throws {
        try await Self.withClient { client in
            let answer = try await Self.call(client, .get, "/api/openapi.json")
            #expect(answer.status == .ok)
            #expect(answer.json["openapi"] as? String == "3.1.0")
            let paths = try #require(answer.json["paths"] as? [String: Any])
            #expect(
                Set(paths.keys) == [
                    "/api/views", "/api/views/{vid}", "/api/views/{vid}/gestures", "/api/views/{vid}/moves",
                    "/api/views/{vid}/frame.png", "/api/views/{vid}/pages", "/api/images/{id}/preview.jpg",
                    "/api/images/{id}/info",
                ])
        }
    }

    @Test("the pages: the listing links views, galleries and IIIF thumbnails; view and gallery pages carry the ids")
    func pages() async throws {
        try await Self.withClient { client in
            let listing = try await client.execute(uri: "/", method: .get) { String(buffer: $0.body) }
            #expect(listing.contains("href=\"/view/rocket.jpg\""))
            #expect(listing.contains("src=\"/iiif/3/rocket.jpg/full/!240,240/0/default.jpg\""))
            #expect(listing.contains("alt=\"rocket.jpg\""))
            #expect(listing.contains("href=\"/browse/album\"") && listing.contains("href=\"/gallery/album\""))
            let album = try await client.execute(uri: "/browse/album", method: .get) { String(buffer: $0.body) }
            #expect(album.contains("href=\"/view/album%2Fcoffee.png\""))
            let view = try await client.execute(uri: "/view/album%2Fcoffee.png", method: .get) {
                String(buffer: $0.body)
            }
            #expect(view.contains("id=\"tileview-viewport\"") && view.contains("data-id=\"album%2Fcoffee.png\""))
            #expect(view.contains("aria-label=\"coffee.png\"") && view.contains("tabindex=\"0\""))
            let gallery = try await client.execute(uri: "/gallery/album?circular=1&peek=30", method: .get) {
                String(buffer: $0.body)
            }
            #expect(gallery.contains("data-folder=\"album\"") && gallery.contains("data-peek=\"30\""))
            #expect(gallery.contains("data-circular=\"1\""))
            let script = try await client.execute(uri: "/viewer/viewer.js", method: .get) { $0 }
            #expect(script.status == .ok && script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            for uri in ["/view/..%2Fsecret.jpg", "/gallery/..", "/browse/%2E%2E", "/view/missing.jpg"] {
                // A page with what was asked for and a way back, not a bare line of text.
                let (status, page) = try await client.execute(uri: uri, method: .get) {
                    ($0.status, String(buffer: $0.body))
                }
                #expect(status == .notFound, "\(uri)")
                #expect(
                    page.contains("<h1>Not found</h1>") && page.contains("<a href=\"/\">Back to "), "\(uri): \(page)")
            }
            #expect(
                try await client.execute(uri: "/view/missing.jpg", method: .get) { String(buffer: $0.body) }
                    .contains("The image missing.jpg is not here"))
            // The toolbar of docs/design.md section 17 on both pages, each button labelled.
            for page in [view, gallery] {
                #expect(page.contains("id=\"tileview-toolbar\" role=\"toolbar\""))
                #expect(
                    page.contains("<canvas id=\"tileview-navigator\" role=\"img\"")
                        && page.contains("id=\"tileview-info\""))
                for action in [
                    "zoom-in", "zoom-out", "fit", "one-to-one", "rotate", "fullscreen", "info", "copy-link", "download",
                    "help",
                ] {
                    #expect(page.contains("data-action=\"\(action)\" aria-label=\""), "\(action)")
                }
                #expect(page.contains("<div id=\"tileview-help\" role=\"dialog\""))
            }
            // Galleries add the slideshow with its interval, and the strip: one lazy IIIF thumbnail per page, in
            // the gallery's page order, numbered from 1 as goto counts.
            #expect(
                gallery.contains("data-action=\"slideshow\" aria-label=\"Play a slideshow\" aria-pressed=\"false\""))
            #expect(gallery.contains("<select data-setting=\"interval\""))
            #expect(!view.contains("data-action=\"slideshow\"") && !view.contains("tileview-strip"))
            let strip = try #require(gallery.range(of: "<nav id=\"tileview-strip\"").map { gallery[$0.lowerBound...] })
            let numbered = strip.matches(of: /data-page="(\d+)" aria-label="\d+: ([^"]+)"/).map {
                (Int($0.1)!, String($0.2))
            }
            #expect(numbered.map(\.0) == [1, 2] && numbered.map(\.1) == ["coffee.png", "rocket.jpg"], "\(numbered)")
            #expect(
                strip.contains(
                    "<img loading=\"lazy\" alt=\"\" src=\"/iiif/3/album%2Frocket.jpg/full/!96,96/0/default.jpg\">"))
            // The pages ask for the server's --max-scale (4 by default), so a small image can be zoomed.
            #expect(view.contains("data-max-scale=\"4.0\"") && gallery.contains("data-max-scale=\"4.0\""))
            // The listing of the root is titled with the served folder's name, not "tileview - tileview".
            let rootName = Self.pagesRoot.lastPathComponent
            #expect(
                listing.contains("<title>\(rootName) - tileview</title>") && listing.contains("<h1>\(rootName)</h1>"))
        }
    }

    @Test("the original file: its bytes as stored, in chunks, named for download, with its tag; 304 and 404")
    func originalFile() async throws {
        let server = Self.server()
        try await Self.withClient(server) { client in
            for name in ["astronaut.png", "album/rocket.jpg"] {
                let stored = try Data(contentsOf: Self.pagesRoot.appendingPathComponent(name))
                let encoded = name.replacingOccurrences(of: "/", with: "%2F")
                let response = try await client.execute(uri: "/api/images/\(encoded)/file", method: .get) { $0 }
                #expect(response.status == .ok)
                #expect(Data(buffer: response.body) == stored, "\(name): \(response.body.readableBytes) bytes")
                #expect(response.headers[.contentType] == (name.hasSuffix(".png") ? "image/png" : "image/jpeg"))
                let file = String(name.split(separator: "/").last!)
                #expect(
                    response.headers[.contentDisposition]
                        == "attachment; filename=\"\(file)\"; filename*=UTF-8''\(file)")
                let tag = try #require(response.headers[.eTag])
                let again = try await client.execute(
                    uri: "/api/images/\(encoded)/file", method: .get, headers: [.ifNoneMatch: tag]
                ) { $0 }
                #expect(again.status == .notModified && again.body.readableBytes == 0)
            }
            // astronaut.png is 791,555 bytes: four chunks of 256 KiB, the last one short.
            #expect(try Data(contentsOf: Self.pagesRoot.appendingPathComponent("astronaut.png")).count > 3 << 18)
            for uri in ["/api/images/missing.jpg/file", "/api/images/..%2Fsecret.jpg/file", "/api/images/album/file"] {
                #expect(try await client.execute(uri: uri, method: .get) { $0.status } == .notFound, "\(uri)")
            }
        }
        // Each download held its chunk in the work budget while it was sent, and gave it back.
        #expect(server.budget.figures.peak >= ImageController.originalChunkBytes && server.budget.figures.used == 0)
    }

    @Test("a download's name: plain ASCII as filename, the exact name (RFC 8187) as filename*")
    func attachmentNames() {
        #expect(ImageController.attachment("a b.jpg") == "attachment; filename=\"a b.jpg\"; filename*=UTF-8''a%20b.jpg")
        #expect(
            ImageController.attachment("été \"1\".png")
                == "attachment; filename=\"_t_ _1_.png\"; filename*=UTF-8''%C3%A9t%C3%A9%20%221%22.png")
        #expect(ImageController.mediaType(ofFileNamed: "X.JPEG") == "image/jpeg")
        #expect(ImageController.mediaType(ofFileNamed: "notes") == "application/octet-stream")
    }
}

extension ViewAPITests {
    @Test("a view closed on one server is 404 there until its tokens expire; another with the key goes on")
    func closedHereOnly() async throws {
        let time = Locked(1_800_000_000.0)
        var settings = Self.server(idle: 60).settings
        settings.viewClock = { time.withLock { $0 } }
        let closing = TileServer(settings: settings)
        try await Self.withClient(closing) { client in
            try await Self.withClient { other in
                let created = try await Self.call(
                    client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 80, "height": 60]])
                let tapped = try await Self.call(
                    client, .post, "/api/views/\(created.view)/gestures", ["gesture": "double-tap 40,30"])
                #expect(try await Self.call(client, .delete, "/api/views/\(created.view)").status == .noContent)
                for token in [created.view, tapped.view] {
                    #expect(try await Self.call(client, .get, "/api/views/\(token)").status == .notFound)
                }
                // The other server never heard of the close (nothing but the key is shared).
                let elsewhere = try await Self.call(other, .get, "/api/views/\(tapped.view)")
                #expect(elsewhere.status == .ok && elsewhere.state == tapped.state)
                // Past the closing token's expiry the session is forgotten here too.
                let session = try ViewToken.read(created.view[...], key: Self.key, now: 0).session
                #expect(closing.views.isClosed(session))
                time.withLock { $0 += 61 }
                #expect(!closing.views.isClosed(session))
            }
        }
    }

    @Test("a token of an image or folder that changed since is refused by a server rebuilding it; the key is kept")
    func changedSources() async throws {
        try await TemporaryFolder.with("views-changed") { root in
            let fm = FileManager.default
            try fm.createDirectory(at: root.appendingPathComponent("g"), withIntermediateDirectories: true)
            for name in ["rocket.jpg", "g/rocket.jpg", "g/coffee.png"] {
                try fm.copyItem(
                    at: Fixtures.sampleImages.appendingPathComponent(String(name.split(separator: "/").last!)),
                    to: root.appendingPathComponent(name))
            }
            let server = Self.server(root: root)
            let rebuilder = Self.server(root: root)
            let app = try buildApplication(server)
            let other = try buildApplication(rebuilder)
            try await app.test(.router) { client in
                try await other.test(.router) { otherClient in
                    let image = try await Self.call(
                        client, .post, "/api/views", ["image": "rocket.jpg", "viewport": ["width": 90, "height": 60]])
                    let gallery = try await Self.call(
                        client, .post, "/api/views", ["folder": "g", "viewport": ["width": 90, "height": 60]])
                    for answer in [image, gallery] {
                        #expect(try await Self.call(otherClient, .get, "/api/views/\(answer.view)").status == .ok)
                    }
                    // The image rewritten (a new modification time), a page added to the folder.
                    try fm.setAttributes(
                        [.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
                        ofItemAtPath: root.appendingPathComponent("rocket.jpg").path)
                    try fm.copyItem(
                        at: Fixtures.sampleImages.appendingPathComponent("astronaut.png"),
                        to: root.appendingPathComponent("g/astronaut.png"))
                    let fresh = Self.server(root: root)
                    try await buildApplication(fresh).test(.router) { freshClient in
                        for answer in [image, gallery] {
                            let refused = try await Self.call(freshClient, .get, "/api/views/\(answer.view)")
                            #expect(refused.status == .notFound, "\(refused.text)")
                            #expect(refused.text.contains("changed since the view was made"), "\(refused.text)")
                        }
                    }
                }
            }
        }
    }

    @Test("the key kept in a cache folder: made once, owner-only, the same for every reader; a short one refused")
    func keptKey() throws {
        try TemporaryFolder.with("view-key") { folder in
            let path = folder.appendingPathComponent("cache").path
            let first = try ViewKey.kept(in: path)
            let again = try ViewKey.kept(in: path)
            #expect(first == again && first.count == ViewKey.bytes)
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: path + "/" + ViewKey.fileName)[.posixPermissions]
                    as? Int)
            #expect(mode == 0o600, "\(String(mode, radix: 8))")
            // Two servers starting at once on one folder agree on one key.
            let racing = folder.appendingPathComponent("race").path
            let keys = Locked<[[UInt8]]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if let key = try? ViewKey.kept(in: racing) { keys.withLock { $0.append(key) } }
            }
            #expect(keys.withLock { $0.count == 8 && Set($0).count == 1 })
            let short = folder.appendingPathComponent("short").path
            try FileManager.default.createDirectory(atPath: short, withIntermediateDirectories: true)
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: short + "/" + ViewKey.fileName))
            #expect(throws: TileViewError.self) { try ViewKey.kept(in: short) }
        }
    }
}

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

    @Test("a 4K view of an image or a folder opens under the default budget (its client draws tiles); a scene's not")
    func largeViewports() async throws {
        try await ViewAPITests.withClient(ViewAPITests.server(root: Self.root)) { client in
            let viewport = ["width": 3840, "height": 2160]
            let image = try await ViewAPITests.call(
                client, .post, "/api/views", ["image": "photos%2Frocket.jpg", "viewport": viewport])
            #expect(image.status == .created, "\(image.text)")
            #expect((image.json["placements"] as? [Any])?.count == 1, "\(image.text)")
            let gallery = try await ViewAPITests.call(
                client, .post, "/api/views", ["folder": "photos", "viewport": viewport])
            #expect(gallery.status == .created, "\(gallery.text)")
            // Its frame.png is planned on its own: three 4K copies and a band's decoding are over the large lane.
            let (status, body) = try await ViewAPITests.frame(client, image.view)
            let text = String(decoding: body, as: UTF8.self)
            #expect(status == .badRequest && text.contains("--work-mb"), "\(status) \(text)")
            // A scene's client draws frame.png: a viewport whose least frame is over the lane is refused at once.
            let scene = try await ViewAPITests.call(
                client, .post, "/api/views", ["image": Self.board, "viewport": viewport])
            #expect(scene.status == .badRequest && scene.text.contains("needs about"), "\(scene.text)")
        }
    }

    @Test("a view's frame is planned from the region it reads: a frame the viewport's bound would refuse is drawn")
    func framePlanFromTheFrame() async throws {
        // retina.jpg (1411x1411) at fit in 800x1200 reads level 0 whole, well under twice the viewport each way.
        let root = try TemporaryFolder.untilExit("view-plan")
        try FileManager.default.copyItem(
            at: Fixtures.sampleImages.appendingPathComponent("retina.jpg"),
            to: root.appendingPathComponent("retina.jpg"))
        let viewport = PixelSize(width: 800, height: 1200)
        let image = try TiledImage(path: root.appendingPathComponent("retina.jpg").path)
        let fit = ZoomState(imageSize: image.imageSize.asSize, viewportSize: viewport.asSize)
        let source = try #require(image.frameSourceBytes(for: fit))
        let decoding = image.decodePeakBytes(for: fit)
        let planned = LiveView.framePlan(viewport, scene: false, decoding: decoding, source: source).bytes
        let bound = LiveView.framePlan(viewport, scene: false, decoding: decoding).bytes
        #expect(source == 1411 * 1411 * 4 && planned < bound, "\(source) \(planned) \(bound)")
        // The least --work-mb whose large lane holds the frame's plan; the viewport's bound does not fit it.
        let workMiB = try #require(WorkBudget.budgetMiB(admitting: planned))
        #expect(bound > WorkBudget(budgetBytes: workMiB << 20).capacity(of: .large))
        for (mebibytes, drawn) in [(workMiB, true), (workMiB - 1, false)] {
            var settings = ServeSettings(root: try ServeRoot(path: root.path), workBytes: mebibytes << 20)
            settings.viewKey = ViewAPITests.key
            try await ViewAPITests.withClient(TileServer(settings: settings)) { client in
                let created = try await ViewAPITests.call(
                    client, .post, "/api/views", ["image": "retina.jpg", "viewport": ["width": 800, "height": 1200]])
                #expect(created.status == .created, "--work-mb \(mebibytes): \(created.text)")
                let (status, png) = try await ViewAPITests.frame(client, created.view)
                if drawn {
                    #expect(status == .ok && png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "--work-mb \(mebibytes)")
                } else {
                    let text = String(decoding: png, as: UTF8.self)
                    #expect(status == .badRequest && text.contains("--work-mb \(workMiB) or more"), "\(text)")
                }
            }
        }
    }
}
