import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewServe
import TileViewTestSupport

/// The server's caches seen from outside: encoded answers reused, identical requests in flight decoded once,
/// a file changed on disk never served stale, the caches' series in `/metrics`, request bodies refused.
@Suite("Server caches")
struct CacheRouteTests {
    static let tile = "/iiif/3/rocket.jpg/0,0,256,256/256,/0/default.png"

    @Test("a repeated request is answered from the encoded answers, with the same bytes")
    func responseCache() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            var first: [UInt8] = []
            try await client.execute(uri: Self.tile, method: .get) { first = Array(buffer: $0.body) }
            let decoded = server.tiles.statistics.bytesDecoded
            try await client.execute(uri: Self.tile, method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(buffer: response.body) == first)
            }
            #expect(server.responses.statistics.hits == 1)
            #expect(server.tiles.statistics.bytesDecoded == decoded, "nothing decoded for the repeat")
        }
    }

    @Test("identical requests arriving together are rendered once")
    func coalescing() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await client.execute(uri: Self.tile, method: .get) { Array(buffer: $0.body) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(bodies.count == 8 && Set(bodies).count == 1)
            #expect(server.responses.statistics.insertions == 1, "one render for eight requests")
        }
    }

    @Test(
        "the coalescer runs one body per key in flight, the other callers get its value; a later call runs again",
        .timeLimit(.minutes(1)), arguments: [1, 4])
    func coalescerJoins(parts: Int) async throws {
        let coalescer = RequestCoalescer<Int>(parts: parts)
        let runs = Locked(0)
        let (gate, open) = AsyncStream<Void>.makeStream()
        let values = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await coalescer.run("tile") {
                        runs.withLock { $0 += 1 }
                        for await _ in gate { break }
                        return 42
                    }
                }
            }
            // The body waits until seven callers have joined it; then it answers all eight.
            while coalescer.joined < 7 { try? await Task.sleep(for: .milliseconds(5)) }
            open.yield()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 8))
        #expect(runs.withLock { $0 } == 1 && coalescer.joined == 7)
        #expect(await coalescer.run("tile") { 7 } == 7, "a finished key runs its next body")
        #expect(await coalescer.run("other") { 8 } == 8)
        #expect(coalescer.lockContention.acquisitions >= 10)
    }

    @Test("neighbouring tiles of one band: the band is decoded once for all of them")
    func bandsShared() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root, cacheBytes: 1 << 20))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            // 600x400 at level 0 is 0.9 MiB: more than half the tile budget, so bands are decoded one at a time.
            for x in [0, 256, 512] {
                try await client.execute(
                    uri: "/iiif/3/albums%2Fcoffee.png/\(x),0,64,64/64,/0/default.png", method: .get
                ) {
                    #expect($0.status == .ok)
                }
            }
            #expect(server.tiles.bandsDecoded == 1)
            #expect(server.tiles.indexedDecodes == 0, "a PNG has no entropy index")
            #expect(server.tiles.statistics.currentBytes <= server.tiles.budgetBytes)
        }
    }

    @Test("a baseline JPEG's level larger than half the tile budget: each miss decodes its own tiles, none above")
    func indexedMisses() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root, cacheBytes: 1 << 20))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            // 640x427 at level 0 is 1.1 MB, over half of the 768 KB of tiles: the file's entropy index is built
            // by the first miss, and every miss is one crop of the MCUs around its tiles.
            for uri in ["384,256,128,128/128,", "0,0,128,128/128,", "384,256,64,64/64,"] {
                try await client.execute(uri: "/iiif/3/rocket.jpg/\(uri)/0/default.png", method: .get) {
                    #expect($0.status == .ok)
                }
            }
            #expect(server.tiles.bandsDecoded == 0)
            #expect(server.tiles.indexedDecodes == 2, "two misses; the third request's tile was cached")
        }
    }

    @Test("a JPEG region on the file's MCU grid, at its own size, is cut from the file's coefficients, not decoded")
    func losslessCrops() async throws {
        try await TemporaryFolder.with("serve-lossless") { folder in
            for name in ["gen_chelsea_420_q90.jpg", "gen_chelsea_444_q90.jpg", "gen_chelsea_420_progressive.jpg"] {
                try FileManager.default.copyItem(
                    at: Fixtures.corpusRoot.appendingPathComponent("jpeg/\(name)"),
                    to: folder.appendingPathComponent(name))
            }
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: folder.path)))
            let app = try buildApplication(server)
            // 451x300; 4:2:0 has 16x16 MCUs, 4:4:4 8x8. (x, y, w, h), and whether each file's MCU grid holds it.
            let cases: [(PixelRect, [String: Bool])] = [
                (PixelRect(x: 16, y: 32, width: 128, height: 64), ["420_q90": true, "444_q90": true]),
                (PixelRect(x: 432, y: 288, width: 19, height: 12), ["420_q90": true, "444_q90": true]),
                (PixelRect(x: 0, y: 0, width: 451, height: 300), ["420_q90": true, "444_q90": true]),
                (PixelRect(x: 8, y: 40, width: 120, height: 64), ["420_q90": false, "444_q90": true]),
                (PixelRect(x: 16, y: 32, width: 100, height: 64), ["420_q90": false, "444_q90": false]),
                (PixelRect(x: 0, y: 0, width: 256, height: 256), ["420_progressive": false]),
            ]
            try await app.test(.router) { client in
                for (rect, files) in cases {
                    for (kind, lossless) in files.sorted(by: { $0.key < $1.key }) {
                        let id = "gen_chelsea_\(kind).jpg"
                        let path = "/iiif/3/\(id)/\(rect.x),\(rect.y),\(rect.width),\(rect.height)/max/0/default"
                        let before = server.tiles.losslessCrops
                        var jpeg: ImageBuffer?
                        try await client.execute(uri: path + ".jpg", method: .get) { response in
                            #expect(response.status == .ok)
                            jpeg = try JPEGDecoder.decode(.bytes(Array(buffer: response.body))).image
                        }
                        #expect(server.tiles.losslessCrops == before + (lossless ? 1 : 0), "\(path)")
                        let rendered = try TiledImage(path: folder.appendingPathComponent(id).path, cacheBudgetBytes: 0)
                            .render(region: rect, size: rect.size).image
                        let got = try #require(jpeg)
                        try #require(got.size == rect.size, "\(path)")
                        guard lossless else { continue }
                        // The pixels of the whole file's decode, but for chroma upsampled along an edge of the
                        // rect that is not the image's (4:2:0 only).
                        let subsampled = kind.hasPrefix("420")
                        var differing = 0
                        for y in 0..<rect.height {
                            for x in 0..<rect.width {
                                let inner =
                                    (x == 0 && rect.x > 0) || (y == 0 && rect.y > 0)
                                    || (x == rect.width - 1 && rect.maxX < 451)
                                    || (y == rect.height - 1 && rect.maxY < 300)
                                let i = (y * rect.width + x) * 4
                                if got.pixels[i..<(i + 3)] != rendered.pixels[i..<(i + 3)] {
                                    differing += 1
                                    #expect(subsampled && inner, "\(path): pixel \(x),\(y)")
                                }
                            }
                        }
                        if !subsampled { #expect(differing == 0) }
                    }
                }
                // The same rect turned, in gray, as PNG or at another size is rendered and encoded as before.
                let before = server.tiles.losslessCrops
                for form in ["max/90/default.jpg", "max/0/gray.jpg", "max/0/default.png", "64,/0/default.jpg"] {
                    try await client.execute(uri: "/iiif/3/gen_chelsea_444_q90.jpg/16,32,128,64/\(form)", method: .get)
                    {
                        #expect($0.status == .ok)
                    }
                }
                #expect(server.tiles.losslessCrops == before)
                try await client.execute(uri: "/metrics", method: .get) { response in
                    #expect(String(buffer: response.body).contains("tileview_jpeg_lossless_crops_total \(before)\n"))
                }
            }
        }
    }

    @Test("a file replaced on disk gets a new entity tag and its new pixels, never the cached ones")
    func changedFileNotStale() async throws {
        try await TemporaryFolder.with("serve-change") { folder in
            let file = folder.appendingPathComponent("photo.png")
            try FileManager.default.copyItem(at: Fixtures.sampleImages.appendingPathComponent("coffee.png"), to: file)
            let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: folder.path)))
            let app = try buildApplication(server)
            let uri = "/iiif/3/photo.png/0,0,64,64/64,/0/default.png"
            try await app.test(.router) { client in
                var before: (tag: String, bytes: [UInt8]) = ("", [])
                try await client.execute(uri: uri, method: .get) {
                    before = ($0.headers[.eTag] ?? "", Array(buffer: $0.body))
                }
                try FileManager.default.removeItem(at: file)
                try FileManager.default.copyItem(
                    at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"), to: file)
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file.path)
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.eTag] != before.tag)
                    #expect(Array(buffer: response.body) != before.bytes)
                    let expected = try ImageResponse.render(
                        try TiledImage(path: file.path, cacheBudgetBytes: 0), identifier: "photo.png",
                        region: PixelRect(x: 0, y: 0, width: 64, height: 64), size: PixelSize(width: 64, height: 64),
                        output: ImageOutput(format: .png))
                    #expect(Array(buffer: response.body) == expected)
                }
                try FileManager.default.removeItem(at: file)
                try await client.execute(uri: uri, method: .get) { #expect($0.status == .notFound) }
            }
        }
    }

    @Test("an image's header is read by its first request only; the next ones take the one kept for its version")
    func headerReadOnce() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root, cacheBytes: 64 << 20))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            for region in ["0,0,64,64", "64,0,64,64", "0,64,64,64"] {
                try await client.execute(uri: "/iiif/3/albums%2Fcoffee.png/\(region)/64,/0/default.png", method: .get) {
                    #expect($0.status == .ok)
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("tileview_header_cache_misses_total 1\n"), "\(text)")
                #expect(text.contains("tileview_header_cache_hits_total 2\n"))
                #expect(text.contains("tileview_header_cache_entries 1\n"))
            }
        }
    }

    @Test("/metrics has the tile cache's and the answers' cache series")
    func metrics() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root, cacheBytes: 64 << 20))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            try await client.execute(uri: Self.tile, method: .get) { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("tileview_tile_cache_budget_bytes \(48 << 20)\n"), "\(text)")
                #expect(text.contains("tileview_response_cache_budget_bytes \(16 << 20)\n"))
                #expect(!text.contains("tileview_tile_cache_bytes 0\n"))
                #expect(text.contains("tileview_tile_cache_misses_total "))
                #expect(!text.contains("tileview_tile_bands_decoded_total 0\n"))
                #expect(text.contains("tileview_response_cache_misses_total 1\n"))
                #expect(text.contains("tileview_requests_coalesced_total 0\n"))
                // Each shared lock of the request path: taken by the tile's request, waited for by nobody.
                for lock in ["tile_cache_tiles", "responses", "work_budget", "metrics"] {
                    let taken = text.firstMatch(
                        of: try! Regex("tileview_lock_acquisitions_total\\{lock=\"\(lock)\"\\} (\\d+)\n"))
                    #expect((taken?.output[1].substring).flatMap { Int($0) }.map { $0 > 0 } == true, "\(lock): \(text)")
                    #expect(text.contains("tileview_lock_waits_total{lock=\"\(lock)\"} 0\n"), "\(lock)")
                }
            }
        }
    }

    @Test("a request body over the limit, or of unknown length, is 413 and closes the connection")
    func bodyLimit() async throws {
        try await RouteTests.withClient { client in
            let big = ByteBuffer(repeating: 0, count: ServeSettings.maxRequestBodyBytes + 1)
            try await client.execute(uri: Self.tile, method: .post, body: big) { response in
                #expect(response.status == .contentTooLarge)
                #expect(response.headers[.connection] == "close")
            }
            try await client.execute(uri: Self.tile, method: .get, headers: [.transferEncoding: "chunked"]) {
                #expect($0.status == .contentTooLarge)
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
    }
}
