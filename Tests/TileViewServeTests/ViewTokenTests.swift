import Foundation
import Testing
import TileView
import TileViewTestSupport

@testable import TileViewServe

/// View tokens (docs/design.md section 18): what a token says is read back exactly, any change to it is refused, a
/// token is small, and bytes signed with the key but not written by the server are refused without a crash.
@Suite("View tokens")
struct ViewTokenTests {
    static let key = ViewKey.random()

    static func place(_ rng: inout SplitMix64) -> ZoomPlace {
        ZoomPlace(
            zoomScale: rng.logUniform(0.001, 64), contentOffset: Point(x: rng.uniform(0, 1e5), y: rng.uniform(0, 1e5)),
            rotation: ZoomRotation(quarterTurns: Int(rng.next() % 4)))
    }

    /// A token of an image or a gallery with random identifiers, settings and places (the largest gallery place:
    /// three resident pages before, three zoomed, and a drag as its step, in a quarter of them).
    static func token(_ rng: inout SplitMix64) -> ViewToken {
        let name = String((0..<Int(rng.next() % 40)).map { _ in "abcé/ -%".randomElement(using: &rng)! })
        let viewport = PixelSize(width: 1 + Int(rng.next() % 4096), height: 1 + Int(rng.next() % 4096))
        if rng.chance(0.5) {
            return ViewToken(
                session: rng.next(), expires: 1_700_000_000 + Int(rng.next() % 1_000_000),
                source: ViewSource(
                    content: .image(identifier: name), version: rng.next(), viewport: viewport,
                    maxScale: rng.logUniform(0.01, 64)),
                place: .image(place(&rng)))
        }
        let pages = 1 + Int(rng.next() % 5000)
        let page = { (rng: inout SplitMix64) in Int(rng.next() % UInt64(pages)) }
        var zooms: [Int: ZoomPlace] = [:]
        for _ in 0..<Int(rng.next() % 4) { zooms[page(&rng)] = place(&rng) }
        return ViewToken(
            session: rng.next(), expires: 1_700_000_000 + Int(rng.next() % 1_000_000),
            source: ViewSource(
                content: .gallery(
                    folder: name, pages: pages, circular: rng.chance(0.5), peek: Int(rng.next() % 4097),
                    gap: Int(rng.next() % 4097)),
                version: rng.next(), viewport: viewport, maxScale: rng.logUniform(0.01, 64)),
            place: .gallery(
                GalleryPlace(
                    page: page(&rng), frameIndex: Int(rng.next() % 100_000),
                    action: rng.pick([
                        nil, "next", "goto 12", "double-tap 120.5,80.25", "drag -123.456,7.89 velocity 0.6,0",
                    ]),
                    residentBefore: (0..<Int(rng.next() % 4)).map { _ in page(&rng) }.sorted(), zooms: zooms)))
    }

    @Test("a page's caption is its identifier's last part")
    func captionNames() {
        #expect(ViewAnswer.name(of: "trips/2024/photo 1.jpg") == "photo 1.jpg")
        #expect(ViewAnswer.name(of: "top.png") == "top.png")
        #expect(ViewAnswer.name(of: "") == "")
    }

