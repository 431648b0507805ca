import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewCodecs
import TileViewTestSupport

@testable import TileViewServe

/// The disk cache through the server (docs/design.md section 16): the indexer writes every image's coarse levels,
/// a restarted server answers a first view from them with no decode and the same bytes, a changed file never meets
/// its old entry, and a damaged entry is decoded around and written again.
@Suite("Server disk cache")
struct DiskCacheRouteTests {
    /// A root of three images (a JPEG, a PNG, a JPEG whose coarse levels start past 1/1: retina, 1411 px).
    static func makeRoot(_ folder: URL) throws -> URL {
        let root = folder.appendingPathComponent("root")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("albums"), withIntermediateDirectories: true)
        for (source, name) in [
            ("rocket.jpg", "rocket.jpg"), ("coffee.png", "albums/coffee.png"), ("retina.jpg", "retina.jpg"),
        ] {
            try FileManager.default.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent(source), to: root.appendingPathComponent(name))
        }
        return root
    }

    static func settings(root: URL, cache: URL, workers: Int) throws -> ServeSettings {
        var settings = ServeSettings(root: try ServeRoot(path: root.path))
        settings.levelStore = try CoarseLevelStore(folder: cache.path, budgetBytes: 256 << 20)
        settings.indexWorkers = workers
        return settings
    }

    /// A first view: info.json, then tiles of the coarse levels. (A tile whose region is not a whole number of
    /// its level's pixels, as at the right edge of an odd-sized image, is drawn from the next finer level: the
    /// level choice of docs/design.md section 10, which the disk cache does not change.)
    static let firstView: [String: [String]] = [
        "retina.jpg": [
            "full/!256,256/0/default.jpg", "0,0,1024,1024/256,/0/default.jpg", "1024,0,384,1024/96,/0/default.jpg",
            "0,0,512,512/256,/0/default.jpg", "512,512,512,512/256,/0/default.jpg",
            "1024,1024,386,386/193,/0/default.jpg",
        ],
        "albums%2Fcoffee.png": [
            "full/!300,300/0/default.jpg", "0,0,512,400/256,/0/default.jpg", "0,0,256,256/256,/0/default.png",
        ],
    ]

    static func answers(_ server: TileServer) async throws -> [String: [UInt8]] {
        let bodies = Locked([String: [UInt8]]())
        try await buildApplication(server).test(.router) { client in
            for (id, tiles) in Self.firstView.sorted(by: { $0.key < $1.key }) {
                try await client.execute(uri: "/iiif/3/\(id)/info.json", method: .get) { #expect($0.status == .ok) }
                for tile in tiles {
                    try await client.execute(uri: "/iiif/3/\(id)/\(tile)", method: .get) { response in
                        #expect(response.status == .ok, "\(id)/\(tile)")
                        let body = Array(buffer: response.body)
                        bodies.withLock { $0["\(id)/\(tile)"] = body }
                    }
                }
            }
        }
        return bodies.withLock { $0 }
    }

    /// Runs `body` with a fresh root (`makeRoot`) and a cache folder its images were indexed into by a server.
    static func withIndexedRoot(_ label: String, _ body: (URL, URL) async throws -> Void) async throws {
        try await withRoot(label) { root, cache in
            try await Self.index(TileServer(settings: try Self.settings(root: root, cache: cache, workers: 1)))
            try await body(root, cache)
        }
    }

    /// Runs `body` with a new root (`makeRoot`) and the path of a cache folder beside it, not made yet.
    static func withRoot(_ label: String, _ body: (URL, URL) async throws -> Void) async throws {
        try await TemporaryFolder.with(label) { folder in
            try await body(try Self.makeRoot(folder), folder.appendingPathComponent("cache"))
        }
    }

    /// Runs a server with an indexer until every image under its root is indexed (or 60 s pass).
    static func index(_ server: TileServer) async throws {
        let figures = try await Self.runIndexer(server, images: 3)
        #expect(figures.indexed >= 3 && figures.failed == 0 && figures.pending == 0)
    }

    /// Runs a server with an indexer until `images` are indexed or failed and none is pending (or 60 s pass); the
    /// indexer's figures then.
    static func runIndexer(
        _ server: TileServer, images: Int
    ) async throws -> (indexed: Int, pending: Int, failed: Int) {
        try await buildApplication(server).test(.router) { _ in
            let indexer = try #require(server.indexer)
            for _ in 0..<600 {
                let figures = indexer.figures
                if figures.indexed + figures.failed >= images && figures.pending == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            return indexer.figures
        }
    }

    @Test("after the indexer ran, a restarted server answers the first view from disk: no decode, the same bytes")
    func restart() async throws {
        try await Self.withIndexedRoot("serve-disk") { root, cache in
            let entries = CacheFiles.entries(under: cache.path + "/levels", suffix: ".levels")
            #expect(entries.count == 3)

            let restarted = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            let fromDisk = try await Self.answers(restarted)
            #expect(restarted.tiles.statistics.bytesDecoded == 0, "no tile decoded")
            #expect(restarted.tiles.bandsDecoded == 0)
            #expect(restarted.tiles.diskLoads == 2)
            #expect(restarted.settings.levelStore?.figures.hits == 2)

            let plain = TileServer(settings: ServeSettings(root: try ServeRoot(path: root.path)))
            let decoded = try await Self.answers(plain)
            #expect(plain.tiles.statistics.bytesDecoded > 0)
            #expect(fromDisk.count == decoded.count)
            for (path, body) in decoded { #expect(fromDisk[path] == body, "\(path): the same bytes as decoded") }
        }
    }

    @Test("a file changed on disk is decoded, never answered from its old entry")
    func changedFile() async throws {
        try await Self.withIndexedRoot("serve-disk-changed") { root, cache in
            // The same name now holds another picture of the same size (its negative): a new identity.
            let path = root.appendingPathComponent("albums/coffee.png")
            let original = try PNGDecoder.decode(.file(path: path.path)).image
            let negative = ImageBuffer(
                width: original.width, height: original.height,
                pixels: original.pixels.enumerated().map { $0.offset % 4 == 3 ? $0.element : 255 - $0.element })
            try Data(try PNGEncoder.encode(negative)).write(to: path)
            let server = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            try await buildApplication(server).test(.router) { client in
                try await client.execute(uri: "/iiif/3/albums%2Fcoffee.png/full/max/0/default.png", method: .get) {
                    response in
                    let image = try PNGDecoder.decode(.bytes(Array(buffer: response.body))).image
                    #expect(image == negative, "the new contents")
                }
            }
            #expect(server.tiles.diskLoads == 0 && server.tiles.statistics.bytesDecoded > 0)
        }
    }

    @Test("a damaged entry is counted, decoded around, and written again by the indexer")
    func damagedEntry() async throws {
        try await Self.withIndexedRoot("serve-disk-damaged") { root, cache in
            for entry in CacheFiles.entries(under: cache.path + "/levels", suffix: ".levels") {
                var bytes = try Fixtures.bytes(URL(fileURLWithPath: entry.path))
                bytes[bytes.count / 2] ^= 0x40
                try Data(bytes).write(to: URL(fileURLWithPath: entry.path))
            }
            let server = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 1))
            let answers = try await Self.answers(server)
            #expect(server.settings.levelStore?.figures.damaged == 2, "the two images asked for")
            #expect(server.tiles.bandsDecoded > 0 && answers.count == 9)
            try await Self.index(server)
            let again = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            _ = try await Self.answers(again)
            #expect(again.tiles.statistics.bytesDecoded == 0 && again.tiles.diskLoads == 2)
        }
    }

    @Test(
        "the indexer holds each decode's plan from the work budget: a file whose plan never fits is named, not decoded")
    func indexerPlansMemory() async throws {
        try await Self.withRoot("serve-disk-plan") { root, cache in
            // 908 bytes declaring 26,881 samples a pixel: its decoder would hold 3.7 GiB, past any --work-mb.
            try FileManager.default.copyItem(
                at: Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/tiff-26881-samples-a-pixel.tif"),
                to: root.appendingPathComponent("samples.tif"))
            let warnings = Locked([String]())
            let settings = try Self.settings(root: root, cache: cache, workers: 1)
            let server = TileServer(settings: settings) { line in warnings.withLock { $0.append(line) } }
            let figures = try await Self.runIndexer(server, images: 4)
            #expect(figures.indexed == 3 && figures.failed == 1, "\(figures)")
            let named = warnings.withLock { $0 }.filter {
                $0.contains("samples.tif: not indexed: its coarse levels need about")
                    && $0.contains("decoder working memory") && $0.contains("more than --work-mb gives one render")
            }
            #expect(named.count == 1, "\(warnings.withLock { $0 })")
            let budget = server.budget.figures
            #expect(budget.peak > 0 && budget.peak <= settings.workBytes && budget.used == 0, "\(budget)")
            #expect(budget.neverFits == 0, "no request was refused")
        }
    }

    @Test("past five images over the work budget, the indexer's warnings stop naming them and say so once")
    func indexerWarningsBounded() async throws {
        try await TemporaryFolder.with("serve-disk-many") { folder in
            let root = folder.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for k in 0..<8 {
                try FileManager.default.copyItem(
                    at: Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/tiff-26881-samples-a-pixel.tif"),
                    to: root.appendingPathComponent("samples-\(k).tif"))
            }
            let warnings = Locked([String]())
            let server = TileServer(
                settings: try Self.settings(root: root, cache: folder.appendingPathComponent("cache"), workers: 1)
            ) { line in warnings.withLock { $0.append(line) } }
            let figures = try await Self.runIndexer(server, images: 8)
            #expect(figures.failed == 8, "\(figures)")
            let lines = warnings.withLock { $0 }
            #expect(lines.filter { $0.contains(": not indexed: its coarse levels need about") }.count == 5, "\(lines)")
            #expect(lines.filter { $0.contains("more images are over --work-mb and not indexed") }.count == 1)
            #expect(lines.count == 6, "\(lines)")
        }
    }

    static func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u32(_ v: Int) -> [UInt8] { u16(v >> 16 & 0xFFFF) + u16(v & 0xFFFF) }

    /// Writes `camera.jpg` (SampleImages/rocket.jpg with the big-endian TIFF `exif` in an APP1 segment right after
    /// its SOI) and `plain.jpg` (rocket.jpg as it is) into `folder`.
    static func writeCameraAndPlain(exif: [UInt8], into folder: URL) throws {
        let payload = Array("Exif".utf8) + [0, 0] + exif
        let rocket = try Fixtures.bytes(Fixtures.sampleImages.appendingPathComponent("rocket.jpg"))
        let file = Array(rocket[0..<2]) + [0xFF, 0xE1] + u16(payload.count + 2) + payload + Array(rocket[2...])
        try Data(file).write(to: folder.appendingPathComponent("camera.jpg"))
        try Data(rocket).write(to: folder.appendingPathComponent("plain.jpg"))
    }

    @Test("preview.jpg is the thumbnail the file embeds, turned as the image is; 404 without one")
    func preview() async throws {
        try await TemporaryFolder.with("serve-preview") { folder in
            let thumbnail = try JPEGEncoder.encode(ImageBuffer(width: 16, height: 12, fill: RGBA8(r: 9, g: 99, b: 199)))
            // SampleImages/rocket.jpg with an EXIF segment first: orientation 6, and the thumbnail in IFD1.
            let (u16, u32) = (Self.u16, Self.u32)
            var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + u32(8)
            tiff += u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(6) + u16(0) + u32(26)
            tiff += u16(2) + u16(0x0201) + u16(4) + u32(1) + u32(56) + u16(0x0202) + u16(4) + u32(1)
            tiff += u32(thumbnail.count) + u32(0) + thumbnail
            try Self.writeCameraAndPlain(exif: tiff, into: folder)
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: folder.path)))
            try await buildApplication(server).test(.router) { client in
                try await client.execute(uri: "/api/images/camera.jpg/preview.jpg", method: .get) { response in
                    #expect(response.status == .ok && response.headers[.contentType] == "image/jpeg")
                    #expect(response.headers[.eTag] != nil)
                    let body = Array(buffer: response.body)
                    #expect(body == ExifThumbnail.oriented(thumbnail, orientation: 6))
                    let turned = try? JPEGDecoder.decode(.bytes(body)).image
                    #expect(turned?.size == PixelSize(width: 12, height: 16), "a quarter turn")
                }
                try await client.execute(uri: "/api/images/plain.jpg/preview.jpg", method: .get) { response in
                    #expect(response.status == .notFound)
                    #expect(String(buffer: response.body) == "plain.jpg has no embedded preview\n")
                }
                try await client.execute(uri: "/api/images/..%2Fsecret.jpg/preview.jpg", method: .get) {
                    #expect($0.status == .notFound)
                }
            }
            #expect(server.tiles.statistics.bytesDecoded == 0, "nothing decoded")
        }
    }

    @Test("/api/images/{id}/info is info --json of the image, with the camera its EXIF names")
    func imageInfo() async throws {
        try await TemporaryFolder.with("serve-info") { folder in
            // SampleImages/rocket.jpg with an EXIF segment naming the camera (IFD0 Make and Model).
            let (u16, u32) = (Self.u16, Self.u32)
            let make = Array("Acme\u{0}".utf8)
            let model = Array("Acme Lens-O-Matic 3000\u{0}".utf8)
            let values = 8 + 2 + 24 + 4
            var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A] + u32(8) + u16(2)
            tiff += u16(0x010F) + u16(2) + u32(make.count) + u32(values)
            tiff += u16(0x0110) + u16(2) + u32(model.count) + u32(values + make.count) + u32(0) + make + model
            try Self.writeCameraAndPlain(exif: tiff, into: folder)
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: folder.path)))
            try await buildApplication(server).test(.router) { client in
                for (name, camera) in [("camera.jpg", "Acme Lens-O-Matic 3000"), ("plain.jpg", nil)] {
                    let json = try await client.execute(uri: "/api/images/\(name)/info", method: .get) { response in
                        #expect(response.status == .ok && response.headers[.eTag] != nil)
                        return (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]
                    }
                    #expect(json?["file"] as? String == name && json?["format"] as? String == "jpeg")
                    #expect(json?["orientedWidth"] as? Int == 640 && json?["orientedHeight"] as? Int == 427)
                    #expect((json?["exif"] as? [String: Any])?["camera"] as? String == camera, "\(name)")
                }
                #expect(
                    try await client.execute(uri: "/api/images/missing.jpg/info", method: .get) { $0.status }
                        == .notFound)
            }
            #expect(server.tiles.statistics.bytesDecoded == 0, "the header only")
        }
    }

    @Test("/metrics carries the disk cache's and the indexer's series")
    func metrics() async throws {
        try await TemporaryFolder.with("serve-disk-metrics") { folder in
            let root = try Self.makeRoot(folder)
            let server = TileServer(
                settings: try Self.settings(root: root, cache: folder.appendingPathComponent("cache"), workers: 1))
            try await Self.index(server)
            try await buildApplication(server).test(.router) { client in
                try await client.execute(uri: "/metrics", method: .get) { response in
                    let text = String(buffer: response.body)
                    for series in [
                        "tileview_disk_cache_bytes ", "tileview_disk_cache_writes_total 3",
                        "tileview_index_indexed_total 3",
                        "tileview_index_pending 0", "tileview_index_failed_total 0",
                    ] {
                        #expect(text.contains(series), "\(series)")
                    }
                }
            }
        }
    }
}

