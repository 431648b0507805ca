import TileView

/// What `/metrics` reports, in Prometheus' text format (written here: a handful of counters do not need a
/// metrics library): requests by route and status, a latency histogram by route, the bytes of images
/// decoded for answers, and the process's resident memory.
public final class ServerMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds.
    public static let buckets: [Double] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct State {
        var requests: [String: [Int: Int]] = [:]
        var bucketCounts: [String: [Int]] = [:]
        var durationSums: [String: Double] = [:]
        var decodedBytes = 0

        /// Two parts' counts together.
        func adding(_ other: State) -> State {
            var sum = self
            sum.requests.merge(other.requests) { $0.merging($1, uniquingKeysWith: +) }
            sum.bucketCounts.merge(other.bucketCounts) { zip($0, $1).map(+) }
            sum.durationSums.merge(other.durationSums, uniquingKeysWith: +)
            sum.decodedBytes += other.decodedBytes
            return sum
        }
    }
    /// Counted per thread, summed when read: every request counts, and no two threads wait for the same lock to do
    /// it. Four parts per processor (up to 64): the threads that count are Swift's cooperative pool, NIO's event
    /// loops and NIO's thread pool, each about one per processor (with a part per processor, two threads shared
    /// each part: 400 to 650 waits in 120,000 requests on 2 processors).
    private let state = Striped(count: Striped<State>.partCount(min(64, 4 * SystemInfo.availableProcessors))) { _ in
        State()
    }

    /// How often its locks were taken, and how often a thread waited for one (`/metrics`).
    public var lockContention: (acquisitions: Int, waits: Int) { state.contention }

    public init() {}

    /// The route a request path belongs to, as the label of its series.
    public static func route(ofPath path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch (parts.first, parts.count) {
        case ("healthz", 1): return "healthz"
        case ("metrics", 1): return "metrics"
        case ("iiif", 3): return "iiif-redirect"
        case ("iiif", 4) where parts.last == "info.json": return "iiif-info"
        case ("iiif", 7): return "iiif-image"
        case ("dzi", 2): return "dzi-descriptor"
        case ("dzi", 4): return "dzi-tile"
        case ("api", 2) where parts.last == "views": return "api-views"
        case ("api", 2) where parts.last == "openapi.json": return "api-openapi"
        case ("api", 3): return "api-view"
        case ("api", 4) where ["gestures", "moves", "frame.png"].contains(parts.last!):
            return "api-view-" + parts.last!
        case ("", 1), ("browse", _): return "page-list"
        case ("view", _): return "page-view"
        case ("gallery", _): return "page-gallery"
        case ("viewer", _): return "page-asset"
        default: return "other"
        }
    }

    /// Counts one answered request.
    public func record(path: String, status: Int, seconds: Double) {
        let route = Self.route(ofPath: path)
        state.partOfThisThread.withLock { s in
            s.requests[route, default: [:]][status, default: 0] += 1
            var counts = s.bucketCounts[route] ?? Array(repeating: 0, count: Self.buckets.count)
            for (i, bound) in Self.buckets.enumerated() where seconds <= bound { counts[i] += 1 }
            s.bucketCounts[route] = counts
            s.durationSums[route, default: 0] += seconds
        }
    }

    /// Counts level pixels decoded for an answer.
    public func recordDecoded(bytes: Int) {
        state.partOfThisThread.withLock { $0.decodedBytes += bytes }
    }

    /// The text exposition (format 0.0.4).
    public func text() -> String {
        let s = state.values { $0 }.reduce(State()) { $0.adding($1) }
        var out = "# HELP tileview_requests_total Requests answered, by route and status.\n"
        out += "# TYPE tileview_requests_total counter\n"
        for route in s.requests.keys.sorted() {
            for (status, count) in s.requests[route]!.sorted(by: { $0.key < $1.key }) {
                out += "tileview_requests_total{route=\"\(route)\",status=\"\(status)\"} \(count)\n"
            }
        }
        out += "# HELP tileview_request_duration_seconds Time to answer a request, by route.\n"
        out += "# TYPE tileview_request_duration_seconds histogram\n"
        for route in s.bucketCounts.keys.sorted() {
            let counts = s.bucketCounts[route]!
            let total = s.requests[route]!.values.reduce(0, +)
            for (i, bound) in Self.buckets.enumerated() {
                out += "tileview_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(counts[i])\n"
            }
            out += "tileview_request_duration_seconds_bucket{route=\"\(route)\",le=\"+Inf\"} \(total)\n"
            out += "tileview_request_duration_seconds_sum{route=\"\(route)\"} \(s.durationSums[route]!)\n"
            out += "tileview_request_duration_seconds_count{route=\"\(route)\"} \(total)\n"
        }
        out += Self.text([
            .counter(
                "tileview_decoded_bytes_total", "Bytes of level pixels decoded to answer requests.", s.decodedBytes),
            .gauge(
                "process_resident_memory_bytes", "Resident memory of the process (VmRSS).",
                ProcessMemory.residentBytes ?? 0),
        ])
        return out
    }

    /// The series of one byte-budgeted cache: budget and bytes held (gauges), hits, misses and evictions
    /// (counters).
    public static func cacheSamples(name: String, what: String, budget: Int, statistics: TileCacheStatistics)
        -> [Sample]
    {
        [
            .gauge("\(name)_budget_bytes", "Byte budget of the cache of \(what).", budget),
            .gauge("\(name)_bytes", "Bytes held by the cache of \(what).", statistics.currentBytes),
            .gauge("\(name)_entries", "Entries held by the cache of \(what).", statistics.entryCount),
            .counter("\(name)_hits_total", "Lookups the cache of \(what) answered.", statistics.hits),
            .counter("\(name)_misses_total", "Lookups the cache of \(what) missed.", statistics.misses),
            .counter("\(name)_evictions_total", "Entries evicted from the cache of \(what).", statistics.evictions),
        ]
    }

    /// One series without labels, as the Prometheus text format writes it: help and type lines, then the value.
    public struct Sample: Sendable {
        /// Prometheus's metric type: a counter only grows (until a restart); a gauge goes up and down.
        public enum Kind: String, Sendable {
            case counter
            case gauge
        }

        public let kind: Kind
        public let name: String
        /// The `# HELP` line's text.
        public let help: String
        public let value: Int

        public static func counter(_ name: String, _ help: String, _ value: Int) -> Sample {
            Sample(kind: .counter, name: name, help: help, value: value)
        }

        public static func gauge(_ name: String, _ help: String, _ value: Int) -> Sample {
            Sample(kind: .gauge, name: name, help: help, value: value)
        }

        public var text: String { "# HELP \(name) \(help)\n# TYPE \(name) \(kind.rawValue)\n\(name) \(value)\n" }
    }

    /// The samples' text, in their order.
    public static func text(_ samples: [Sample]) -> String { samples.map(\.text).joined() }
}
