import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileView
import TileViewTestSupport

@testable import TileViewServe

/// IIIF Presentation 3.0 for folders (docs/design.md section 17): a folder's images as a Manifest of canvases in
/// natural order, each painted by its Image API service, and its sub-folders as a Collection.
@Suite("IIIF Presentation")
struct PresentationRouteTests {
    /// A root of three images (natural order: 2.png before 10.jpg), an unreadable file and a sub-folder.
    static let root: URL = {
        let root = try! TemporaryFolder.untilExit("presentation")
        let fm = FileManager.default
        try! fm.createDirectory(at: root.appendingPathComponent("trip"), withIntermediateDirectories: true)
        try! fm.createDirectory(at: root.appendingPathComponent("empty"), withIntermediateDirectories: true)
        for (source, name) in [
            ("rocket.jpg", "10.jpg"), ("coffee.png", "2.png"), ("hubble_deep_field.jpg", "a.jpg"),
            ("chelsea.png", "trip/cat.png"),
        ] {
            try! fm.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent(source), to: root.appendingPathComponent(name))
        }
        try! Data("not an image".utf8).write(to: root.appendingPathComponent("broken.jpg"))
        return root
    }()

    static func json(_ client: some TestClientProtocol, _ uri: String) async throws -> (
        HTTPResponse.Status, [String: Any]
    ) {
        try await client.execute(uri: uri, method: .get) { response in
            #expect(response.headers[.accessControlAllowOrigin] == "*", "\(uri)")
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]
            return (response.status, object ?? [:])
        }
    }

    @Test("a folder's manifest: a canvas per readable image in natural order, painted by its image service")
    func manifest() async throws {
        let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: Self.root.path)))
        try await buildApplication(server).test(.router) { client in
            let (status, manifest) = try await Self.json(client, "/iiif/presentation/3/manifest.json")
            #expect(status == .ok)
            #expect(manifest["@context"] as? String == "http://iiif.io/api/presentation/3/context.json")
            #expect(manifest["type"] as? String == "Manifest" && manifest["behavior"] == nil)
            #expect(manifest["id"] as? String == "http://localhost/iiif/presentation/3/manifest.json")
            let canvases = try #require(manifest["items"] as? [[String: Any]])
            let labels = canvases.map { (($0["label"] as? [String: [String]])?["none"] ?? []).first ?? "" }
            #expect(labels == ["2.png", "10.jpg", "a.jpg"], "natural order; broken.jpg left out")
            for canvas in canvases {
                let page = try #require((canvas["items"] as? [[String: Any]])?.first)
                let painting = try #require((page["items"] as? [[String: Any]])?.first)
                #expect(
                    painting["motivation"] as? String == "painting"
                        && painting["target"] as? String == canvas["id"] as? String)
                let body = try #require(painting["body"] as? [String: Any])
                let service = try #require((body["service"] as? [[String: Any]])?.first)
                #expect(service["type"] as? String == "ImageService3" && service["profile"] as? String == "level2")
                // The service is the image's, and says the canvas's size.
                let id = try #require(service["id"] as? String).replacingOccurrences(of: "http://localhost", with: "")
                let (infoStatus, info) = try await Self.json(client, id + "/info.json")
                #expect(infoStatus == .ok)
                #expect(
                    info["width"] as? Int == canvas["width"] as? Int
                        && info["height"] as? Int == canvas["height"] as? Int)
                // The thumbnail answers, whatever the image's size (!240,240 of a smaller image is the image).
                let thumbnail = try #require(((canvas["thumbnail"] as? [[String: Any]])?.first)?["id"] as? String)
                let thumb = try await client.execute(
                    uri: thumbnail.replacingOccurrences(of: "http://localhost", with: ""), method: .get
                ) { $0.status }
                #expect(thumb == .ok, "\(thumbnail)")
                // Renderings to download: the original file as stored (its bytes answer), then the largest JPEG.
                let renderings = try #require(canvas["rendering"] as? [[String: Any]])
                #expect(renderings.map { $0["format"] as? String }.last == "image/jpeg" && renderings.count == 2)
                let original = try #require(renderings.first?["id"] as? String)
                #expect(
                    original.hasSuffix("/file") && original.hasPrefix("http://localhost/api/images/"), "\(original)")
                let (fileStatus, fileType) = try await client.execute(
                    uri: original.replacingOccurrences(of: "http://localhost", with: ""), method: .get
                ) { ($0.status, $0.headers[.contentType]) }
                #expect(fileStatus == .ok && fileType == renderings.first?["format"] as? String, "\(original)")
            }
            let (_, paged) = try await Self.json(client, "/iiif/presentation/3/manifest.json?paged=1")
            #expect(paged["behavior"] as? [String] == ["paged"])
            let (tripStatus, trip) = try await Self.json(client, "/iiif/presentation/3/trip/manifest.json")
            #expect(tripStatus == .ok && (trip["items"] as? [Any])?.count == 1)
            #expect(try await Self.json(client, "/iiif/presentation/3/empty/manifest.json").0 == .notFound)
            #expect(try await Self.json(client, "/iiif/presentation/3/nowhere/manifest.json").0 == .notFound)
            #expect(try await Self.json(client, "/iiif/presentation/3/..%2F..%2Fetc/manifest.json").0 == .notFound)
        }
    }

    @Test("a folder's collection lists its sub-folders' collections and its own manifest")
    func collection() async throws {
        let server = TileServer(settings: ServeSettings(root: try ServeRoot(path: Self.root.path)))
        try await buildApplication(server).test(.router) { client in
            let (status, collection) = try await Self.json(client, "/iiif/presentation/3/collection.json")
            #expect(status == .ok && collection["type"] as? String == "Collection")
            let items = try #require(collection["items"] as? [[String: Any]])
            let members = items.map { "\($0["type"] as? String ?? "") \($0["id"] as? String ?? "")" }
            #expect(
                members == [
                    "Collection http://localhost/iiif/presentation/3/empty/collection.json",
                    "Collection http://localhost/iiif/presentation/3/trip/collection.json",
                    "Manifest http://localhost/iiif/presentation/3/manifest.json",
                ])
            let (_, empty) = try await Self.json(client, "/iiif/presentation/3/empty/collection.json")
            #expect((empty["items"] as? [Any])?.isEmpty == true)
            // The listing links the folder's manifest.
            let listing = try await client.execute(uri: "/", method: .get) { String(buffer: $0.body) }
            #expect(listing.contains("href=\"/iiif/presentation/3/manifest.json\""))
        }
    }

    @Test("a manifest is built within the work budget: too large a folder is 400 naming the --work-mb that builds it")
    func manifestWithinBudget() async throws {
        // 400 links to one small image: a manifest of about 0.9 MB of JSON, planned at about 4 MB.
        let root = try Fixtures.links(
            to: "rocket.jpg", count: 400, in: try TemporaryFolder.untilExit("presentation-budget")
        ) { "photo \($0).jpg" }
        func fetch(workMiB: Int) async throws -> (HTTPResponse.Status, String, Int) {
            let settings = ServeSettings(root: try ServeRoot(path: root.path), workBytes: workMiB << 20)
            let server = TileServer(settings: settings)
            return try await buildApplication(server).test(.router) { client in
                try await client.execute(uri: "/iiif/presentation/3/manifest.json", method: .get) { response in
                    let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    let canvases = (object?["items"] as? [Any])?.count ?? 0
                    return (response.status, String(buffer: response.body), canvases)
                }
            }
        }
        let (status, text, _) = try await fetch(workMiB: 2)
        #expect(status == .badRequest, "\(text)")
        #expect(text.contains("a manifest of the 400 entries of "), "\(text)")
        let range = try #require(
            text.range(of: #"--work-mb (\d+) or more would build it"#, options: .regularExpression))
        let named = try #require(Int(text[range].split(separator: " ")[1]))
        let (built, body, canvases) = try await fetch(workMiB: named)
        #expect(built == .ok && canvases == 400, "--work-mb \(named): \(built) \(body.prefix(200))")
        let (below, _, _) = try await fetch(workMiB: named - 1)
        #expect(below == .badRequest, "--work-mb \(named - 1) must not build it")
        #expect(body.utf8.count * 3 < named << 20, "the plan holds the JSON with room: \(body.utf8.count) bytes")
    }

    @Test("a folder's listing and gallery page are built within the work budget, as its manifest is")
    func pagesWithinBudget() async throws {
        // 600 links to one small image: about 100 KB of listing, planned at about 1.1 MB.
        let root = try Fixtures.links(
            to: "rocket.jpg", count: 600, in: try TemporaryFolder.untilExit("pages-budget")
        ) { "photo \($0).jpg" }
        func fetch(_ uri: String, workMiB: Int) async throws -> (HTTPResponse.Status, String) {
            let settings = ServeSettings(root: try ServeRoot(path: root.path), workBytes: workMiB << 20)
            return try await buildApplication(TileServer(settings: settings)).test(.router) { client in
                try await client.execute(uri: uri, method: .get) { ($0.status, String(buffer: $0.body)) }
            }
        }
        let (status, text) = try await fetch("/", workMiB: 1)
        #expect(status == .badRequest && text.contains("the listing of the 600 entries of "), "\(text)")
        let range = try #require(
            text.range(of: #"--work-mb (\d+) or more would build it"#, options: .regularExpression))
        let named = try #require(Int(text[range].split(separator: " ")[1]))
        let (built, page) = try await fetch("/", workMiB: named)
        #expect(built == .ok && page.components(separatedBy: "photo%20").count > 600, "\(built)")
        #expect(page.utf8.count * 5 < named << 20, "the plan holds the page with room")
        // The gallery page has the thumbnail strip when the page with it fits; else it comes without it (the view
        // reads the folder), where it was 400.
        let (bare, small) = try await fetch("/gallery", workMiB: 1)
        #expect(bare == .ok && small.contains("data-kind=\"gallery\"") && small.contains("data-lazy"), "\(bare)")
        #expect(!small.contains("data-page="), "no page is listed in the page")
        #expect(small.utf8.count < 16 << 10, "\(small.utf8.count) bytes")
        let (whole, strip) = try await fetch("/gallery", workMiB: named)
        #expect(whole == .ok && strip.components(separatedBy: "data-page=").count == 601, "\(whole)")
    }

    @Test("a listing shows a thousand entries a part (?page=N), with links to the parts before and after")
    func listingInParts() async throws {
        let root = try Fixtures.links(
            to: "rocket.jpg", count: 2500, in: try TemporaryFolder.untilExit("listing-parts")
        ) { "photo \($0).jpg" }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let settings = ServeSettings(root: try ServeRoot(path: root.path))
        try await buildApplication(TileServer(settings: settings)).test(.router) { client in
            func part(_ query: String) async throws -> (items: Int, text: String) {
                let text = try await client.execute(uri: "/" + query, method: .get) { String(buffer: $0.body) }
                return (text.components(separatedBy: "<li>").count - 1, text)
            }
            let first = try await part("")
            #expect(first.items == 1000 && first.text.contains("entries 1 to 1000 of 2501"))
            #expect(first.text.contains("href=\"/browse/sub\"") && first.text.contains("page through these 2500"))
            #expect(first.text.contains("rel=\"next\" href=\"/?page=2\"") && !first.text.contains("rel=\"prev\""))
            let last = try await part("?page=3")
            #expect(last.items == 501 && last.text.contains("entries 2001 to 2501 of 2501"))
            #expect(last.text.contains("rel=\"prev\" href=\"/?page=2\"") && !last.text.contains("rel=\"next\""))
            #expect(last.text.contains("photo%202499.jpg") && !last.text.contains("href=\"/browse/sub\""))
            #expect(try await part("?page=9").text == last.text, "past the last part: the last")
            #expect(try await part("?page=zero").text == first.text, "not a number: the first")
        }
    }
}