extension DiskCacheRouteTests {
    @Test("a JPEG's entropy index is kept on disk: a restarted server's first level-0 tile makes no pass, same bytes")
    func entropyIndexKept() async throws {
        try await Self.withRoot("serve-index") { root, cache in
            // Level-0 tiles of rocket.jpg (upright baseline): lossless crops through the index.
            let tiles = ["0,0,256,256/256,/0/default.jpg", "256,256,256,256/256,/0/default.jpg"]
            func serve(_ server: TileServer) async throws -> [[UInt8]] {
                let bodies = Locked([[UInt8]]())
                try await buildApplication(server).test(.router) { client in
                    for tile in tiles {
                        try await client.execute(uri: "/iiif/3/rocket.jpg/\(tile)", method: .get) { response in
                            #expect(response.status == .ok, "\(tile)")
                            let body = Array(buffer: response.body)
                            bodies.withLock { $0.append(body) }
                        }
                    }
                }
                return bodies.withLock { $0 }
            }
            let first = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            let built = try await serve(first)
            #expect(first.tiles.indexFigures == (built: 1, loaded: 0))
            #expect(first.tiles.losslessCrops == tiles.count)
            let entries = CacheFiles.entries(under: cache.path + "/levels", suffix: ".index")
            #expect(entries.count == 1)

            let restarted = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            #expect(try await serve(restarted) == built, "the same bytes from the kept index")
            #expect(restarted.tiles.indexFigures == (built: 0, loaded: 1), "no indexing pass after the restart")

            // A damaged entry (one byte flipped) fails its checksum: removed, counted, and the index built again.
            let path = try #require(entries.first).path
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[bytes.count / 2] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let third = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            #expect(try await serve(third) == built)
            #expect(third.tiles.indexFigures == (built: 1, loaded: 0))
            #expect(third.settings.levelStore?.figures.damaged == 1)
        }
    }
}

