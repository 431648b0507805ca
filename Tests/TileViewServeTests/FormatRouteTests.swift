import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewServe
import TileViewTestSupport

/// WebP, HEIC, AVIF, TIFF and GIF files served (docs/design.md section 15): info.json, rendered regions equal to
/// the library's, `webp` answers, and damaged files refused.
@Suite("Server routes: every format")
struct FormatRouteTests {
    /// One file of each kind from the formats corpus, and two damaged ones.
    static let files = [
        "webp/lossy-alpha.webp", "webp/exif-orientation-6.webp", "heif/irot-6.heic", "avif/alpha.avif",
        "tiff/rgb8-tile-jpeg.tif", "tiff/orientation-6.tif", "tiff/cmyk8-strip-lzw.tif", "tiff/pyramid-jpeg.tif",
        "tiff/pyramid-rgb-jpeg-q90.tif",
        "gif/transparent.gif", "gif/animated-3frames.gif",
    ]
    static let damaged = ["bad/heic-truncated.heic", "bad/tiff-flipped.tif", "bad/gif-truncated.gif"]

    static let root: URL = {
        let root = try! TemporaryFolder.untilExit("serve-formats")
        for file in files + damaged {
            let name = file.replacingOccurrences(of: "/", with: "-")
            try! FileManager.default.copyItem(
                at: FormatCorpus.root.appendingPathComponent(file), to: root.appendingPathComponent(name))
        }
        // Its header reads; its decode fails (and libheif loses memory each time it is tried).
        try! FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers/avif-damaged-libheif-leaks.avif"),
            to: root.appendingPathComponent("damaged.avif"))
        return root
    }()

    static func identifier(_ file: String) -> String { file.replacingOccurrences(of: "/", with: "-") }

    static func withClient(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: root.path), cacheBytes: 64 << 20))
        let app = try buildApplication(server)
        try await app.test(.router) { client in try await body(client) }
    }

    @Test("info.json gives the upright size and offers webp; a region is the library's render of it", arguments: files)
    func served(_ file: String) async throws {
        let path = Self.root.appendingPathComponent(Self.identifier(file)).path
        let image = try TiledImage(path: path, cacheBudgetBytes: 0)
        let size = image.imageSize
        let record = FormatCorpus.record(file)
        #expect(size == PixelSize(width: record.orientedWidth!, height: record.orientedHeight!), "\(file)")
        let region = PixelRect(x: size.width / 4, y: size.height / 5, width: size.width / 2, height: size.height / 2)
        let out = PixelSize(width: region.width / 2 + 1, height: region.height / 2 + 1)
        let expected = try PNGEncoder.encode(image.render(region: region, size: out).image)
        let id = Self.identifier(file)
        try await Self.withClient { client in
            try await client.execute(uri: "/iiif/3/\(id)/info.json", method: .get) { response in
                #expect(response.status == .ok, "\(file)")
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(json["width"] as? Int == size.width && json["height"] as? Int == size.height, "\(file)")
                #expect(json["extraFormats"] as? [String] == ["webp"])
            }
            let request = "\(region.x),\(region.y),\(region.width),\(region.height)/\(out.width),\(out.height)/0"
            try await client.execute(uri: "/iiif/3/\(id)/\(request)/default.png", method: .get) { response in
                #expect(response.status == .ok, "\(file)")
                #expect(Array(buffer: response.body) == expected, "\(file): the served PNG differs from the render")
            }
            try await client.execute(uri: "/iiif/3/\(id)/\(request)/default.webp", method: .get) { response in
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.contentType] == "image/webp")
                let bytes = Array(buffer: response.body)
                let decoded = try ImageDecoder.decode(.bytes(bytes))
                #expect(decoded.header.format == .webp && decoded.image.size == out, "\(file): \(decoded.image.size)")
            }
            try await client.execute(uri: "/dzi/\(id)_files/0/0_0.jpg", method: .get) { response in
                #expect(response.status == .ok, "\(file)")
            }
        }
    }

    @Test(
        "a JPEG answer that is exactly one stored tile of a pyramid TIFF is that tile's JPEG, undecoded",
        arguments: ["tiff/pyramid-jpeg.tif", "tiff/pyramid-rgb-jpeg-q90.tif"])
    func storedTiles(_ file: String) async throws {
        let id = Self.identifier(file)
        let path = Self.root.appendingPathComponent(id).path
        let server = TileServer(
            settings: ServeSettings(root: try ServeRoot(path: Self.root.path), cacheBytes: 64 << 20))
        let app = try buildApplication(server)
        // (region, size, level, column, row): whole tiles of the first page and of the 600x450 copy, then tiles the
        // image's edge cuts (the corner of the first page, the right and bottom ones of the copy), which are the
        // stored stream cut by its coefficients. Each decodes, with libjpeg, to what libtiff decodes of that tile
        // (cut to the level); a cut differs only in the chroma of its last two columns and rows in a 4:2:0 stream:
        // libjpeg upsamples them from the cut's own last samples (an image edge), where the whole tile's decode
        // blends in the padding stored past the image's edge (measured: up to 25 levels on the YCbCr corpus file,
        // 0 for RGB).
        let tiles = [
            ("256,256,256,256", "256,256", 0, 1, 1), ("512,0,512,512", "256,256", 1, 1, 0),
            ("0,0,512,512", "256,256", 1, 0, 0), ("1024,768,176,132", "176,132", 0, 4, 3),
            ("1024,0,176,512", "88,256", 1, 2, 0), ("0,512,512,388", "256,194", 1, 0, 1),
        ]
        try await app.test(.router) { client in
            for (region, size, level, column, row) in tiles {
                let reader = try ImageRowReader(.file(path: path), format: .tiff, options: DecodeOptions())
                let expected = try #require(
                    try ImageRowReader.storedJPEGTile(
                        in: .file(path: path), directory: reader.header.storedDirectories[level], column: column,
                        row: row, tileSize: 256))
                try await client.execute(uri: "/iiif/3/\(id)/\(region)/\(size)/0/default.jpg", method: .get) {
                    response in
                    #expect(response.status == .ok)
                    let bytes = Array(buffer: response.body)
                    #expect(bytes == expected, "\(region): the stored tile's bytes, or their cut")
                    let decoded = try ImageDecoder.decode(.bytes(bytes), options: DecodeOptions(color: .keep)).image
                    let scale = LevelScale.pyramidLevel(level, header: reader.header)
                    let levelSize = PixelSize(
                        width: (reader.header.storedSize.width + (1 << level) - 1) >> level,
                        height: (reader.header.storedSize.height + (1 << level) - 1) >> level)
                    let rect = PixelRect(
                        x: column * 256, y: row * 256, width: min(256, levelSize.width - column * 256),
                        height: min(256, levelSize.height - row * 256))
                    let fromTIFF = try LevelReader(
                        .file(path: path), scale: scale, rect: rect, options: DecodeOptions(color: .keep)
                    ).readAll().image
                    #expect(decoded.size == rect.size, "\(region): \(decoded.size)")
                    var worst = (inside: 0, edge: 0)
                    for y in 0..<decoded.size.height {
                        for x in 0..<decoded.size.width {
                            let a = decoded[x, y]
                            let b = fromTIFF[x, y]
                            let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                            let onEdge = x >= decoded.size.width - 2 || y >= decoded.size.height - 2
                            if onEdge { worst.edge = max(worst.edge, d) } else { worst.inside = max(worst.inside, d) }
                        }
                    }
                    let whole = rect.size == PixelSize(width: 256, height: 256)
                    #expect(worst.inside == 0 && worst.edge <= (whole ? 0 : 32), "\(file) \(region): \(worst)")
                }
            }
            #expect(server.tiles.storedTiles == tiles.count)
            try await client.execute(uri: "/iiif/3/\(id)/0,0,256,256/128,128/0/default.jpg", method: .get) { response in
                #expect(response.status == .ok)
            }
            #expect(server.tiles.storedTiles == tiles.count, "a tile scaled to another size is rendered")
        }
    }

    @Test("a webp answer is the render encoded by libwebp: within lossy bounds of the PNG answer")
    func webpAnswer() async throws {
        try await Self.withClient { client in
            var png: ImageBuffer?
            var webp: ImageBuffer?
            let id = Self.identifier("webp/lossy-alpha.webp")
            try await client.execute(uri: "/iiif/3/\(id)/full/max/0/default.png", method: .get) { response in
                png = try PNGDecoder.decode(.bytes(Array(buffer: response.body))).image
            }
            try await client.execute(uri: "/iiif/3/\(id)/full/max/0/default.webp", method: .get) { response in
                webp = try ImageDecoder.decode(.bytes(Array(buffer: response.body))).image
            }
            let a = try #require(png)
            let b = try #require(webp)
            #expect(a.size == b.size)
            #expect(a.isOpaque == b.isOpaque, "alpha as the render has it")
            let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            let mean = Double(total) / Double(a.pixels.count)
            #expect(mean < 4, "mean difference \(mean)")
        }
    }

    @Test("a damaged file decoded whole is decoded once: the next request for it gets the same 422 without a decode")
    func damagedOnce() async throws {
        let server = TileServer(
            settings: ServeSettings(root: try ServeRoot(path: Self.root.path), cacheBytes: 64 << 20))
        let app = try buildApplication(server)
        let id = "damaged.avif"
        try await app.test(.router) { client in
            for size in ["64,", "32,", "48,"] {
                try await client.execute(uri: "/iiif/3/\(id)/full/\(size)/0/default.jpg", method: .get) { response in
                    #expect(response.status == .unprocessableContent)
                }
            }
        }
        #expect(server.tiles.wholeDecodes == 1)
    }

    @Test("a damaged file is 422 naming what is wrong, and the server goes on serving", arguments: damaged)
    func damagedFile(_ file: String) async throws {
        let id = Self.identifier(file)
        try await Self.withClient { client in
            try await client.execute(uri: "/iiif/3/\(id)/full/64,/0/default.jpg", method: .get) { response in
                #expect(response.status == .unprocessableContent, "\(file): \(response.status)")
            }
            try await client.execute(
                uri: "/iiif/3/\(Self.identifier(Self.files[0]))/full/64,/0/default.jpg", method: .get
            ) {
                response in
                #expect(response.status == .ok)
            }
        }
    }
}
