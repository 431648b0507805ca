/// What `TileCache.insert(_:forKey:pinned:)` did with a value.
public enum TileCacheInsertion: Hashable, Sendable {
    /// Stored, and the cache is within its budget.
    case stored
    /// Stored pinned, and the pinned entries alone take the cache over its budget by this many bytes.
    case storedOverBudget(bytes: Int)
    /// Not stored: the value costs more than the per-entry cap. The cache is unchanged.
    case rejectedOverEntryCap
    /// Not stored: an unpinned value that would not fit even with every unpinned entry evicted,
    /// because pinned entries hold the room. The cache is unchanged.
    case rejectedNoRoom

    /// True when the value is now in the cache.
    public var isStored: Bool {
        switch self {
        case .stored, .storedOverBudget: true
        case .rejectedOverEntryCap, .rejectedNoRoom: false
        }
    }
}
