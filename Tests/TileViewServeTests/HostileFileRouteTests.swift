import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewServe
import TileViewTestSupport

/// Every damaged, truncated, mislabelled or oversized file the corpora hold, and every input the decoder fuzzer
/// found, served: each IIIF, DZI and view route answers it with a status below 500 and a reason, a file that the
/// library decodes strictly is answered 200 everywhere, and the server answers a good image after all of them.
@Suite("Server routes: hostile files")
struct HostileFileRouteTests {
    /// Served names (the folder's prefix and the file's name) and where each comes from.
    static let files: [(name: String, source: URL)] = {
        let folders = [
            ("bad", Fixtures.corpusRoot.appendingPathComponent("bad")),
            ("formats-bad", FormatCorpus.root.appendingPathComponent("bad")),
            ("fuzz", Fixtures.packageRoot.appendingPathComponent("Fuzz/reproducers")),
        ]
        return folders.flatMap { prefix, folder in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { !$0.hasSuffix(".md") }.sorted().map {
                (name: "\(prefix)-\($0)", source: folder.appendingPathComponent($0))
            }
        }
    }()

    static let root: URL = {
        let root = try! TemporaryFolder.untilExit("serve-hostile")
        for file in files {
            try! FileManager.default.copyItem(at: file.source, to: root.appendingPathComponent(file.name))
        }
        try! FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("SampleImages/rocket.jpg"),
            to: root.appendingPathComponent("rocket.jpg"))
        try! Data(headerWarningJPEG()).write(to: root.appendingPathComponent(headerWarning))
        try! Data(ScanHeavyJPEG.progressive(PixelSize(width: 1024, height: 1024), refinements: 13))
            .write(to: root.appendingPathComponent(scanHeavy))
        return root
    }()

    /// A valid progressive JPEG of 2,647 scans that hold nothing but end-of-band runs (38 KB; each scan a pass over
    /// the image): the decoder stops it after 64 passes, strict or lenient.
    static let scanHeavy = "scans-2647.jpg"

    /// A JPEG large enough that the server reads its full-size tiles through the entropy index (over half the
    /// tile cache), with a header libjpeg warns about: an unknown JFIF revision, 2.208.
    static let headerWarning = "jfif-2.208.jpg"

    static func headerWarningJPEG() throws -> [UInt8] {
        let (width, height) = (1200, 800)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels[(y * width + x) * 4] = UInt8(x * 255 / width)
                pixels[(y * width + x) * 4 + 1] = UInt8(y * 255 / height)
            }
        }
        let jpeg = try JPEGEncoder.encode(ImageBuffer(width: width, height: height, pixels: pixels))
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [2, 208, 0, 0, 1, 0, 1, 0, 0]
        return Array(jpeg.prefix(2)) + app0 + jpeg.dropFirst(2)
    }

    /// The image requests of one file, each valid for an image of any size: whole, scaled (up where it is small),
    /// a region turned and gray, a mirrored square, the middle quarter (by percentages where the image has 2 pixels
    /// a side or more), and the DZI's first and last levels (the last worked out from `size`, level 12 when the
    /// header cannot be read).
    static func imageURIs(_ id: String, size: PixelSize?) -> [String] {
        let top = size.map { Int(ceil(log2(Double(max($0.width, $0.height, 1))))) } ?? 12
        let middle = (size.map { min($0.width, $0.height) } ?? 2) >= 2 ? "pct:25,25,50,50" : "full"
        return [
            "/iiif/3/\(id)/full/max/0/default.jpg", "/iiif/3/\(id)/full/^64,/0/default.png",
            "/iiif/3/\(id)/0,0,300,200/^150,/90/gray.jpg", "/iiif/3/\(id)/square/^32,32/!0/default.webp",
            "/iiif/3/\(id)/\(middle)/max/180/default.jpg", "/dzi/\(id)_files/0/0_0.jpg",
            "/dzi/\(id)_files/\(top)/0_0.jpg",
        ]
    }

    @Test(
        "below 500 with a reason, 200 where the library decodes it (strict or lenient as the server), then a good image",
        arguments: [false, true])
    func hostileFiles(lenient: Bool) async throws {
        #expect(Self.files.count >= 60, "the corpora's damaged files and the fuzzer's reproducers")
        let options = DecodeOptions(lenient: lenient)
        let server = TileServer(
            settings: ServeSettings(root: try ServeRoot(path: Self.root.path), cacheBytes: 8 << 20, options: options))
        let app = try buildApplication(server)
        try await app.test(.router) { client in
            var refusedSomewhere = 0
            for file in Self.files {
                let path = Self.root.appendingPathComponent(file.name).path
                let header = try? ImageHeader.read(from: .file(path: path))
                // What the server reads: a strict server refuses the header a strict decode refuses.
                let headerReads = (try? ImageHeader.read(from: .file(path: path), strict: !lenient)) != nil
                // Not decoded here when the decoder would hold over 256 MiB (a TIFF declaring 26,881 samples a
                // pixel): the server's memory plan refuses that one.
                let decodes =
                    (header?.decoderWorkingBytes ?? 0) <= 256 << 20
                    && (try? ImageDecoder.decode(.file(path: path), options: options)) != nil
                var statuses: [String: Int] = [:]
                for uri in ["/iiif/3/\(file.name)/info.json", "/dzi/\(file.name).dzi"]
                    + Self.imageURIs(file.name, size: header?.orientedSize)
                {
                    let response = try await client.execute(uri: uri, method: .get)
                    statuses[uri] = response.code
                    #expect(response.code < 500, "\(uri): \(response.code) \(String(buffer: response.body))")
                    if response.code >= 400 {
                        let reason = String(buffer: response.body)
                        #expect(!reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(uri): no reason")
                    }
                }
                let view = try await client.execute(
                    uri: "/api/views", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"image":"\#(file.name)","viewport":{"width":96,"height":64}}"#))
                statuses["view"] = view.code
                #expect(view.code < 500, "\(file.name) view: \(view.code) \(String(buffer: view.body))")
                if decodes {
                    #expect(statuses.values.allSatisfy { $0 < 300 }, "\(file.name) decodes, yet: \(statuses)")
                } else {
                    refusedSomewhere += statuses.values.contains { $0 >= 400 } ? 1 : 0
                }
                if !headerReads {
                    let info = statuses["/iiif/3/\(file.name)/info.json"] ?? 0
                    #expect((400..<500).contains(info), "\(file.name): no header, yet info.json \(info)")
                }
            }
            #expect(refusedSomewhere >= (lenient ? 25 : 40), "most of these files are refused somewhere")
            // A header warning refuses the file everywhere: info.json (a viewer says so at once) and the full-size
            // tiles too, which the entropy index would have answered. A lenient server answers it everywhere.
            let size = PixelSize(width: 1200, height: 800)
            for uri in Self.imageURIs(Self.headerWarning, size: size) + [
                "/iiif/3/\(Self.headerWarning)/0,0,256,256/256,/0/default.jpg",
                "/iiif/3/\(Self.headerWarning)/info.json",
            ] {
                let response = try await client.execute(uri: uri, method: .get)
                if lenient {
                    #expect(response.code == 200, "\(uri): \(response.code)")
                } else {
                    #expect(response.code == 422, "\(uri): \(response.code)")
                    #expect(String(buffer: response.body).contains("unknown JFIF revision number 2.208"), "\(uri)")
                }
            }
            // Refused after 64 passes, which are paid once: asked again, the same answer with no pass (each band
            // that failed, and each whole decode, is remembered for the file's version).
            let passesBefore = server.tiles.failedBandPasses
            for round in 0..<2 {
                if round == 1 {
                    #expect(server.tiles.failedBandPasses > passesBefore, "the first round failed in band passes")
                }
                let passes = server.tiles.failedBandPasses
                for uri in Self.imageURIs(Self.scanHeavy, size: PixelSize(width: 1024, height: 1024)) {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect((400..<500).contains(response.code), "\(uri): \(response.code)")
                    #expect(String(buffer: response.body).contains("go over its blocks more than 64 times"), "\(uri)")
                }
                if round == 1 { #expect(server.tiles.failedBandPasses == passes, "asked again, no band pass failed") }
            }
            let after = try await client.execute(uri: "/iiif/3/rocket.jpg/full/200,/0/default.jpg", method: .get)
            #expect(after.status == .ok)
        }
    }
}

extension TestResponse {
    /// The status as a number.
    fileprivate var code: Int { status.code }
}
