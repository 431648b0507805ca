import Crypto
import FoundationEssentials
import TileView

/// What a view shows, fixed when it is made: the image or folder, the version of it the view was made of, and the
/// settings it was made with.
struct ViewSource: Equatable, Sendable {
    enum Content: Equatable, Sendable {
        /// An image, or a scene (a `.json` identifier).
        case image(identifier: String)
        case gallery(folder: String, pages: Int, circular: Bool, peek: Int, gap: Int)
    }

    var content: Content
    /// Whether it shows a scene.
    var isScene: Bool {
        if case .image(let identifier) = content { ServeRoot.isSceneName(identifier) } else { false }
    }
    /// The version of what it shows: `version(of:)` the image, or of the folder's listing; a scene's covers the
    /// scene file and each image it opened.
    var version: UInt64
    var viewport: PixelSize
    var maxScale: Double

    /// An image's version: its size and modification time (not its device and inode, which differ between machines
    /// that mount one volume, nor its change time, which a copy does not keep).
    static func version(of file: ServedFile) -> UInt64 {
        version(of: [file])
    }

    /// A folder listing's version: each image's identifier, size and modification time, in order.
    static func version(of files: [ServedFile]) -> UInt64 {
        var hash = Crypto.SHA256()
        for file in files {
            hash.update(data: Array("\(file.identifier)\n\(file.size)\n\(file.modified)\n".utf8))
        }
        return hash.finalize().withUnsafeBytes { raw in raw.prefix(8).reduce(0) { $0 << 8 | UInt64($1) } }
    }
}

/// Where a gallery view is: the frame at rest it shows (`GalleryPlanner.init(restoring:...)`), pages counted from 0.
struct GalleryPlace: Equatable, Sendable {
    var page: Int
    var frameIndex: Int
    /// The step that led to the frame, as the command line writes it (nil for the first frame).
    var action: String?
    var residentBefore: [Int]
    /// Where each resident page with a zoom state of its own is.
    var zooms: [Int: ZoomPlace]
}

/// Where a view is now: an image's zoom, or a gallery's frame.
enum ViewPlace: Equatable, Sendable {
    case image(ZoomPlace)
    case gallery(GalleryPlace)
}

/// A view's token (docs/design.md section 18): the whole view, signed, so that any server with the key rebuilds it.
///
/// The bytes: a format version (1), the session (8 random bytes that name the view's live copy in `ViewStore`), the
/// expiry (Unix seconds), the source and the place, then the first 16 bytes of HMAC-SHA256 with the server's key over
/// `"tileview view\n"` and everything before; written as unpadded base64url, so a token is one path segment.
/// Numbers are LEB128, doubles their 8 bytes of IEEE bits (a place is restored exactly), text UTF-8 after its
/// length. An image view's token is about 100 bytes plus its identifier; a gallery's at most about 260 plus its
/// folder's (three resident pages, each zoomed, and the longest step).
struct ViewToken: Equatable, Sendable {
    var session: UInt64
    var expires: Int
    var source: ViewSource
    var place: ViewPlace

    static let formatVersion: UInt8 = 1
    static let macBytes = 16
    /// The longest token text read (a path segment within the header limits); longer is malformed.
    static let maxTextLength = 6144
    /// The longest identifier, step or folder text in a token.
    static let maxTextBytes = 4096

    /// The token as text.
    func encoded(key: [UInt8]) -> String {
        var w = TokenWriter()
        w.bytes.append(Self.formatVersion)
        w.fixed(session)
        w.number(UInt64(max(0, expires)))
        switch source.content {
        case .image(let identifier):
            w.bytes.append(0)
            w.text(identifier)
        case .gallery(let folder, let pages, let circular, let peek, let gap):
            w.bytes.append(1)
            w.text(folder)
            w.number(UInt64(pages))
            w.bytes.append(circular ? 1 : 0)
            w.number(UInt64(peek))
            w.number(UInt64(gap))
        }
        w.fixed(source.version)
        w.number(UInt64(source.viewport.width))
        w.number(UInt64(source.viewport.height))
        w.double(source.maxScale)
        switch place {
        case .image(let zoom):
            w.zoom(zoom)
        case .gallery(let gallery):
            w.number(UInt64(gallery.page))
            w.number(UInt64(gallery.frameIndex))
            w.text(gallery.action ?? "")
            w.number(UInt64(gallery.residentBefore.count))
            for page in gallery.residentBefore { w.number(UInt64(page)) }
            w.number(UInt64(gallery.zooms.count))
            for (page, zoom) in gallery.zooms.sorted(by: { $0.key < $1.key }) {
                w.number(UInt64(page))
                w.zoom(zoom)
            }
        }
        w.bytes += Self.mac(w.bytes, key: key)
        return Self.base64url(w.bytes)
    }