    @Test("a token reads back as what was written, over seeded random images and galleries")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 0x70CE_0001)
        for _ in 0..<2000 {
            let token = Self.token(&rng)
            let text = token.encoded(key: Self.key)
            #expect(try ViewToken.read(text[...], key: Self.key, now: token.expires - 1) == token, "\(text)")
            #expect(text.utf8.allSatisfy { $0 == 0x2d || $0 == 0x5f || (0x30...0x7a).contains($0) })
        }
    }

    @Test("changing any byte of a token, or any character of its text, is refused")
    func tampering() throws {
        var rng = SplitMix64(seed: 0x70CE_0002)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for _ in 0..<20 {
            let token = Self.token(&rng)
            let text = token.encoded(key: Self.key)
            let bytes = try #require(ViewToken.bytes(base64url: text[...]))
            for index in bytes.indices {
                for mask: UInt8 in [0x01, 0x80, 0xff] {
                    var changed = bytes
                    changed[index] ^= mask
                    let tampered = ViewToken.base64url(changed)
                    #expect(throws: ViewToken.Problem.self, "byte \(index) ^ \(mask)") {
                        try ViewToken.read(tampered[...], key: Self.key, now: 0)
                    }
                }
            }
            for index in text.indices {
                var changed = text
                let other = alphabet.filter { $0 != text[index] }.randomElement(using: &rng)!
                changed.replaceSubrange(index...index, with: String(other))
                #expect(throws: ViewToken.Problem.self, "character \(text.distance(from: text.startIndex, to: index))")
                {
                    try ViewToken.read(changed[...], key: Self.key, now: 0)
                }
            }
            // Cut short, made longer, or read with another key.
            #expect(throws: ViewToken.Problem.self) { try ViewToken.read(text.dropLast(), key: Self.key, now: 0) }
            #expect(throws: ViewToken.Problem.self) { try ViewToken.read(text + "A", key: Self.key, now: 0) }
            #expect(throws: ViewToken.Problem.forged) { try ViewToken.read(text[...], key: ViewKey.random(), now: 0) }
        }
    }

    @Test("a token expires: valid before its second, refused from it")
    func expiry() throws {
        var rng = SplitMix64(seed: 0x70CE_0003)
        let token = Self.token(&rng)
        let text = token.encoded(key: Self.key)
        #expect(try ViewToken.read(text[...], key: Self.key, now: token.expires - 1) == token)
        #expect(throws: ViewToken.Problem.expired) { try ViewToken.read(text[...], key: Self.key, now: token.expires) }
    }

    @Test("tokens are small: an image's about 100 characters plus its name, a gallery's at most about 300")
    func size() {
        var rng = SplitMix64(seed: 0x70CE_0004)
        var largest = (image: 0, gallery: 0)
        for _ in 0..<2000 {
            var token = Self.token(&rng)
            // The name's share, as written: a folder or an image identifier of n bytes takes n * 4 / 3 characters.
            let nameBytes: Int
            switch token.source.content {
            case .image(let id): nameBytes = id.utf8.count
            case .gallery(let folder, _, _, _, _): nameBytes = folder.utf8.count
            }
            token.expires = Int(Int32.max)
            let rest = token.encoded(key: Self.key).utf8.count - (nameBytes * 4 + 2) / 3
            if case .image = token.place {
                largest.image = max(largest.image, rest)
            } else {
                largest.gallery = max(largest.gallery, rest)
            }
        }
        #expect(largest.image <= 110 && largest.gallery <= 300, "\(largest)")
    }

    @Test("bytes signed with the key but not a token the server wrote are refused as malformed, never a crash")
    func signedGarbage() {
        var rng = SplitMix64(seed: 0x70CE_0005)
        var valid = 0
        for round in 0..<5000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = [ViewToken.formatVersion] + (0..<Int(rng.next() % 200)).map { _ in UInt8(rng.next() & 0xff) }
            } else {
                // A real token's body with bytes changed, cut or added: the reader's bounds, not the signature.
                let text = Self.token(&rng).encoded(key: Self.key)
                bytes = Array(ViewToken.bytes(base64url: text[...])!.dropLast(ViewToken.macBytes))
                for _ in 0..<1 + Int(rng.next() % 4) where bytes.count > 1 {
                    let index = 1 + Int(rng.next() % UInt64(bytes.count - 1))
                    switch rng.next() % 3 {
                    case 0: bytes[index] = UInt8(rng.next() & 0xff)
                    case 1: bytes.removeSubrange(index...)
                    default: bytes.insert(UInt8(rng.next() & 0xff), at: index)
                    }
                }
            }
            let text = ViewToken.base64url(bytes + ViewToken.mac(bytes, key: Self.key))
            do {
                _ = try ViewToken.read(text[...], key: Self.key, now: 0)
                valid += 1
            } catch {
                if case .malformed = error {
                } else if case .expired = error {
                } else {
                    Issue.record("\(error) for signed bytes")
                }
            }
        }
        // Most changes leave no token; a few land on another valid one (a changed digit of a number).
        #expect(valid < 2500, "\(valid)")
    }

    @Test("the version of a file is its identifier, size and modification time; device, inode and ctime are not in it")
    func versions() {
        let file = { (device: UInt64, size: Int, modified: Int) in
            ServedFile(
                identifier: "a/b.jpg", path: "/x/a/b.jpg",
                identity: FileIdentity(device: device, inode: device * 7, size: size, modified: modified, changed: 9),
                descriptor: nil)
        }
        #expect(ViewSource.version(of: file(1, 10, 20)) == ViewSource.version(of: file(2, 10, 20)))
        #expect(ViewSource.version(of: file(1, 10, 20)) != ViewSource.version(of: file(1, 11, 20)))
        #expect(ViewSource.version(of: file(1, 10, 20)) != ViewSource.version(of: file(1, 10, 21)))
        #expect(
            ViewSource.version(of: [file(1, 10, 20)]) != ViewSource.version(of: [file(1, 10, 20), file(1, 10, 20)]))
    }
}
