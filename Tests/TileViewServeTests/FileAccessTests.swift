import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewTestSupport

@testable import TileViewServe

/// One resolution, one descriptor (docs/design.md section 10): a file is resolved beneath the root and opened in one
/// step, and the descriptor that was checked is the one decoded, so a path swapped for a link out of the root
/// between a check and a use is never followed; views resolve again at every open; the entity tag holds the
/// file's whole identity.
@Suite("File access")
struct FileAccessTests {
    /// A root beside an outside folder: a real image, links that stay inside (relative, absolute, through `..`)
    /// and links that lead out (to a file, through a folder, through `..`, absolute), and a link loop.
    struct Layout {
        let parent: URL
        let root: URL
        let outside: URL
    }

    static func makeLayout(_ parent: URL) throws -> Layout {
        let fm = FileManager.default
        let root = parent.appendingPathComponent("root")
        let outsideFolder = parent.appendingPathComponent("outside")
        try fm.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try fm.createDirectory(at: outsideFolder, withIntermediateDirectories: true)
        let outside = outsideFolder.appendingPathComponent("secret.png")
        try fm.copyItem(at: Fixtures.sampleImages.appendingPathComponent("coffee.png"), to: outside)
        try fm.copyItem(
            at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"), to: root.appendingPathComponent("a.jpg"))
        func link(_ name: String, _ target: String) throws {
            try fm.createSymbolicLink(atPath: root.appendingPathComponent(name).path, withDestinationPath: target)
        }
        try link("in.jpg", "a.jpg")
        try link("abs-in.jpg", root.appendingPathComponent("a.jpg").path)
        try link("sub/up.jpg", "../a.jpg")
        try link("sublink", "sub")
        try link("out.png", outside.path)
        try link("rel-out.png", "../outside/secret.png")
        try link("outdir", "../outside")
        try link("abs-outdir", outsideFolder.path)
        try link("sub/deep-out.png", "../../outside/secret.png")
        try link("loop.jpg", "loop.jpg")
        return Layout(parent: parent, root: root, outside: outside)
    }

    static let inside = ["a.jpg", "in.jpg", "sub/up.jpg", "sublink/up.jpg", "sub/../a.jpg"]
    static let insideAbsolute = ["abs-in.jpg"]
    static let outsideNames = [
        "out.png", "rel-out.png", "outdir/secret.png", "abs-outdir/secret.png", "sub/deep-out.png",
        "sub/../../outside/secret.png", "../outside/secret.png", "loop.jpg", "sublink/../../outside/secret.png",
    ]

    @Test(
        "openat2 and the walk each refuse a link out and a link component out, and follow links that stay inside",
        arguments: [OpenDescriptor.Resolution.kernel, .walk, .automatic])
    func resolutions(_ resolution: OpenDescriptor.Resolution) throws {
        try TemporaryFolder.with("file-access") { parent in
            let layout = try Self.makeLayout(parent)
            let rootPath = try #require(FileStatus.resolvedPath(layout.root.path))
            let root = try #require(OpenDescriptor.openRoot(rootPath))
            let real = try #require(OpenDescriptor.open("a.jpg", beneath: root, resolution: resolution)).identity
            for name in Self.outsideNames {
                #expect(
                    OpenDescriptor.open(name, beneath: root, rootPath: rootPath, resolution: resolution) == nil,
                    "\(name) \(resolution)")
            }
            for name in Self.inside {
                let opened = OpenDescriptor.open(name, beneath: root, rootPath: rootPath, resolution: resolution)
                #expect(opened?.identity == real, "\(name) \(resolution)")
            }
            // openat2 alone (RESOLVE_BENEATH) refuses an absolute link even to a file inside; the walk takes it.
            for name in Self.insideAbsolute {
                let opened = OpenDescriptor.open(name, beneath: root, rootPath: rootPath, resolution: resolution)
                #expect((opened?.identity == real) == (resolution != .kernel), "\(name) \(resolution)")
                #expect(OpenDescriptor.open(name, beneath: root, resolution: resolution) == nil, "no root path")
            }
            #expect(OpenDescriptor.open("sub", beneath: root, resolution: resolution) == nil, "a folder is no file")
            #expect(OpenDescriptor.open("sub", beneath: root, folder: true, resolution: resolution) != nil)
            #expect(OpenDescriptor.open("outdir", beneath: root, folder: true, resolution: resolution) == nil)
        }
    }

