import ArgumentParser
import TileViewCore

/// The arguments of `tileview serve`, parsed twice: by `tileview`, which checks them and hands the same words to
/// `tileview-serve` (the executable that holds the HTTP server), and by `tileview-serve`, which runs the server.
public struct ServeOptions: ParsableArguments {
    public init() {}

    /// The abstract and discussion of both commands' help and of the man page.
    public static let abstract =
        "Serve the image files under a folder over IIIF Image API 3.0 and Deep Zoom, with a viewer."
    public static let discussion = """
        Nothing is pre-processed: each request decodes only the part and the level of the file it needs. \
        An image's identifier is its path under ROOT, percent-encoded as one segment (albums%2Fbeach.jpg). \
        Routes: IIIF /iiif/3/ID (redirects to its info.json), /iiif/3/ID/info.json, \
        /iiif/3/ID/REGION/SIZE/ROTATION/QUALITY.FORMAT; IIIF Presentation 3 /iiif/presentation/3/manifest.json \
        (?paged=1) and /iiif/presentation/3/collection.json, a folder's under /iiif/presentation/3/FOLDER-ID/; \
        Deep Zoom /dzi/ID.dzi, /dzi/ID_files/LEVEL/COL_ROW.jpg; \
        the viewer /, /browse/FOLDER-ID, /view/ID, /gallery, /gallery/FOLDER-ID, /viewer/viewer.js, \
        /viewer/viewer.css; the view API /api/views (POST), /api/views/VIEW (GET, DELETE), \
        /api/views/VIEW/gestures and /moves (POST), /api/views/VIEW/frame.png, /api/openapi.json, \
        /api/images/ID/preview.jpg (the thumbnail the camera embedded, 404 when none), /api/images/ID/info \
        (info --json of the image, with its EXIF); with --users \
        /login and /logout; operations /healthz and /metrics (Prometheus text). \
        Only files under ROOT are served (no .., no dotfiles, \
        no symbolic link that leaves ROOT; a path is resolved and opened in one step and the descriptor checked is \
        the one decoded): anything else is 404. SIGINT or SIGTERM stop accepting, write every answer in flight \
        whole within --drain-seconds and exit 0. Limits: idle connections close after 30 s, header blocks over \
        32 KiB and request bodies over 64 KiB are refused, --max-connections are open at once. Every answer's \
        memory is planned before it is allocated: renders share --work-mb in two lanes (tiles never wait behind \
        large answers); a plan that can never fit is 400 with its parts, a full queue 503 with Retry-After; \
        info.json advertises the maxArea the budget renders. First views survive restarts: each image's levels \
        at most 1024x1024 are kept on disk (--cache-dir, default ~/.cache/tileview; --disk-cache-mb), written \
        by --index-workers in the background or by `tileview index ROOT`.

        The viewer: open http://HOST:PORT/ in a browser to list the folders and images, zoom one (/view/ID: \
        double click, shift+double click, wheel, drag) or page through a folder (/gallery/FOLDER-ID, arrow \
        keys and swipes; ?circular=1&peek=P&gap=G). Zooming and paging run on the server (/api/views, \
        described at /api/openapi.json), so a view's frame.png is exactly what `tileview zoom` or \
        `tileview gallery` writes after the same gestures and moves.

        Cross-site and Host rules: IIIF and Deep Zoom answers carry CORS * (any site may show the images); \
        nothing else does. The view API (/api/...) takes bodies as application/json only (415), and it and \
        every POST, PUT, DELETE or PATCH are refused (403) when the browser says they come from another \
        site (an Origin other than the server's, Sec-Fetch-Site: cross-site). Without --public-url, a Host \
        header that is not a loopback name, the --host address or one of --allowed-hosts is refused (400) \
        on every route but /healthz: a page on another name cannot reach the server through DNS \
        rebinding, and ids and redirects are never written with a name the server does not answer to. \
        Every answer carries X-Content-Type-Options: nosniff; pages a Content-Security-Policy (the \
        server's own script, styles and images only, no framing). A --host that is not a loopback \
        address needs an access rule: --public (anyone who reaches it may view the images), --users FILE \
        (bcrypt lines from --hash-password NAME; a login page and a signed session cookie) or --tokens FILE \
        (SHA-256 digests of bearer tokens); --sign-key FILE adds share links (--sign PATH prints one). \
        --tls-cert and --tls-key serve HTTPS.

        OpenSeadragon, in a page served from anywhere (CORS is open on IIIF):
          OpenSeadragon({id: "viewer", prefixUrl: "images/",
            tileSources: "http://127.0.0.1:8080/iiif/3/photo.jpg/info.json"});

        The server is the executable tileview-serve, installed beside tileview: `tileview serve` checks its \
        arguments and becomes tileview-serve (the same process). Keeping the HTTP stack out of tileview \
        halves the start-up of every other command.
        """

