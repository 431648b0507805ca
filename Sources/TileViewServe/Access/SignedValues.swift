/// The session cookie (docs/design.md section 18): `tileview_session=HEX(user).EXPIRY.HEX(HMAC-SHA256(key, "session\n"
/// + user + "\n" + EXPIRY))`, the key random per start or read from `--session-key` (so replicas agree).
enum SessionCookie {
    static let name = "tileview_session"

    enum Verdict: Equatable {
        case valid(user: String)
        case expired
        case invalid
    }

    static func value(user: String, expires: Int, key: [UInt8]) -> String {
        let mac = AccessCrypto.hmac(key: key, message(user: user, expires: expires))
        return AccessCrypto.hex(user.utf8) + "." + String(expires) + "." + AccessCrypto.hex(mac)
    }

    static func verdict(_ value: String, key: [UInt8], now: Int) -> Verdict {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let userBytes = AccessCrypto.bytes(hex: parts[0]),
            let user = String(validating: userBytes, as: UTF8.self), parts[1].allSatisfy(\.isASCII),
            let expires = Int(parts[1]),
            AccessCrypto.verify(key: key, message(user: user, expires: expires), hexMAC: parts[2])
        else { return .invalid }
        return expires > now ? .valid(user: user) : .expired
    }

    static func message(user: String, expires: Int) -> String { "session\n\(user)\n\(expires)" }
}

/// What a share link opens (docs/design.md section 18): one image (its viewer page, IIIF and Deep Zoom routes) or one
/// folder (its gallery and listing, and every image and folder under it, sub-folders included). Identifiers are
/// compared decoded.
public enum ShareScope: Equatable, Sendable {
    case image(String)
    case folder(String)

    /// What a request path reaches: `/view/ID`, `/iiif/3/ID[/...]`, `/api/images/ID/(preview.jpg|info|file)`,
    /// `/dzi/ID.dzi`, `/dzi/ID_files/...` an image, `/gallery[/FOLDER]`, `/browse/FOLDER` and
    /// `/iiif/presentation/3[/FOLDER]/...` a folder; nil for any other path (or an identifier with an empty, `.` or `..` part).
    public init?(path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard path.hasPrefix("/"), let first = parts.first else { return nil }
        let rest = Array(parts.dropFirst())
        switch first {
        case "view" where rest.count == 1, "iiif" where rest.count >= 2 && rest[0] == "3",
            "api" where rest.count == 3 && rest[0] == "images":
            guard let id = Self.identifier(first == "view" ? rest[0] : rest[1]) else { return nil }
            self = .image(id)
        case "dzi" where rest.count >= 1:
            let name = rest[0]
            let id: Substring
            if rest.count == 1, name.hasSuffix(".dzi") {
                id = name.dropLast(4)
            } else if rest.count > 1, name.hasSuffix("_files") {
                id = name.dropLast(6)
            } else {
                return nil
            }
            guard let decoded = Self.identifier(id) else { return nil }
            self = .image(decoded)
        case "gallery" where rest.count <= 1, "browse" where rest.count == 1:
            if rest.isEmpty || (first == "gallery" && rest[0].isEmpty) {
                self = .folder("")
                return
            }
            guard let id = Self.identifier(rest[0]) else { return nil }
            self = .folder(id)
        case "iiif" where rest.count == 3 && rest[0] == "presentation" && rest[1] == "3":
            self = .folder("")
        case "iiif" where rest.count == 4 && rest[0] == "presentation" && rest[1] == "3":
            guard let id = Self.identifier(rest[2]) else { return nil }
            self = .folder(id)
        default: return nil
        }
    }

    /// A percent-encoded identifier decoded, or nil when it is empty, malformed or has an empty, `.` or `..` part.
    static func identifier(_ encoded: Substring) -> String? {
        guard let decoded = ServeRoot.percentDecoded(String(encoded)), !decoded.isEmpty,
            !decoded.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
                $0.isEmpty || $0 == "." || $0 == ".."
            })
        else { return nil }
        return decoded
    }

    /// Whether a grant of `self` reaches `wanted`.
    public func covers(_ wanted: ShareScope) -> Bool {
        switch (self, wanted) {
        case (.image(let granted), .image(let id)): granted == id
        case (.image, .folder): false
        case (.folder(let granted), .image(let id)), (.folder(let granted), .folder(let id)):
            granted.isEmpty || id == granted || id.hasPrefix(granted + "/")
        }
    }
}

/// Share links: `PATH?exp=UNIX&sig=HEX`, sig = HEX(HMAC-SHA256(key, PATH + "\n" + exp)) with the `--sign-key`
/// bytes. A browser that opened one keeps it in a cookie (`tileview_share`, the same path, expiry and signature,
/// checked again on every request, expiring with the link), so the viewer page's own tile and API requests carry
/// it; one link at a time per browser.
public enum ShareLink {
    static let cookieName = "tileview_share"

    public static func signature(path: String, expires: Int, key: [UInt8]) -> String {
        AccessCrypto.hex(AccessCrypto.hmac(key: key, path + "\n" + String(expires)))
    }

    /// `pathAndQuery` (a query kept) with `exp` and `sig` added: the signature covers the path only.
    public static func link(_ pathAndQuery: String, expires: Int, key: [UInt8]) -> String {
        let path = pathAndQuery.prefix { $0 != "?" && $0 != "#" }
        let sig = signature(path: String(path), expires: expires, key: key)
        let separator = pathAndQuery.contains("?") ? "&" : "?"
        return pathAndQuery + separator + "exp=\(expires)&sig=\(sig)"
    }

    enum Verdict: Equatable {
        case valid(ShareScope, expires: Int)
        /// Signed and current but for a path that is no image or folder.
        case notShareable
        case expired
        case badSignature
    }

    static func verdict(path: String, exp: Substring, sig: Substring, key: [UInt8], now: Int) -> Verdict {
        guard exp.allSatisfy(\.isASCII), let expires = Int(exp),
            AccessCrypto.verify(key: key, path + "\n" + exp, hexMAC: sig)
        else { return .badSignature }
        guard expires > now else { return .expired }
        guard let scope = ShareScope(path: path) else { return .notShareable }
        return .valid(scope, expires: expires)
    }

    static func cookieValue(path: String, exp: Substring, sig: Substring) -> String {
        AccessCrypto.hex(path.utf8) + "." + exp + "." + sig
    }

    /// The path, expiry and signature a `tileview_share` cookie holds.
    static func parseCookie(_ value: String) -> (path: String, exp: Substring, sig: Substring)? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = AccessCrypto.bytes(hex: parts[0]),
            let path = String(validating: bytes, as: UTF8.self)
        else { return nil }
        return (path, parts[1], parts[2])
    }
}