    /// Why a token is refused (each a 404 with its line): malformed, not signed with this server's key (altered, or
    /// made with another key, e.g. before a restart without a kept key), or past its expiry.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case malformed(String)
        case forged
        case expired

        var description: String {
            switch self {
            case .malformed(let why): "the view token is malformed: \(why)"
            case .forged:
                "no such view: the token's signature does not match this server's key (the token was altered, or a "
                    + "server with another key made it)"
            case .expired: "the view expired (it was idle too long): open it again"
            }
        }
    }

    /// Reads `text`, checking its signature with `key` and its expiry against `now` (Unix seconds).
    static func read(_ text: Substring, key: [UInt8], now: Int) throws(Problem) -> ViewToken {
        guard text.utf8.count <= maxTextLength else { throw .malformed("longer than \(maxTextLength) characters") }
        guard let bytes = bytes(base64url: text) else { throw .malformed("not base64url text") }
        guard bytes.count > macBytes + 10 else { throw .malformed("too short") }
        let body = Array(bytes.dropLast(macBytes))
        guard bytes[0] == formatVersion else { throw .malformed("format \(bytes[0]) is not one this server reads") }
        guard AccessCrypto.constantTimeEqual(Array(bytes.suffix(macBytes)), mac(body, key: key)) else { throw .forged }
        var r = TokenReader(bytes: body, at: 1)
        let token: ViewToken
        do throws(TokenReader.Failure) {
            token = try r.token()
        } catch {
            throw .malformed(error.reason)
        }
        guard token.expires > now else { throw .expired }
        return token
    }

    static func mac(_ body: [UInt8], key: [UInt8]) -> [UInt8] {
        var hmac = HMAC<Crypto.SHA256>(key: SymmetricKey(data: key))
        hmac.update(data: Array("tileview view\n".utf8))
        hmac.update(data: body)
        return Array(hmac.finalize().prefix(macBytes))
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }

    /// The bytes of unpadded base64url text; nil for other text, or for text that is not how those bytes are written
    /// (so that no two texts name one token).
    static func bytes(base64url text: Substring) -> [UInt8]? {
        guard
            text.utf8.allSatisfy({ c in
                (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x2d
                    || c == 0x5f
            }), text.utf8.count % 4 != 1
        else { return nil }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = Array(data)
        return base64url(bytes) == text ? bytes : nil
    }
}

private struct TokenWriter {
    var bytes: [UInt8] = []

    mutating func number(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func fixed(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    mutating func double(_ value: Double) { fixed(value.bitPattern) }

    mutating func text(_ value: String) {
        number(UInt64(value.utf8.count))
        bytes += value.utf8
    }

    mutating func zoom(_ zoom: ZoomPlace) {
        double(zoom.zoomScale)
        double(zoom.contentOffset.x)
        double(zoom.contentOffset.y)
        bytes.append(UInt8(zoom.rotation.quarterTurns))
    }
}

/// Reads what `TokenWriter` wrote, refusing anything else: a number past its bound, text that is not UTF-8, a count
/// or a page past the view's, or bytes left over.
private struct TokenReader {
    struct Failure: Error {
        let reason: String
    }

    let bytes: [UInt8]
    var at: Int

    mutating func byte() throws(Failure) -> UInt8 {
        guard at < bytes.count else { throw Failure(reason: "it ends early") }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func number(atMost limit: Int = Int(Int32.max)) throws(Failure) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 63 else { throw Failure(reason: "a number is too long") }
            value |= UInt64(b & 0x7f) << shift
            if b & 0x80 == 0 { break }
            shift += 7
        }
        guard value <= UInt64(limit) else { throw Failure(reason: "a number is larger than \(limit)") }
        return Int(value)
    }

    mutating func fixed() throws(Failure) -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
        return value
    }