    @Argument(
        help:
            "The folder whose image files are served (sub-folders included); not taken with --hash-password or --sign."
    )
    public var root: String = ""

    @Option(
        help:
            "The address to listen on (127.0.0.1: this machine only). Another address needs an access rule (--public).")
    public var host = "127.0.0.1"

    @Flag(
        name: .customLong("public"),
        help:
            "Let anyone who can reach --host view the images read-only (the access rule a non-loopback --host needs).")
    public var publicViewing = false

    @Option(
        name: .customLong("public-url"),
        help: ArgumentHelp(
            "The URL clients reach the server at (behind a proxy, say): the base of info.json ids and redirects, and the only origin the view API takes. Any Host header is then accepted.",
            valueName: "url"))
    public var publicURL: String?

    @Option(
        name: .customLong("allowed-hosts"),
        help: ArgumentHelp(
            "Host names (comma-separated, repeatable) a request's Host header may carry besides loopback names and the --host address; .example.org allows its sub-domains too. Other Hosts are 400.",
            valueName: "name,..."))
    public var allowedHosts: [String] = []

    @Option(
        name: .customLong("trusted-proxies"),
        help: ArgumentHelp(
            "Addresses or networks (comma-separated, repeatable: 127.0.0.1, 10.0.0.0/8, fd00::/8) of proxies in front of the server: a request from one counts its failed logins against the client its X-Forwarded-For names (the nearest address that is not a trusted proxy). Without it every client behind a proxy is one client, which five wrong passwords lock out for a minute.",
            valueName: "addr,..."))
    public var trustedProxies: [String] = []

    @Option(help: "The port to listen on.")
    public var port = 8080

    @Option(name: .customLong("max-area"), help: "The largest response in pixels (width * height).")
    public var maxArea = 4096 * 4096

    @Option(
        name: .customLong("cache-mb"),
        help:
            "MiB of memory for the caches: three quarters for decoded tiles shared by all images, one quarter for encoded answers."
    )
    public var cacheMB = 256

