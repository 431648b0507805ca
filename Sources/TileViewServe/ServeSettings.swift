import FoundationEssentials
import TileView
import TileViewIIIF

/// What `tileview serve` is configured with (docs/design.md section 10).
public struct ServeSettings: Sendable {
    public var root: ServeRoot
    public var host: String
    public var port: Int
    /// `--max-area`: the largest response in pixels (width * height), refused before any decoding.
    public var maxArea: Int
    /// Decodes and encodes running at once (each holds one band of rows and one response).
    public var maxConcurrentRenders: Int
    /// `--cache-mb`: the bytes of the caches together: three quarters for decoded tiles (shared by every image),
    /// one quarter for encoded answers.
    public var cacheBytes: Int
    /// `--work-mb`: the bytes renders hold at once (plans, docs/design.md section 18), beside the caches.
    public var workBytes: Int
    /// `--max-connections`: connections open at once (see `ConnectionRegistry`).
    public var maxConnections = 1024
    /// `--drain-seconds`: how long SIGTERM waits for answers in flight to be written whole.
    public var drainSeconds: Int64 = 30
    /// `--tls-cert` and `--tls-key`: HTTPS instead of HTTP.
    public var tls: TLSFiles?
    public var options: DecodeOptions
    /// Views (docs/design.md section 11) open at most, and the seconds an idle view lives.
    public var maxViews: Int
    public var viewIdleSeconds: Double
    /// The bytes of views kept live at most (`ViewStore.maxBytes`); nil: what `maxViews` image views hold
    /// (`ViewStore.defaultMaxBytes`).
    public var viewMaxBytes: Int? = nil
    /// The time views' idleness is measured by, in seconds since 1970: the wall clock (a view token's expiry is read
    /// alike by every replica), or a test's own, to expire views without waiting.
    public var viewClock: @Sendable () -> Double = { Date.now.timeIntervalSince1970 }
    /// The key view tokens are signed with (docs/design.md section 18): `--sign-key`, else the key kept in the cache
    /// folder (`ViewKey`), else 32 random bytes made at start (tokens then die with the process).
    public var viewKey: [UInt8] = ViewKey.random()
    /// `--public-url` and `--allowed-hosts` (docs/design.md section 18): the `Host` names accepted and the base of ids.
    public var site = SiteRules()
    /// `--users`, `--tokens`, `--session-key` and `--sign-key` (docs/design.md section 18): nil lets every request in.
    public var access: AccessRules?

    /// `--max-scale`: the largest zoom of the viewer's pages, in screen pixels per image pixel. 4 by default, as
    /// photo viewers zoom past the pixels (PhotoSwipe's default maximum is 4x); the view API's own default, for a
    /// request that names none, stays 1 (UIScrollView's and `tileview zoom`'s).
    public var viewerMaxScale = 4.0
    /// `--cache-dir` and `--disk-cache-mb` (docs/design.md section 16): coarse levels kept on disk across restarts;
    /// nil keeps none.
    public var levelStore: CoarseLevelStore?
    /// `--index-workers`: threads writing coarse levels to `levelStore` in the background (0: none; requests still
    /// read what is there).
    public var indexWorkers = 1

    /// Seconds a connection may stay idle before it is closed (slow and half-sent requests are reaped by it).
    public var idleTimeoutSeconds: Int64 = 30
    /// The largest request body accepted (the view API's JSON; a bigger body is refused with 413).
    public static let maxRequestBodyBytes = 64 << 10
    /// The largest header line and the largest header block accepted.
    public static let maxHeaderFieldBytes = 8 << 10
    public static let maxHeaderBytes = 32 << 10

    public init(
        root: ServeRoot, host: String = "127.0.0.1", port: Int = 8080, maxArea: Int = 4096 * 4096,
        maxConcurrentRenders: Int = SystemInfo.availableProcessors, cacheBytes: Int = 256 << 20,
        workBytes: Int = 128 << 20,
        options: DecodeOptions = DecodeOptions(), maxViews: Int = 64, viewIdleSeconds: Double = 900
    ) {
        self.maxViews = maxViews
        self.viewIdleSeconds = viewIdleSeconds
        self.root = root
        self.host = host
        self.port = port
        self.maxArea = maxArea
        self.maxConcurrentRenders = maxConcurrentRenders
        self.cacheBytes = cacheBytes
        self.workBytes = workBytes
        self.options = options
    }

    /// The tile cache's share of `cacheBytes`.
    public var tileCacheBytes: Int { cacheBytes - responseCacheBytes }
    /// The encoded answers' share of `cacheBytes`.
    public var responseCacheBytes: Int { cacheBytes / 4 }

    /// The largest answer in pixels that the work budget can render, `maxArea` when that is smaller: what info.json
    /// advertises, so that `max` and `^max` are always answers the server can give. A turned or gray PNG plans about
    /// 16 bytes a pixel (the frame, its turned copy, the encoder's rows and output), and 16 MiB more covers the
    /// filter, the source and the decoder; the large lane holds three quarters of `--work-mb`.
    public var effectiveMaxArea: Int {
        let lane = workBytes - workBytes / 4 - (16 << 20)
        return min(maxArea, max(256 * 256, lane / 16))
    }

    public var limits: IIIFLimits { IIIFLimits(maxArea: effectiveMaxArea) }
}
