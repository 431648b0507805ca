import HTTPTypes
import Hummingbird
import TileView

/// `--public-url` and `--allowed-hosts` (docs/design.md section 18): which `Host` names a request may carry, and the
/// base of every absolute URL the server writes (303 `Location`, info.json's `id`).
public struct SiteRules: Sendable, Equatable {
    /// `--public-url`, split: `https`, `tiles.example.org:8443`, `/iiif-proxy` (no trailing slash; empty for none).
    /// When set, every absolute URL starts with it, any `Host` is accepted, and the view API takes only this
    /// origin.
    public struct PublicURL: Sendable, Equatable {
        public let scheme: String
        public let authority: String
        public let path: String

        public init(scheme: String, authority: String, path: String) {
            self.scheme = scheme.lowercased()
            self.authority = authority.lowercased()
            var path = path
            while path.hasSuffix("/") { path.removeLast() }
            self.path = path
        }

        /// `scheme://authority/path`, without a trailing slash.
        public var base: String { "\(scheme)://\(authority)\(path)" }
    }

    public var publicURL: PublicURL?
    /// `--allowed-hosts`: names a `Host` may carry besides the loopback ones and the bound address. A name that
    /// starts with a dot also allows its sub-domains (`.example.org`).
    public var allowedHosts: [String]
    /// `--trusted-proxies`: the proxies in front of the server, whose `X-Forwarded-For` names the client a failed
    /// login counts against (`IPNetwork.client`); none by default, as any client may write the header.
    public var trustedProxies: [IPNetwork]

    public init(publicURL: PublicURL? = nil, allowedHosts: [String] = [], trustedProxies: [IPNetwork] = []) {
        self.publicURL = publicURL
        self.allowedHosts = allowedHosts
        self.trustedProxies = trustedProxies
    }
}

/// A `Host` header's (or an origin's) authority: the name, lowercased, an IPv6 address in brackets, without one
/// trailing dot; and the port when one is given. Anything else (spaces, quotes, `@`, a path, a bad port) is nil,
/// so a name that is used has only the characters of a host name.
struct Authority: Equatable {
    let name: String
    let port: Int?

    init?(_ text: some StringProtocol) {
        var rest = Substring(text)
        let name: String
        if rest.first == "[" {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            guard !inner.isEmpty, inner.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else {
                return nil
            }
            name = "[" + inner.lowercased() + "]"
            rest = rest[rest.index(after: close)...]
        } else {
            let end = rest.firstIndex(of: ":") ?? rest.endIndex
            var host = rest[..<end]
            if host.count > 1, host.last == "." { host = host.dropLast() }
            guard !host.isEmpty, host.count <= 253,
                host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") })
            else { return nil }
            name = host.lowercased()
            rest = rest[end...]
        }
        if rest.isEmpty {
            port = nil
        } else {
            guard rest.first == ":" else { return nil }
            let digits = rest.dropFirst()
            if digits.isEmpty {
                port = nil  // `host:` is allowed by RFC 9110 (an empty port)
            } else {
                guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits),
                    value <= 65535
                else { return nil }
                port = value
            }
        }
        self.name = name
    }

    /// `name[:port]`: safe to write into a URL (only host-name characters).
    var text: String { port.map { "\(name):\($0)" } ?? name }

    /// localhost, 127.0.0.0/8 or [::1].
    var isLoopback: Bool {
        if name == "localhost" || name == "[::1]" || name == "[0:0:0:0:0:0:0:1]" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        let octets = parts.compactMap { part in part.count <= 3 ? UInt8(part) : nil }
        return octets.count == 4 && octets[0] == 127
    }

    /// The name of an address the server binds: nil for every address (`0.0.0.0`, `::`).
    static func bound(_ host: String) -> Authority? {
        guard !["0.0.0.0", "::", "[::]", ""].contains(host) else { return nil }
        return Authority(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
    }
}