    @Option(
        name: .customLong("max-scale"),
        help: ArgumentHelp(
            "The viewer's largest zoom, in screen pixels per image pixel (never below the fit): photo viewers zoom past the pixels. The view API's default, for a request that names none, stays 1.",
            valueName: "SCALE"))
    public var maxScale = 4.0

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "Keep each image's coarse levels (those at most 1024x1024) on disk here, so first views are fast after a restart or `tileview index`; `none` keeps nothing. Default: $XDG_CACHE_HOME/tileview, else ~/.cache/tileview.",
            valueName: "DIR"))
    public var cacheDir: String?

    @Option(
        name: .customLong("disk-cache-mb"),
        help: ArgumentHelp(
            "MiB the disk cache may hold; the least recently used entries go first.", valueName: "MiB"))
    public var diskCacheMB = 1024

    @Option(
        name: .customLong("index-workers"),
        help: ArgumentHelp(
            "Threads writing the coarse levels of every image under ROOT to the disk cache in the background, newest files first, at the lowest priority (0: none).",
            valueName: "N"))
    public var indexWorkers = 1

    @Option(
        name: .customLong("work-mb"),
        help: ArgumentHelp(
            "MiB that renders hold at once, beside the caches: each answer's plan is worked out before any pixel memory and waits for its share (a quarter kept for tile-sized answers); a plan that can never fit is refused with 400, a full queue with 503.",
            valueName: "MiB"))
    public var workMB = 128

    @Option(
        name: .customLong("max-connections"),
        help: ArgumentHelp(
            "Connections open at once (kept 64 below the descriptor limit, which the server raises to its hard limit): a new one past it closes the oldest that is not being answered.",
            valueName: "N"))
    public var maxConnections = 1024

    @Option(
        name: .customLong("drain-seconds"),
        help: ArgumentHelp(
            "On SIGTERM or SIGINT: stop accepting and give the answers in flight this long to be written whole, then exit 0.",
            valueName: "SECONDS"))
    public var drainSeconds = 30

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve HTTPS with this PEM certificate chain (with --tls-key).", valueName: "PEM"))
    public var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The PEM private key of --tls-cert.", valueName: "PEM"))
    public var tlsKey: String?

    @Option(
        name: .customLong("max-views"),
        help: "Views (browser tabs) open at most, within 256 KiB a view together; the one idle longest goes first.")
    public var maxViews = 64

    @Option(name: .customLong("view-idle"), help: "Seconds an idle view is kept.")
    public var viewIdle = 900.0

    // Access (docs/design.md section 18): logins, script tokens, share links. The files are read by tileview-serve.

    @Option(
        name: .customLong("users"),
        help: ArgumentHelp(
            "Accounts, one name:bcrypt-hash a line (htpasswd -nB NAME, or --hash-password NAME; # comments). Every route but /healthz and /login then needs a login (POST /login sets a signed session cookie), a --tokens token or a share link.",
            valueName: "file"))
    public var usersFile: String?

    @Option(
        name: .customLong("tokens"),
        help: ArgumentHelp(
            "Tokens scripts send as Authorization: Bearer TOKEN, one a line as the SHA-256 of the token in hex (printf %s TOKEN | sha256sum). Needs a login for everything else, as --users does.",
            valueName: "file"))
    public var tokensFile: String?

    @Option(
        name: .customLong("session-key"),
        help: ArgumentHelp(
            "A file whose bytes (at least 32) sign session cookies, so that replicas and restarts accept each other's sessions; without it a random key per start.",
            valueName: "file"))
    public var sessionKeyFile: String?

    @Option(
        name: .customLong("session-hours"), help: ArgumentHelp("Hours a login lasts.", valueName: "hours"))
    public var sessionHours = 12

    @Option(
        name: .customLong("sign-key"),
        help: ArgumentHelp(
            "A file whose bytes (at least 32) sign view tokens, so that replicas given the same file answer each other's views (without it the key kept in the cache folder does), and share links: PATH?exp=UNIX&sig=HEX opens one image (/view/ID) or folder (/gallery/FOLDER) without login until exp. With --sign, the key to sign with.",
            valueName: "file"))
    public var signKeyFile: String?

    @Option(
        name: .customLong("hash-password"),
        help: ArgumentHelp(
            "Read a password (one line) from standard input, print NAME:BCRYPT-HASH for --users, and exit.",
            valueName: "name"))
    public var hashPassword: String?

    @Option(name: .customLong("hash-cost"), help: "The bcrypt cost --hash-password uses (10 to 16).")
    public var hashCost = 12

    @Option(
        name: .customLong("sign"),
        help: ArgumentHelp(
            "Print a share link for this path (/view/ID or /gallery/FOLDER, identifiers percent-encoded as the viewer links them), signed with --sign-key and valid for --expires seconds, and exit.",
            valueName: "path"))
    public var sign: String?

    @Option(name: .customLong("expires"), help: ArgumentHelp("Seconds a --sign link is valid.", valueName: "seconds"))
    public var expires = 86_400

    /// `--hash-password` or `--sign`: a tool run, no server (and no ROOT).
    public var isToolRun: Bool { hashPassword != nil || sign != nil }

    @Flag(help: "Print the viewer's URL on standard output and open it where a desktop is present.")
    public var open = false

    @OptionGroup public var decoding: DecodeOptionGroup

    /// Who may use a server that others can reach (docs/design.md section 18). `--users FILE` will be a third rule.
    public enum AccessRule: Equatable, Sendable {
        /// No rule given: only a loopback `--host` is allowed.
        case loopbackOnly
        /// `--public`: read-only viewing for anyone who reaches the server.
        case publicViewing
        /// `--users` or `--tokens`: a login or a token (or a share link) for every route but `/healthz` and `/login`.
        case login
    }

    public var accessRule: AccessRule {
        if publicViewing { return .publicViewing }
        return usersFile != nil || tokensFile != nil ? .login : .loopbackOnly
    }

    /// `--public-url` split into scheme, authority and path (no trailing slash), or nil when it is not an http or
    /// https URL with a host and nothing after the path.
    public static func parsePublicURL(_ text: String) -> (scheme: String, authority: String, path: String)? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let rest = text[separator.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        var path = String(rest[slash...])
        while path.hasSuffix("/") { path.removeLast() }
        guard isHostName(authority, portAllowed: true),
            path.allSatisfy({ $0.isASCII && !$0.isWhitespace && !"?#\"'<>\\".contains($0) })
        else { return nil }
        return (scheme, authority.lowercased(), path)
    }

    /// The `--trusted-proxies` networks, split at commas (`validate` checks each).
    public var trustedProxyNetworks: [IPNetwork] {
        trustedProxies.flatMap { $0.split(separator: ",").compactMap(IPNetwork.init) }
    }

    /// The `--allowed-hosts` names, split at commas.
    public var allowedHostNames: [String] {
        allowedHosts.flatMap { $0.split(separator: ",").map(String.init) }
    }

    /// A host name, an IPv4 address or an IPv6 one in brackets, with a port when `portAllowed`.
    static func isHostName(_ text: Substring, portAllowed: Bool) -> Bool {
        var name = text
        var port: Substring = ""
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            name = text[...close]
            port = text[text.index(after: close)...]
            guard name.dropFirst().dropLast().allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") })
            else {
                return false
            }
        } else {
            if let colon = text.firstIndex(of: ":") {
                name = text[..<colon]
                port = text[colon...]
            }
            guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }) else {
                return false
            }
        }
        guard name.count > (name.hasPrefix("[") ? 2 : 0) else { return false }
        if port.isEmpty { return true }
        guard portAllowed, port.first == ":", let value = Int(port.dropFirst()), (0...65535).contains(value) else {
            return false
        }
        return true
    }

    /// 127.0.0.0/8, ::1 or localhost: an address only this machine reaches.
    public static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let octets = parts.compactMap { $0.count <= 3 && $0.allSatisfy(\.isNumber) ? UInt8($0) : nil }
        return parts.count == 4 && octets.count == 4 && octets[0] == 127
    }

    public func validate() throws {
        try validateAccess()
        if isToolRun { return }
        if accessRule == .loopbackOnly && !Self.isLoopback(host) {
            throw ValidationError(
                "--host \(host) is not a loopback address, so other machines could reach the server, and it has no "
                    + "access rule: add --public to let anyone who reaches it view the images read-only, --users FILE "
                    + "to ask for a login (or --tokens FILE for scripts), or listen on 127.0.0.1")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        if decoding.color == .keep {
            throw ValidationError(
                "--color keep does not apply to serve: IIIF and Deep Zoom answers are sRGB (a lossless JPEG crop carries the file's profile)"
            )
        }
        if let publicURL, Self.parsePublicURL(publicURL) == nil {
            throw ValidationError(
                "--public-url must be an http or https URL with a host and an optional path (no query), got \(publicURL)"
            )
        }
        for name in allowedHostNames {
            let bare = name.hasPrefix(".") ? name.dropFirst() : Substring(name)
            let bracketed = bare.contains(":") && !bare.hasPrefix("[") ? "[\(bare)]"[...] : bare
            guard Self.isHostName(bracketed, portAllowed: false) else {
                throw ValidationError(
                    "--allowed-hosts takes host names without ports, separated by commas, got '\(name)'")
            }
        }
        for text in trustedProxies.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) })
        where IPNetwork(text) == nil {
            throw ValidationError(
                "--trusted-proxies takes IPv4 or IPv6 addresses, each with an optional /prefix, separated by commas, "
                    + "got '\(text)'")
        }
        guard maxArea > 0 else { throw ValidationError("--max-area must be a positive number of pixels") }
        guard (1...1_000_000).contains(maxConnections) else {
            throw ValidationError("--max-connections must be 1 to 1000000, got \(maxConnections)")
        }
        guard (0...3600).contains(drainSeconds) else { throw ValidationError("--drain-seconds must be 0 to 3600") }
        guard (tlsCert == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both, or neither")
        }
        guard (8...1 << 20).contains(workMB) else {
            throw ValidationError("--work-mb must be 8 to 1048576, got \(workMB)")
        }
        guard (0...1 << 20).contains(cacheMB) else {
            throw ValidationError("--cache-mb must be 0 to 1048576, got \(cacheMB)")
        }
        guard maxScale.isFinite, maxScale > 0, maxScale <= 64 else {
            throw ValidationError("--max-scale must be a number above 0 and at most 64, got \(maxScale)")
        }
        guard (1...1 << 24).contains(diskCacheMB) else {
            throw ValidationError("--disk-cache-mb must be 1 to 16777216, got \(diskCacheMB)")
        }
        guard (0...64).contains(indexWorkers) else {
            throw ValidationError("--index-workers must be 0 to 64, got \(indexWorkers)")
        }
        if let cacheDir, cacheDir.isEmpty { throw ValidationError("--cache-dir needs a folder, or none") }
        guard (1...100_000).contains(maxViews) else { throw ValidationError("--max-views must be 1 to 100000") }
        guard viewIdle.isFinite, viewIdle > 0, viewIdle <= 86_400 else {
            throw ValidationError("--view-idle must be a number of seconds above 0 and at most 86400")
        }
    }
}

