import Crypto
import FoundationEssentials
import HummingbirdBcrypt
import TileView

/// Who may use the server (docs/design.md section 18): the accounts of `--users`, the script tokens of `--tokens`, the
/// key that signs session cookies (`--session-key`, else random per start) and the key of share links (`--sign-key`).
/// With `AccessRules` in `ServeSettings.access`, `AccessControl` asks every request but `/healthz`, `/login` and
/// the viewer's static files for a session, a bearer token or a share link.
public struct AccessRules: Sendable {
    /// User name to bcrypt hash (`$2b$`; `$2y$` lines are stored as `$2b$`, the same algorithm).
    public let users: [String: String]
    /// SHA-256 digests (32 bytes each) of the tokens `Authorization: Bearer` may carry.
    public let tokenDigests: [[UInt8]]
    /// HMAC-SHA256 key of session cookies.
    public let sessionKey: [UInt8]
    /// HMAC-SHA256 key of share links, or nil when they are off.
    public let signKey: [UInt8]?
    /// Seconds a session lasts after logging in.
    public var sessionSeconds: Int
    /// Session and share cookies carry `Secure` (HTTPS). See `SitePolicy.securesCookies(of:)`.
    public var secureCookies: Bool
    /// Failed logins per client address.
    public let limiter: LoginLimiter
    /// A hash checked when the user is unknown, so that a wrong name takes as long as a wrong password.
    let dummyHash: String
    /// Seconds since 1970 (a closure so tests can move it).
    let clock: @Sendable () -> Int

    public static let defaultSessionSeconds = 12 * 3600
    /// The shortest `--session-key` and `--sign-key` taken.
    public static let minimumKeyBytes = 32

    public init(
        users: [String: String] = [:], tokenDigests: [[UInt8]] = [], sessionKey: [UInt8]? = nil,
        signKey: [UInt8]? = nil, sessionSeconds: Int = defaultSessionSeconds, secureCookies: Bool = false,
        limiter: LoginLimiter = LoginLimiter(), clock: @escaping @Sendable () -> Int = AccessRules.unixTime
    ) {
        self.users = users.mapValues(Self.normalizedHash)
        self.tokenDigests = tokenDigests
        self.sessionKey = sessionKey ?? Self.randomKey()
        self.signKey = signKey
        self.sessionSeconds = sessionSeconds
        self.secureCookies = secureCookies
        self.limiter = limiter
        self.clock = clock
        // The same cost as the accounts' hashes (the highest), so both paths do the same work.
        let cost = self.users.values.compactMap(Self.cost(ofHash:)).max() ?? 10
        dummyHash = Bcrypt.hash(
            String(decoding: Self.randomKey().prefix(16).map { 65 + $0 % 26 }, as: UTF8.self), cost: UInt8(cost))
    }

    /// 32 random bytes.
    static func randomKey() -> [UInt8] {
        var random = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &random) }
    }

    public static func unixTime() -> Int {
        Int(Date().timeIntervalSince1970)
    }

    /// `$2y$` (PHP's name for the fixed algorithm) is `$2b$` to the bcrypt library.
    static func normalizedHash(_ hash: String) -> String {
        hash.hasPrefix("$2y$") ? "$2b$" + hash.dropFirst(4) : hash
    }

    /// The cost of a `$2?$NN$...` hash.
    static func cost(ofHash hash: String) -> Int? {
        let parts = hash.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, let cost = Int(parts[2]) else { return nil }
        return cost
    }

    /// Whether `password` is `user`'s. Slow (bcrypt): call it off the cooperative pool. An unknown user is checked
    /// against a dummy hash of the same cost, and is never accepted.
    func verify(user: String, password: String) -> Bool {
        let hash = users[user]
        let matches = Bcrypt.verify(password, hash: hash ?? dummyHash)
        return matches && hash != nil
    }

    /// Whether `token` is one of `--tokens`: its SHA-256 compared with every digest, each in constant time.
    func acceptsToken(_ token: String) -> Bool {
        let digest = Array(Crypto.SHA256.hash(data: Array(token.utf8)))
        var found = false
        for stored in tokenDigests where AccessCrypto.constantTimeEqual(stored, digest) { found = true }
        return found
    }
}

/// Hex, HMAC and comparisons shared by sessions and share links.
public enum AccessCrypto {
    public static func hmac(key: [UInt8], _ message: String) -> [UInt8] {
        Array(HMAC<Crypto.SHA256>.authenticationCode(for: Array(message.utf8), using: SymmetricKey(data: key)))
    }

    /// Whether `hexMAC` is the HMAC of `message` (compared in constant time; false for malformed hex).
    static func verify(key: [UInt8], _ message: String, hexMAC: Substring) -> Bool {
        guard let mac = bytes(hex: hexMAC), mac.count == 32 else { return false }
        return constantTimeEqual(mac, hmac(key: key, message))
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return out
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        let utf8 = Array(hex.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let high = ServeRoot.hexValue(lower(utf8[i])), let low = ServeRoot.hexValue(lower(utf8[i + 1])) else {
                return nil
            }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    private static func lower(_ c: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(c) ? c + 32 : c
    }
}