    /// Swaps `name` under the root between a real image (a hard link of `real`) and a link to `outside`, by
    /// atomic renames, as fast as it can until stopped.
    final class Swapper: @unchecked Sendable {
        private let lock = NSLock()
        private var stopping = false
        private let done = DispatchSemaphore(value: 0)
        private(set) var swaps = 0

        init(root: URL, name: String, real: URL, outside: URL) {
            let target = root.appendingPathComponent(name).path
            let stagedLink = root.appendingPathComponent(".swap-link").path
            let stagedFile = root.appendingPathComponent(".swap-file").path
            let thread = Thread { [self] in
                var count = 0
                while !lock.withLock({ stopping }) {
                    unlink(stagedLink)
                    if symlink(outside.path, stagedLink) == 0, rename(stagedLink, target) == 0 { count += 1 }
                    // A swap every 0.25 ms or so, each state held as long, leaving the cores to the server's threads
                    // (and to other tests).
                    usleep(250)
                    unlink(stagedFile)
                    if link(real.path, stagedFile) == 0, rename(stagedFile, target) == 0 { count += 1 }
                    usleep(250)
                }
                lock.withLock { swaps = count }
                done.signal()
            }
            thread.start()
        }

        /// Stops swapping (the file is left real) and returns the number of swaps.
        func stop() -> Int {
            lock.withLock { stopping = true }
            done.wait()
            return lock.withLock { swaps }
        }
    }

    static func size(ofInfo body: ByteBuffer) -> PixelSize? {
        guard let json = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
            let width = json["width"] as? Int, let height = json["height"] as? Int
        else { return nil }
        return PixelSize(width: width, height: height)
    }