extension DiskCacheRouteTests {
    @Test("files added while the server runs (a new folder too) are indexed at once: inotify, not the minute's rescan")
    func watchedFolders() async throws {
        try await Self.withRoot("serve-watch") { root, cache in
            let server = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 1))
            try await buildApplication(server).test(.router) { _ in
                let indexer = try #require(server.indexer)
                #expect(indexer.rescanSeconds >= 60, "the periodic rescan cannot be what finds the new files")
                func waitFor(_ count: Int) async throws -> Bool {
                    for _ in 0..<100 {
                        if indexer.figures.indexed >= count && indexer.figures.pending == 0 { return true }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    return false
                }
                #expect(try await waitFor(3))
                let watched = try #require(indexer.watcher).figures
                #expect(watched.watched == 2 && watched.refused == 0, "the root and albums/: \(watched)")
                // A file copied in, then a new folder with an image in it.
                try FileManager.default.copyItem(
                    at: Fixtures.sampleImages.appendingPathComponent("chelsea.png"),
                    to: root.appendingPathComponent("chelsea.png"))
                #expect(try await waitFor(4), "the new file within 10 s: \(indexer.figures)")
                let later = root.appendingPathComponent("later")
                try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    at: Fixtures.sampleImages.appendingPathComponent("astronaut.png"),
                    to: later.appendingPathComponent("astronaut.png"))
                #expect(try await waitFor(5), "the new folder's file within 10 s: \(indexer.figures)")
            }
        }
    }
}