/// The rules of docs/design.md section 18 on `Host` and `Origin`, from the settings.
struct SitePolicy: Sendable {
    let rules: SiteRules
    /// The names a `Host` may carry besides loopback ones (the bound address and `--allowed-hosts`).
    let names: Set<String>
    /// `--allowed-hosts` entries that start with a dot: sub-domains of these are allowed too.
    let suffixes: [String]
    /// Where a request without `Host` (HTTP/1.0) is told to go.
    let fallback: String
    /// `https` under `--tls-cert`, else `http`.
    let scheme: String

    init(settings: ServeSettings) {
        rules = settings.site
        scheme = settings.tls == nil ? "http" : "https"
        var names = Set<String>()
        var suffixes: [String] = []
        for entry in settings.site.allowedHosts {
            if entry.hasPrefix("."), let domain = Authority(entry.dropFirst()) {
                suffixes.append("." + domain.name)
                names.insert(domain.name)
            } else if let name = Authority(entry.contains(":") && !entry.hasPrefix("[") ? "[\(entry)]" : entry) {
                names.insert(name.name)
            }
        }
        let bound = Authority.bound(settings.host)
        if let bound { names.insert(bound.name) }
        self.names = names
        self.suffixes = suffixes
        fallback = Authority("\(bound?.name ?? "127.0.0.1"):\(settings.port)")?.text ?? "127.0.0.1"
    }

    /// Why a request's `Host` is refused (one line, never naming the value), or nil when it is accepted.
    func hostRefusal(_ request: Request) -> String? {
        // A second Host header stays among the fields (the first became the authority).
        if request.headers[HTTPField.Name("Host")!] != nil { return "the request has more than one Host header" }
        guard let raw = request.head.authority else { return "the request has no Host header" }
        if rules.publicURL != nil { return nil }
        guard let host = Authority(raw) else { return "the Host header is not a host name and port" }
        if host.isLoopback || names.contains(host.name) || suffixes.contains(where: { host.name.hasSuffix($0) }) {
            return nil
        }
        return "the Host header does not name this server (start it with --allowed-hosts NAME or --public-url URL)"
    }

    /// Whether session and share cookies carry `Secure`: the server speaks HTTPS (`--tls-cert`), clients reach it
    /// through an https `--public-url` (a proxy that ends TLS), or the rules say so.
    func securesCookies(of access: AccessRules) -> Bool {
        access.secureCookies || scheme == "https" || rules.publicURL?.scheme == "https"
    }

    /// `scheme://host[:port][/path]`: the base of absolute URLs, from `--public-url`, else from the request's
    /// (checked) `Host`.
    func baseURI(_ request: Request) -> String {
        if let url = rules.publicURL { return url.base }
        return scheme + "://" + (request.head.authority.flatMap { Authority($0)?.text } ?? fallback)
    }

    /// Whether `origin` (an `Origin` header) is this server: the public URL's origin when one is set, else http or
    /// https on the request's own `Host` (name and port, the scheme's default port when none is written; either
    /// scheme, since a proxy in front may speak the other one).
    func isOwnOrigin(_ origin: String, _ request: Request) -> Bool {
        guard let separator = origin.firstRange(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound].lowercased()
        guard let defaultPort = ["http": 80, "https": 443][scheme],
            let theirs = Authority(origin[separator.upperBound...])
        else { return false }
        let ours: Authority?
        if let url = rules.publicURL {
            guard url.scheme == scheme else { return false }
            ours = Authority(url.authority)
        } else {
            ours = request.head.authority.flatMap { Authority($0) }
        }
        guard let ours else { return false }
        return ours.name == theirs.name && (ours.port ?? defaultPort) == (theirs.port ?? defaultPort)
    }
}

/// Refuses, with 400 and one line, a request whose `Host` does not name the server (DNS rebinding, poisoned ids and
/// redirects), one without `Host` and one with two. `/healthz` is exempt: load balancers and orchestrators probe it
/// with the pod's address or none, and it answers `ok` and nothing else.
struct HostCheck<Context: RequestContext>: RouterMiddleware {
    let policy: SitePolicy

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path != "/healthz", let reason = policy.hostRefusal(request) else {
            return try await next(request, context)
        }
        return TileServer.text(.badRequest, reason)
    }
}