    @Test("a file swapped thousands of times for a link out: no answer ever describes the outside file")
    func swapRace() async throws {
        try await TemporaryFolder.with("file-access-swap") { parent in
            let layout = try Self.makeLayout(parent)
            let real = parent.appendingPathComponent("real.jpg")  // outside the root, hard-linked in
            try FileManager.default.copyItem(at: layout.root.appendingPathComponent("a.jpg"), to: real)
            let insideSize = PixelSize(width: 640, height: 427)
            let outsideSize = PixelSize(width: 600, height: 400)
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: layout.root.path)))
            let app = try buildApplication(server)
            try await app.test(.router) { client in
                let swapper = Swapper(root: layout.root, name: "swap.jpg", real: real, outside: layout.outside)
                // At least 3 s, 300 answers and both kinds of answer seen, however long that takes on a machine
                // loaded by the other suites (their synchronous tests hold the cooperative pool's two threads for
                // minutes), at most 300 s.
                let start = ContinuousClock.now
                func going(_ tally: [String: Int]) -> Bool {
                    let elapsed = ContinuousClock.now - start
                    let seenBoth =
                        tally["inside", default: 0] > 0 && tally["404", default: 0] > 0
                        || elapsed > .seconds(60)
                    return (elapsed < .seconds(3) || tally.values.reduce(0, +) < 300 || !seenBoth)
                        && elapsed < .seconds(300)
                }
                let tallies = try await withThrowingTaskGroup(of: [String: Int].self) { group in
                    do {
                        group.addTask {
                            var tally: [String: Int] = [:]
                            while going(tally) {
                                for uri in ["/iiif/3/swap.jpg/info.json", "/dzi/swap.jpg.dzi"] {
                                    try await client.execute(uri: uri, method: .get) { response in
                                        var key = "\(response.status.code)"
                                        if response.status == .ok {
                                            let text = String(buffer: response.body)
                                            let size =
                                                uri.hasSuffix(".dzi")
                                                ? (text.contains("Width=\"600\"") && text.contains("Height=\"400\"")
                                                    ? outsideSize
                                                    : text.contains("Width=\"640\"") ? insideSize : nil)
                                                : Self.size(ofInfo: response.body)
                                            key =
                                                size == outsideSize
                                                ? "outside" : size == insideSize ? "inside" : "other"
                                        }
                                        tally[key, default: 0] += 1
                                    }
                                }
                            }
                            return tally
                        }
                    }
                    var all: [String: Int] = [:]
                    for try await tally in group { all.merge(tally, uniquingKeysWith: +) }
                    return all
                }
                let swaps = swapper.stop()
                let answers = tallies.values.reduce(0, +)
                #expect(swaps > 1000, "the file was swapped \(swaps) times")
                #expect(tallies["outside", default: 0] == 0, "\(tallies) over \(answers) answers")
                #expect(tallies["other", default: 0] == 0, "\(tallies)")
                // Both outcomes are usually seen; under the whole suite's load the router may answer only while the
                // file is in place (one fresh-clone run saw no 404 in 300 s), so only the inside answers are required.
                // scripts/probe-connections.sh checks the race on a real server.
                #expect(tallies["inside", default: 0] > 0, "\(tallies)")
                print("swap race: \(swaps) swaps, \(answers) answers: \(tallies)")
            }
        }
    }

    static func call(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: [String: Any]? = nil
    ) async throws -> (status: HTTPResponse.Status, json: [String: Any], bytes: [UInt8]) {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await client.execute(
            uri: uri, method: method, headers: body == nil ? [:] : [.contentType: "application/json"],
            body: data.map { ByteBuffer(bytes: $0) }
        ) { response in
            let json = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]
            return (response.status, json ?? [:], Array(response.body.readableBytesView))
        }
    }

    /// Replaces `name` under the root by a link to `target` (atomically).
    static func swapForLink(_ root: URL, _ name: String, to target: URL) throws {
        let staged = root.appendingPathComponent(".staged").path
        unlink(staged)
        try #require(symlink(target.path, staged) == 0)
        try #require(rename(staged, root.appendingPathComponent(name).path) == 0)
    }

    @Test(
        "open views after a swap for a link out: an image view keeps its checked descriptor (200, the same frame); a gallery page opened after the swap is refused (422), the frame unchanged"
    )
    func viewsAfterSwap() async throws {
        try await TemporaryFolder.with("file-access-views") { parent in
            let layout = try Self.makeLayout(parent)
            let fm = FileManager.default
            try fm.createDirectory(at: layout.root.appendingPathComponent("g"), withIntermediateDirectories: true)
            for page in 1...4 {
                try fm.copyItem(
                    at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                    to: layout.root.appendingPathComponent("g/p\(page).jpg"))
            }
            try fm.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                to: layout.root.appendingPathComponent("ref.jpg"))
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: layout.root.path)))
            let app = try buildApplication(server)
            try await app.test(.router) { client in
                let viewport: [String: Any] = ["width": 320, "height": 240]
                // An image view, and a reference view of an untouched copy of the same image.
                var frames: [[UInt8]] = []
                var views: [String] = []
                for name in ["a.jpg", "ref.jpg"] {
                    let created = try await Self.call(
                        client, .post, "/api/views", ["image": name, "viewport": viewport])
                    #expect(created.status == .created)
                    views.append(try #require(created.json["view"] as? String))
                }
                try Self.swapForLink(layout.root, "a.jpg", to: layout.outside)
                #expect(try await Self.call(client, .get, "/iiif/3/a.jpg/info.json").status == .notFound)
                for var view in views {
                    // Zooming in needs tiles of another level: decoded after the swap, on the live view (each
                    // answer's token is followed; a view rebuilt from a token resolves its file again).
                    for _ in 0..<2 {
                        let zoomed = try await Self.call(
                            client, .post, "/api/views/\(view)/gestures", ["gesture": "double-tap 100,100"])
                        #expect(zoomed.status == .ok)
                        view = try #require(zoomed.json["view"] as? String)
                    }
                    let frame = try await Self.call(client, .get, "/api/views/\(view)/frame.png")
                    #expect(frame.status == .ok)
                    frames.append(frame.bytes)
                }
                #expect(frames[0] == frames[1], "the view still shows the file it checked, not the outside one")

                // A gallery: pages 1 and 2 are open; page 3 becomes a link out before it is opened.
                let gallery = try await Self.call(
                    client, .post, "/api/views", ["folder": "g", "viewport": viewport])
                #expect(gallery.status == .created)
                let galleryView = try #require(gallery.json["view"] as? String)
                #expect(gallery.json["pages"] as? Int == 4)
                let galleryBefore = try await Self.call(client, .get, "/api/views/\(galleryView)/frame.png")
                try Self.swapForLink(layout.root, "g/p3.jpg", to: layout.outside)
                let moved = try await Self.call(client, .post, "/api/views/\(galleryView)/moves", ["move": "next"])
                #expect(moved.status == .unprocessableContent, "\(moved.status) \(moved.json)")
                #expect(!String(decoding: moved.bytes, as: UTF8.self).contains(layout.outside.path))
                let galleryAfter = try await Self.call(client, .get, "/api/views/\(galleryView)/frame.png")
                #expect(galleryAfter.status == .ok)
                #expect(galleryAfter.bytes == galleryBefore.bytes, "the gallery stayed on the page it showed")
                // Back to a real file: the page opens again (resolved again, not remembered as refused).
                try fm.removeItem(at: layout.root.appendingPathComponent("g/p3.jpg"))
                try fm.copyItem(
                    at: Fixtures.sampleImages.appendingPathComponent("chelsea.png"),
                    to: layout.root.appendingPathComponent("g/p3.jpg"))
                let movedAgain = try await Self.call(
                    client, .post, "/api/views/\(galleryView)/moves", ["move": "next"])
                #expect(movedAgain.status == .ok, "\(movedAgain.json)")
            }
        }
    }

    /// A PNG of one colour, stored without compression (deflate level 0): its size depends on its dimensions only.
    static func solidPNG(_ colour: RGBA8) throws -> [UInt8] {
        try PNGEncoder.encode(
            ImageBuffer(width: 64, height: 48, fill: colour),
            options: PNGEncodeOptions(colorType: .rgba, compression: .level(0), filter: .none))
    }

    @Test("a file rewritten with the same size and modification time gets a new entity tag and new pixels")
    func identity() async throws {
        try await TemporaryFolder.with("file-access-identity") { parent in
            let root = parent.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let red = try Self.solidPNG(RGBA8(r: 255, g: 0, b: 0))
            let other = RGBA8(r: 0, g: 0, b: 255)
            let blue = try Self.solidPNG(other)
            try #require(red.count == blue.count, "two files of one size")
            let path = root.appendingPathComponent("id.png").path
            try Data(red).write(to: URL(fileURLWithPath: path))
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: root.path)))
            let app = try buildApplication(server)
            try await app.test(.router) { client in
                func fetch() async throws -> (tag: String?, pixel: RGBA8?) {
                    try await client.execute(uri: "/iiif/3/id.png/full/max/0/default.png", method: .get) { response in
                        let bytes = Array(response.body.readableBytesView)
                        let image = try? ImageDecoder.decode(.bytes(bytes)).image
                        return (response.headers[.eTag], image.map { $0[10, 10] })
                    }
                }
                let first = try await fetch()
                #expect(first.pixel == RGBA8(r: 255, g: 0, b: 0))
                var old = stat()
                try #require(stat(path, &old) == 0)
                let staged = root.appendingPathComponent(".new.png").path
                try Data(blue).write(to: URL(fileURLWithPath: staged))
                var times = [old.st_atim, old.st_mtim]
                try #require(utimensat(AT_FDCWD, staged, &times, 0) == 0)
                try #require(rename(staged, path) == 0)
                var new = stat()
                try #require(stat(path, &new) == 0)
                #expect(new.st_size == old.st_size)
                #expect(new.st_mtim.tv_sec == old.st_mtim.tv_sec && new.st_mtim.tv_nsec == old.st_mtim.tv_nsec)
                let second = try await fetch()
                #expect(second.tag != nil && second.tag != first.tag)
                #expect(second.pixel == other, "the new pixels, not the cached answer")
                // The old entity tag no longer matches: a client holding it gets the new file (200, not 304).
                let revalidated = try await client.execute(
                    uri: "/iiif/3/id.png/info.json", method: .get, headers: [.ifNoneMatch: first.tag ?? ""]
                ) { $0.status }
                #expect(revalidated == .ok)
            }
        }
    }
}