extension DiskCacheRouteTests {
    /// A 4096 x 4096 JPEG (16 MP: the indexers keep its entropy index) of one 256-pixel tile of noise repeated, so
    /// that its scan is long enough for parts.
    static func largeJPEG(at path: URL) throws {
        var generator = SplitMix64(seed: 0x16_4096)
        let tile = (0..<256).map { _ in (0..<(256 * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(4096 * 4096 * 4)
        for y in 0..<4096 {
            let row = tile[y % 256]
            for _ in 0..<16 { pixels += row }
        }
        let jpeg = try JPEGEncoder.encode(
            ImageBuffer(width: 4096, height: 4096, pixels: pixels), options: JPEGEncodeOptions(quality: 60))
        try Data(jpeg).write(to: path)
    }

    @Test("a large JPEG's first view makes its entropy index on the way: its first deep tile makes no pass, same bytes")
    func entropyIndexFromFirstView() async throws {
        try await TemporaryFolder.with("first-view-index") { folder in
            let root = folder.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try Self.largeJPEG(at: root.appendingPathComponent("large.jpg"))
            let cache = folder.appendingPathComponent("cache")
            // A first view (the 1/8 level, 512 x 512, read whole: in parts where there is more than one processor),
            // then a level-0 tile on the MCU grid at its own size: a lossless crop through the index.
            let view = "/iiif/3/large.jpg/full/!512,512/0/default.jpg"
            let deep = "/iiif/3/large.jpg/256,512,256,256/256,/0/default.jpg"
            func get(_ server: TileServer, _ uris: [String]) async throws -> [UInt8] {
                let last = Locked([UInt8]())
                try await buildApplication(server).test(.router) { client in
                    for uri in uris {
                        try await client.execute(uri: uri, method: .get) { response in
                            #expect(response.status == .ok, "\(uri)")
                            last.withLock { $0 = Array(buffer: response.body) }
                        }
                    }
                }
                return last.withLock { $0 }
            }
            let viewed = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 0))
            let crop = try await get(viewed, [view, deep])
            let inParts = DecodeParts.threads.count > 1
            #expect(viewed.tiles.losslessCrops == 1)
            #expect(viewed.tiles.indexesMadeInParts == (inParts ? 1 : 0))
            #expect(viewed.tiles.indexFigures == (built: inParts ? 0 : 1, loaded: 0), "no pass for the deep tile")
            // Kept on disk as a pass's index is, and the same crop as a server that made the index by a pass.
            #expect(CacheFiles.entries(under: cache.path + "/levels", suffix: ".index").count == 1)
            let direct = TileServer(settings: ServeSettings(root: try ServeRoot(path: root.path)))
            #expect(try await get(direct, [deep]) == crop)
            #expect(direct.tiles.indexFigures == (built: 1, loaded: 0) && direct.tiles.indexesMadeInParts == 0)
        }
    }
    @Test("the indexer holds an entropy index pass's plan from the work budget, as it holds a decode's")
    func indexerPlansIndexPass() async throws {
        try await TemporaryFolder.with("serve-disk-index-plan") { folder in
            let root = folder.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let large = root.appendingPathComponent("large.jpg")
            try Self.largeJPEG(at: large)
            let cache = folder.appendingPathComponent("cache")
            let first = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 1))
            #expect(try await Self.runIndexer(first, images: 1).indexed == 1)
            // The levels stay, the index goes: the next indexer makes the index's pass alone.
            let indexes = CacheFiles.entries(under: cache.path + "/levels", suffix: ".index")
            #expect(indexes.count == 1)
            for entry in indexes { try FileManager.default.removeItem(atPath: entry.path) }
            let server = TileServer(settings: try Self.settings(root: root, cache: cache, workers: 1))
            #expect(try await Self.runIndexer(server, images: 1).indexed == 1)
            #expect(CacheFiles.entries(under: cache.path + "/levels", suffix: ".index").count == 1)
            let header = try ImageHeader.read(from: .file(path: large.path))
            let plan = JPEGEntropyIndex.passBytes(
                storedSize: header.storedSize, fileBytes: try Fixtures.bytes(large).count)
            #expect(server.budget.figures.peak == plan && server.budget.figures.used == 0)
        }
    }
}
