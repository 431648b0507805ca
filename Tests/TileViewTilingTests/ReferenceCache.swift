/// A value with a stated byte cost, for cache tests.
struct Blob: Hashable, Sendable {
    var id: Int
    var cost: Int
}

/// The cache's documented policy written the plain way (arrays, linear scans), to check the real
/// cache against, operation by operation.
struct ReferenceCache {
    var budget: Int
    let cap: Int
    var entries: [Int: (blob: Blob, pins: Int)] = [:]
    /// Unpinned keys, least recently used first.
    var recency: [Int] = []
    /// Pinned keys in pin order.
    var pinOrder: [Int] = []
    var hits = 0
    var misses = 0
    var insertions = 0
    var replacements = 0
    var rejections = 0
    var evictions = 0
    var removals = 0
    var peak = 0

    var currentBytes: Int { entries.values.reduce(0) { $0 + $1.blob.cost } }
    var pinnedBytes: Int { entries.values.reduce(0) { $0 + ($1.pins > 0 ? $1.blob.cost : 0) } }

    private mutating func forget(_ key: Int) {
        recency.removeAll { $0 == key }
        pinOrder.removeAll { $0 == key }
    }

    private mutating func evictWhileOver(_ extra: Int = 0) {
        while currentBytes + extra > budget, !recency.isEmpty {
            entries[recency.removeFirst()] = nil
            evictions += 1
        }
    }

    mutating func get(_ key: Int) -> Blob? {
        guard let e = entries[key] else {
            misses += 1
            return nil
        }
        hits += 1
        if e.pins == 0 {
            forget(key)
            recency.append(key)
        }
        return e.blob
    }

    mutating func insert(_ blob: Blob, key: Int, pinned: Bool) -> Bool {
        if blob.cost > cap {
            rejections += 1
            return false
        }
        let old = entries[key]
        let pins = (old?.pins ?? 0) + (pinned ? 1 : 0)
        if pins == 0 && pinnedBytes + blob.cost > budget {
            rejections += 1
            return false
        }
        if old != nil { replacements += 1 } else { insertions += 1 }
        forget(key)
        entries[key] = nil
        evictWhileOver(blob.cost)
        entries[key] = (blob, pins)
        if pins > 0 { pinOrder.append(key) } else { recency.append(key) }
        peak = max(peak, currentBytes)
        return true
    }

    mutating func remove(_ key: Int) -> Blob? {
        guard let e = entries[key] else { return nil }
        forget(key)
        entries[key] = nil
        removals += 1
        return e.blob
    }

    mutating func pin(_ key: Int) -> Bool {
        guard let e = entries[key] else { return false }
        if e.pins == 0 {
            forget(key)
            pinOrder.append(key)
        }
        entries[key]?.pins += 1
        return true
    }

    mutating func unpin(_ key: Int) -> Bool {
        guard let e = entries[key], e.pins > 0 else { return false }
        entries[key]?.pins -= 1
        if e.pins == 1 {
            forget(key)
            recency.append(key)
            evictWhileOver()
        }
        return true
    }

    mutating func unpinAll() {
        for key in pinOrder { entries[key]?.pins = 0 }
        recency += pinOrder
        pinOrder = []
        evictWhileOver()
    }

    mutating func setBudget(_ bytes: Int) {
        budget = bytes
        evictWhileOver()
    }

    mutating func removeAll() {
        removals += entries.count
        entries = [:]
        recency = []
        pinOrder = []
    }
}