    mutating func double() throws(Failure) -> Double { Double(bitPattern: try fixed()) }

    mutating func text() throws(Failure) -> String {
        let count = try number(atMost: ViewToken.maxTextBytes)
        guard count <= bytes.count - at else { throw Failure(reason: "it ends early") }
        defer { at += count }
        guard let text = String(validating: bytes[at..<at + count], as: UTF8.self) else {
            throw Failure(reason: "a text is not UTF-8")
        }
        return text
    }

    mutating func zoom() throws(Failure) -> ZoomPlace {
        let scale = try double()
        let x = try double()
        let y = try double()
        let turns = try byte()
        guard turns < 4 else { throw Failure(reason: "a rotation is not a quarter turn") }
        return ZoomPlace(
            zoomScale: scale, contentOffset: Point(x: x, y: y), rotation: ZoomRotation(quarterTurns: Int(turns)))
    }

    mutating func token() throws(Failure) -> ViewToken {
        let session = try fixed()
        let expires = try number(atMost: Int.max)
        let content: ViewSource.Content
        var pages = 0
        switch try byte() {
        case 0: content = .image(identifier: try text())
        case 1:
            let folder = try text()
            pages = try number()
            let circular = try byte()
            guard pages > 0, circular < 2 else { throw Failure(reason: "a gallery's pages are wrong") }
            content = .gallery(
                folder: folder, pages: pages, circular: circular == 1, peek: try number(), gap: try number())
        default: throw Failure(reason: "a view's kind is unknown")
        }
        let version = try fixed()
        let viewport = PixelSize(width: try number(), height: try number())
        let source = ViewSource(content: content, version: version, viewport: viewport, maxScale: try double())
        let place: ViewPlace
        if pages == 0 {
            place = .image(try zoom())
        } else {
            let page = try number(atMost: pages - 1)
            let frameIndex = try number(atMost: Int.max)
            let action = try text()
            var residentBefore: [Int] = []
            for _ in 0..<(try number(atMost: 3)) { residentBefore.append(try number(atMost: pages - 1)) }
            var zooms: [Int: ZoomPlace] = [:]
            for _ in 0..<(try number(atMost: 3)) {
                let page = try number(atMost: pages - 1)
                zooms[page] = try zoom()
            }
            place = .gallery(
                GalleryPlace(
                    page: page, frameIndex: frameIndex, action: action.isEmpty ? nil : action,
                    residentBefore: residentBefore, zooms: zooms))
        }
        guard at == bytes.count else { throw Failure(reason: "it has bytes past its end") }
        return ViewToken(session: session, expires: expires, source: source, place: place)
    }
}

/// A server's view tokens: signed with its key (`--sign-key`, or the key kept in the cache folder, or one made at
/// start), each valid for the idle time from the answer that gave it.
struct ViewTokens: Sendable {
    let key: [UInt8]
    let idleSeconds: Double
    let now: @Sendable () -> Double

    init(settings: ServeSettings) {
        key = settings.viewKey
        idleSeconds = settings.viewIdleSeconds
        now = settings.viewClock
    }

    /// The token of `session`, from `source`, at `place`, valid for the idle time from now.
    func token(session: UInt64, source: ViewSource, place: ViewPlace) -> String {
        let expires = Int((now() + idleSeconds).rounded(.up))
        return ViewToken(session: session, expires: expires, source: source, place: place).encoded(key: key)
    }

    /// The view `text` names, signed with this key and not expired.
    func read(_ text: Substring) throws(ViewToken.Problem) -> ViewToken {
        try ViewToken.read(text, key: key, now: Int(now().rounded(.down)))
    }
}
