import Foundation
import Testing
import TileViewTestSupport

@testable import TileViewServe

/// Identifiers name files under the root and nothing else (docs/design.md section 10).
@Suite("Served root")
struct ServeRootTests {
    @Test("a plain and a sub-folder identifier name their files; a link that stays inside is followed")
    func plainIdentifiers() throws {
        let root = ServeFixture.root
        #expect(root.file(forIdentifier: "rocket.jpg")?.identifier == "rocket.jpg")
        let coffee = try #require(root.file(forIdentifier: "albums%2Fcoffee.png"))
        #expect(coffee.identifier == "albums/coffee.png")
        #expect(coffee.path.hasSuffix("/root/albums/coffee.png"))
        #expect(coffee.descriptor != nil, "a file found is open")
        // inside.jpg is an absolute link to rocket.jpg: the same file, so the same identity and entity tag.
        let inside = try #require(root.file(forIdentifier: "inside.jpg"))
        #expect(inside.identity == root.file(forIdentifier: "rocket.jpg")?.identity)
        #expect(inside.entityTag == root.file(forIdentifier: "rocket.jpg")?.entityTag)
    }

    @Test("the walk (used where the kernel has no openat2) refuses every escape and follows the link inside")
    func walk() throws {
        var root = ServeFixture.root
        root.resolution = .walk
        for identifier in ServeFixture.escapes {
            #expect(root.file(forIdentifier: identifier) == nil, "\(identifier)")
        }
        #expect(root.file(forIdentifier: "inside.jpg")?.identity == root.file(forIdentifier: "rocket.jpg")?.identity)
        #expect(root.file(forIdentifier: "inside.jpg") != nil)
        #expect(root.file(forIdentifier: "albums%2Fcoffee.png") != nil)
        #expect(root.folder(forIdentifier: "albums") != nil)
        #expect(root.folder(forIdentifier: "up") == nil, "a link to a folder outside")
    }

    @Test("a listing leaves out links out, hidden files and FIFOs, and holds no descriptor")
    func listing() throws {
        let root = ServeFixture.root
        let contents = root.contents(of: try #require(root.folder(forIdentifier: "")))
        let (folders, images) = (contents.folders, contents.images)
        #expect(folders.map(\.identifier) == ["albums"])
        #expect(images.map(\.identifier) == ["broken.jpg", "inside.jpg", "rocket.jpg"])
        #expect(images.allSatisfy { $0.descriptor == nil })
        #expect(root.folder(forIdentifier: "up") == nil)
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

    @Test("the entity tag and version hold device, inode, size, modification and change times")
    func identityInTag() throws {
        let file = try #require(ServeFixture.root.file(forIdentifier: "rocket.jpg"))
        let id = file.identity
        let parts = [id.device, id.inode, UInt64(id.size), UInt64(id.modified), UInt64(id.changed)]
        #expect(file.entityTag == "\"" + parts.map { String($0, radix: 16) }.joined(separator: "-") + "\"")
        #expect(file.version.contains(file.entityTag))
        #expect(id.changed > 0 && id.inode > 0)
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
