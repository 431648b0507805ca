import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewServe
import TileViewTestSupport

/// The routes through Hummingbird's test client (no sockets): status codes, headers, bodies, and pixels
/// against the library's own rendering.
@Suite("Server routes")
struct RouteTests {

    /// Runs `body` against the router.
    static func withClient(
        cacheBytes: Int = 256 << 20, _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root, cacheBytes: cacheBytes))
        let app = try buildApplication(server)
        try await app.test(.router) { client in try await body(client) }
    }

    @Test("/healthz answers ok")
    func health() async throws {
        try await Self.withClient { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "ok\n")
            }
        }
    }

    @Test("every escape from the root is 404, on every route", arguments: ServeFixture.escapes)
    func escapes(_ id: String) async throws {
        try await Self.withClient { client in
            for uri in [
                "/iiif/3/\(id)", "/iiif/3/\(id)/info.json", "/iiif/3/\(id)/full/max/0/default.jpg", "/dzi/\(id).dzi",
                "/dzi/\(id)_files/0/0_0.jpg",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(!String(buffer: response.body).contains("JFIF"), "nothing is served")
                }
            }
        }
    }

    @Test("/iiif/3/{id} redirects to its info.json; info.json has the IIIF keys, size and limits")
    func info() async throws {
        try await Self.withClient { client in
            try await client.execute(uri: "/iiif/3/albums%2Fcoffee.png", method: .get) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location]?.hasSuffix("/iiif/3/albums%2Fcoffee.png/info.json") == true)
            }
            try await client.execute(uri: "/iiif/3/albums%2Fcoffee.png/info.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.contentType]?.hasPrefix("application/ld+json") == true)
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["width"] as? Int == 600 && json["height"] as? Int == 400, "\(json)")
                #expect(json["profile"] as? String == "level2")
                #expect(json["type"] as? String == "ImageService3")
                #expect((json["id"] as? String)?.hasSuffix("/iiif/3/albums%2Fcoffee.png") == true)
                // --max-area's 4096 x 4096 lowered to what the default --work-mb renders (docs/design.md section 18).
                let settings = ServeSettings(root: ServeFixture.root)
                #expect(settings.effectiveMaxArea < 4096 * 4096 && settings.effectiveMaxArea > 4_000_000)
                #expect(json["maxArea"] as? Int == settings.effectiveMaxArea)
            }
        }
    }

    @Test(
        "an image request is the library's render of the same region and size, turned as asked",
        arguments: [
            (
                "full/max/0/default.png", PixelRect(x: 0, y: 0, width: 600, height: 400),
                PixelSize(width: 600, height: 400), 0, false, false
            ),
            (
                "100,50,200,100/50,/0/default.png", PixelRect(x: 100, y: 50, width: 200, height: 100),
                PixelSize(width: 50, height: 25), 0, false, false
            ),
            (
                "full/!120,120/90/default.png", PixelRect(x: 0, y: 0, width: 600, height: 400),
                PixelSize(width: 120, height: 80), 1, false, false
            ),
            (
                "square/64,64/!180/gray.png", PixelRect(x: 100, y: 0, width: 400, height: 400),
                PixelSize(width: 64, height: 64), 2, true, true
            ),
            (
                "pct:10,10,50,50/90,30/270/color.png", PixelRect(x: 60, y: 40, width: 300, height: 200),
                PixelSize(width: 90, height: 30), 3, false, false
            ),
        ])
    func pixels(_ path: String, _ region: PixelRect, _ size: PixelSize, _ turns: Int, _ mirrored: Bool, _ gray: Bool)
        async throws
    {
        let file = try #require(ServeFixture.root.file(forIdentifier: "albums%2Fcoffee.png"))
        let expected = try ImageResponse.render(
            TiledImage(path: file.path, cacheBudgetBytes: 0), identifier: file.identifier, region: region,
            size: size, output: ImageOutput(quarterTurns: turns, mirrored: mirrored, gray: gray, format: .png))
        try await Self.withClient { client in
            try await client.execute(uri: "/iiif/3/albums%2Fcoffee.png/" + path, method: .get) { response in
                #expect(response.status == .ok, "\(path): \(String(buffer: response.body))")
                #expect(response.headers[.contentType] == "image/png")
                #expect(Array(buffer: response.body) == expected, "\(path)")
            }
        }
    }

    @Test(
        "seeded random x,y,w,h at w,h: the served PNG is the library's render of that rect at that size",
        arguments: [
            ("albums%2Fcoffee.png", 256 << 20), ("rocket.jpg", 256 << 20), ("inside.jpg", 256 << 20),
            // A 1 MB cache (768 KB of tiles): level 0 of rocket.jpg (1.1 MB) comes through the JPEG's entropy index.
            ("rocket.jpg", 1 << 20),
        ])
    func seededPixels(_ id: String, cacheBytes: Int) async throws {
        let file = try #require(ServeFixture.root.file(forIdentifier: id))
        let image = try TiledImage(path: file.path, cacheBudgetBytes: 0)
        let size = image.imageSize
        var random = SplitMix64(seed: 0x5EED_0000 + UInt64(id.utf8.count))
        var cases: [(String, PixelRect, PixelSize)] = []
        for _ in 0..<12 {
            let w = random.int(1...size.width)
            let h = random.int(1...size.height)
            let region = PixelRect(
                x: random.int(0...(size.width - w)), y: random.int(0...(size.height - h)), width: w, height: h)
            let out = PixelSize(width: random.int(1...w), height: random.int(1...h))
            cases.append(
                ("\(region.x),\(region.y),\(w),\(h)/\(out.width),\(out.height)/0/default.png", region, out))
        }
        let requests = cases
        try await Self.withClient(cacheBytes: cacheBytes) { client in
            for (path, region, out) in requests {
                let expected = try PNGEncoder.encode(
                    TiledImage(path: file.path, cacheBudgetBytes: 0).render(region: region, size: out).image)
                try await client.execute(uri: "/iiif/3/\(id)/" + path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(Array(buffer: response.body) == expected, "\(id) \(path)")
                }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let indexed = String(buffer: response.body).contains("tileview_tile_index_decodes_total 0\n")
                #expect(indexed == (cacheBytes > 1 << 20), "the small cache's level 0 is decoded through the index")
            }
        }
    }

    @Test("a JPEG answer decodes to the requested size, close to the PNG answer")
    func jpeg() async throws {
        try await Self.withClient { client in
            var png: ImageBuffer?
            try await client.execute(uri: "/iiif/3/rocket.jpg/full/320,/0/default.png", method: .get) { response in
                png = try PNGDecoder.decode(.bytes(Array(buffer: response.body))).image
            }
            try await client.execute(uri: "/iiif/3/rocket.jpg/full/320,/0/default.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                let jpeg = try JPEGDecoder.decode(.bytes(Array(buffer: response.body))).image
                let reference = try #require(png)
                #expect(jpeg.size == reference.size)
                var total = 0
                for i in 0..<jpeg.pixels.count where i % 4 != 3 {
                    total += abs(Int(jpeg.pixels[i]) - Int(reference.pixels[i]))
                }
                #expect(Double(total) / Double(jpeg.pixels.count * 3 / 4) < 4, "mean error within JPEG quantisation")
            }
        }
    }

    @Test(
        "bad forms are 400 and valid forms not offered are 501, each with a one-line reason",
        arguments: [
            ("full/max/0/default.gif", 501), ("full/max/22.5/default.jpg", 501), ("full/max/0/bitonal.jpg", 501),
            ("full/max/0/default.xyz", 400), ("0,0,0,10/max/0/default.jpg", 400), ("nope/max/0/default.jpg", 400),
            ("full/0,/0/default.jpg", 400), ("full/max/45x/default.jpg", 400), ("full/max/0/default", 400),
            ("9000,9000,10,10/max/0/default.jpg", 400), ("full/1200,/0/default.jpg", 400),
            ("full/^99999,/0/default.jpg", 400),
        ])
    func badForms(_ path: String, _ status: Int) async throws {
        try await Self.withClient { client in
            try await client.execute(uri: "/iiif/3/albums%2Fcoffee.png/" + path, method: .get) { response in
                #expect(response.status.code == status, "\(path): \(String(buffer: response.body))")
                let text = String(buffer: response.body)
                #expect(text.hasSuffix("\n") && text.dropLast().split(separator: "\n").count == 1 && text.count > 5)
            }
        }
    }

    @Test("a corrupt file is 422 for its own requests and the files around it still serve")
    func corruptBetweenGood() async throws {
        try await Self.withClient { client in
            for uri in [
                "/iiif/3/rocket.jpg/full/64,/0/default.jpg", "/iiif/3/broken.jpg/full/64,/0/default.jpg",
                "/iiif/3/albums%2Fcoffee.png/full/64,/0/default.jpg", "/dzi/broken.jpg_files/0/0_0.jpg",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    let broken = uri.contains("broken")
                    #expect(response.status == (broken ? .unprocessableContent : .ok), "\(uri)")
                }
            }
        }
    }

    @Test("If-None-Match with the entity tag is 304; another tag is 200")
    func conditional() async throws {
        try await Self.withClient { client in
            var tag = ""
            try await client.execute(uri: "/iiif/3/rocket.jpg/full/64,/0/default.jpg", method: .get) { response in
                tag = response.headers[.eTag] ?? ""
                #expect(response.headers[.cacheControl] != nil)
            }
            #expect(!tag.isEmpty)
            try await client.execute(
                uri: "/iiif/3/rocket.jpg/full/64,/0/default.jpg", method: .get, headers: [.ifNoneMatch: tag]
            ) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(
                uri: "/iiif/3/rocket.jpg/full/64,/0/default.jpg", method: .get, headers: [.ifNoneMatch: "\"other\""]
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("HEAD answers as GET does, with the same status and headers and no body")
    func head() async throws {
        try await Self.withClient { client in
            for uri in [
                "/iiif/3/rocket.jpg/info.json", "/iiif/3/rocket.jpg/full/64,/0/default.jpg", "/dzi/rocket.jpg.dzi",
            ] {
                var get: (status: HTTPResponse.Status, length: String?, tag: String?) = (.ok, nil, nil)
                try await client.execute(uri: uri, method: .get) {
                    get = ($0.status, $0.headers[.contentLength], $0.headers[.eTag])
                }
                try await client.execute(uri: uri, method: .head) { response in
                    #expect(response.status == get.status, "\(uri)")
                    #expect(response.body.readableBytes == 0, "\(uri)")
                    #expect(response.headers[.eTag] == get.tag, "\(uri)")
                    #expect(response.headers[.contentLength] == get.length, "\(uri)")
                }
            }
            try await client.execute(uri: "/iiif/3/nope.jpg/info.json", method: .head) {
                #expect($0.status == .notFound)
            }
        }
    }

    @Test("Deep Zoom: the descriptor and tiles of the top and bottom levels")
    func deepZoom() async throws {
        try await Self.withClient { client in
            try await client.execute(uri: "/dzi/rocket.jpg.dzi", method: .get) { response in
                #expect(response.status == .ok)
                let xml = String(buffer: response.body)
                #expect(
                    xml.contains("TileSize=\"256\"") && xml.contains("Width=\"640\"") && xml.contains("Height=\"427\""))
            }
            // 640x427: the top level is 10 (2^10 >= 640); level 0 is 1x1.
            for (path, size) in [("10/0_0.jpg", (256, 256)), ("10/2_1.jpg", (128, 171)), ("0/0_0.jpg", (1, 1))] {
                try await client.execute(uri: "/dzi/rocket.jpg_files/" + path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    let image = try JPEGDecoder.decode(.bytes(Array(buffer: response.body))).image
                    #expect(image.width == size.0 && image.height == size.1, "\(path): \(image.size)")
                }
            }
            for path in ["11/0_0.jpg", "10/3_0.jpg", "10/0_2.jpg", "x/0_0.jpg", "10/0-0.jpg"] {
                try await client.execute(uri: "/dzi/rocket.jpg_files/" + path, method: .get) { response in
                    #expect(response.status == .notFound || response.status == .badRequest, "\(path)")
                }
            }
        }
    }
}

/// `/metrics` in Prometheus' text format.
@Suite("Server metrics")
struct MetricsTests {
    @Test("requests by route and status, the latency histogram and decoded bytes follow what was asked")
    func metrics() async throws {
        let server = TileServer(settings: ServeSettings(root: ServeFixture.root))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            for uri in ["/healthz", "/iiif/3/rocket.jpg/full/64,/0/default.jpg", "/iiif/3/nope.jpg/info.json"] {
                try await client.execute(uri: uri, method: .get) { _ in }
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains("tileview_requests_total{route=\"healthz\",status=\"200\"} 1"), "\(text)")
                #expect(text.contains("tileview_requests_total{route=\"iiif-image\",status=\"200\"} 1"))
                #expect(text.contains("tileview_requests_total{route=\"iiif-info\",status=\"404\"} 1"))
                #expect(text.contains("tileview_request_duration_seconds_bucket{route=\"iiif-image\",le=\"+Inf\"} 1"))
                #expect(text.contains("# TYPE tileview_request_duration_seconds histogram"))
                #expect(!text.contains("tileview_decoded_bytes_total 0\n"), "an image was decoded")
                #expect(text.contains("process_resident_memory_bytes "))
            }
        }
        #expect(ServerMetrics.route(ofPath: "/dzi/a.jpg_files/3/0_0.jpg") == "dzi-tile")
        #expect(ServerMetrics.route(ofPath: "/iiif/3/a.jpg") == "iiif-redirect")
        #expect(ServerMetrics.route(ofPath: "/favicon.ico") == "other")
    }
}