extension ServeOptions {
    /// The checks of the access options (docs/design.md section 18) that need no file: the files themselves are read,
    /// and their lines checked, by tileview-serve as it starts (exit 64 naming the file and line).
    func validateAccess() throws {
        if hashPassword != nil && sign != nil { throw ValidationError("--hash-password and --sign are separate runs") }
        if let name = hashPassword {
            guard !name.isEmpty, !name.contains(":"),
                name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f })
            else {
                throw ValidationError("--hash-password takes a user name without ':', spaces or control characters")
            }
            guard (10...16).contains(hashCost) else {
                throw ValidationError("--hash-cost must be 10 to 16, got \(hashCost)")
            }
        }
        if let sign {
            guard signKeyFile != nil else {
                throw ValidationError("--sign needs --sign-key FILE, the key the server checks links with")
            }
            guard sign.hasPrefix("/"), !sign.hasPrefix("//") else {
                throw ValidationError(
                    "--sign takes a path on the server starting with one /, such as /view/albums%2Fbeach.jpg")
            }
            guard (1...(10 * 365 * 86_400)).contains(expires) else {
                throw ValidationError("--expires must be 1 to 315360000 seconds, got \(expires)")
            }
        }
        if isToolRun { return }
        guard !root.isEmpty else { throw ValidationError("Missing expected argument '<root>'") }
        if publicViewing && (usersFile != nil || tokensFile != nil) {
            throw ValidationError(
                "--public lets anyone view without logging in, --users and --tokens ask for a login: give one or the "
                    + "other")
        }
        if accessRule != .login {
            if sessionKeyFile != nil {
                throw ValidationError(
                    "--session-key needs --users or --tokens (without a login rule every route is open)")
            }
        }
        guard (1...24 * 366).contains(sessionHours) else {
            throw ValidationError("--session-hours must be 1 to 8784, got \(sessionHours)")
        }
    }
}

extension ServeOptions {
    /// The disk cache's folder: `--cache-dir`, else `$XDG_CACHE_HOME/tileview`, else `$HOME/.cache/tileview`; nil
    /// for `--cache-dir none`, or when there is no home to default to.
    public func cacheFolder(environment: [String: String]) -> String? {
        if let cacheDir { return cacheDir == "none" ? nil : cacheDir }
        return Self.defaultCacheFolder(environment)
    }

    /// `$XDG_CACHE_HOME/tileview`, else `$HOME/.cache/tileview` (what `tileview index` fills by default too).
    public static func defaultCacheFolder(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/tileview" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache/tileview" }
        return nil
    }
}
