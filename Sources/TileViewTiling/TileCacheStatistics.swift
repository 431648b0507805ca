/// Counters of a `TileCache`: what it served, stored and dropped, and how many bytes it holds.
///
/// The cache keeps every counter except `tilesDecoded` and `bytesDecoded`, which the caller bumps
/// through `TileCache.recordDecode(bytes:)` when it decodes a tile (a miss need not lead to a decode).
/// The counters add up: `entryCount == insertions - evictions - removals`, and every lookup is
/// either a hit or a miss.
public struct TileCacheStatistics: Hashable, Sendable, CustomStringConvertible {
    /// Lookups that found their key.
    public var hits = 0
    /// Lookups that did not.
    public var misses = 0
    /// Values stored under a key the cache did not hold.
    public var insertions = 0
    /// Values stored under a key the cache held, replacing its value.
    public var replacements = 0
    /// Inserts refused: over the per-entry cap, or no room even after evicting every unpinned entry.
    public var rejections = 0
    /// Entries the cache dropped on its own to stay within its budget (least recently used first).
    public var evictions = 0
    /// Entries the owner removed (`removeValue(forKey:)`, `removeAll()`).
    public var removals = 0
    /// Entries held now.
    public var entryCount = 0
    /// Bytes held now, pinned or not.
    public var currentBytes = 0
    /// Bytes of the entries pinned now.
    public var pinnedBytes = 0
    /// The most bytes ever held at once.
    public var peakBytes = 0
    /// Tiles the caller reports having decoded.
    public var tilesDecoded = 0
    /// Bytes the caller reports having decoded.
    public var bytesDecoded = 0

    public init() {}

    /// The counters of two caches together (each counter summed; `peakBytes` is then an upper bound of the
    /// peak of both at once).
    public static func + (a: TileCacheStatistics, b: TileCacheStatistics) -> TileCacheStatistics {
        var sum = a
        for counter in counters { sum[keyPath: counter] += b[keyPath: counter] }
        return sum
    }

    /// Every counter, for sums.
    static var counters: [WritableKeyPath<TileCacheStatistics, Int>] {
        [
            \.hits, \.misses, \.insertions, \.replacements, \.rejections, \.evictions, \.removals, \.entryCount,
            \.currentBytes, \.pinnedBytes, \.peakBytes, \.tilesDecoded, \.bytesDecoded,
        ]
    }

    /// hits / (hits + misses), 0 before any lookup.
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }

    public var description: String {
        "\(entryCount) entries, \(currentBytes) bytes (peak \(peakBytes), pinned \(pinnedBytes)); "
            + "hits \(hits), misses \(misses), insertions \(insertions), replacements \(replacements), "
            + "rejections \(rejections), evictions \(evictions), removals \(removals); "
            + "decoded \(tilesDecoded) tiles, \(bytesDecoded) bytes"
    }
}
