import Foundation
import Testing
import TileViewServe
import TileViewTestSupport

/// Identifiers name files under the root and nothing else (DESIGN section 10).
@Suite("Served root")
struct ServeRootTests {
    @Test("a plain and a sub-folder identifier name their files; a link that stays inside is followed")
    func plainIdentifiers() throws {
        let root = ServeFixture.root
        #expect(root.file(forIdentifier: "rocket.jpg")?.identifier == "rocket.jpg")
        let coffee = try #require(root.file(forIdentifier: "albums%2Fcoffee.png"))
        #expect(coffee.identifier == "albums/coffee.png")
        #expect(coffee.path.hasSuffix("/root/albums/coffee.png"))
        #expect(root.file(forIdentifier: "inside.jpg")?.path.hasSuffix("/root/rocket.jpg") == true)
    }

    @Test("every way out of the root, hidden or special file is refused", arguments: ServeFixture.escapes)
    func escapes(_ identifier: String) {
        #expect(ServeFixture.root.file(forIdentifier: identifier) == nil, "\(identifier)")
    }

    @Test("percent-decoding happens once and refuses malformed escapes")
    func decoding() {
        #expect(ServeRoot.percentDecoded("albums%2Fa%20b.jpg") == "albums/a b.jpg")
        #expect(ServeRoot.percentDecoded("%252F") == "%2F")
        #expect(ServeRoot.percentDecoded("%2") == nil)
        #expect(ServeRoot.percentDecoded("%G0") == nil)
        #expect(ServeRoot.percentDecoded("%C0%AE") == nil, "invalid UTF-8")
        for text in ["albums/a b.jpg", "ü/ß.png", "100%.jpg"] {
            #expect(ServeRoot.percentDecoded(ServeRoot.percentEncoded(text)) == text)
        }
    }

    @Test("the entity tag changes when the file changes")
    func entityTags() throws {
        try TemporaryFolder.with("serve-etag") { dir in
            let file = dir.appendingPathComponent("a.jpg")
            try Data(contentsOf: Fixtures.sampleImages.appendingPathComponent("rocket.jpg")).write(to: file)
            let root = try ServeRoot(path: dir.path)
            let before = try #require(root.file(forIdentifier: "a.jpg")).entityTag
            try Data(contentsOf: Fixtures.sampleImages.appendingPathComponent("retina.jpg")).write(to: file)
            let after = try #require(root.file(forIdentifier: "a.jpg")).entityTag
            #expect(before != after)
        }
    }
}
