extension TileCache {
    /// Pins a held key once more: a pinned entry is never evicted. Returns false when the key is absent.
    @discardableResult
    public mutating func pin(_ key: Key) -> Bool {
        guard let i = index[key], let slot = slots[i] else { return false }
        if slot.pinCount == 0 {
            detach(i)
            slots[i]?.pinCount = 1
            attach(i)
        } else {
            slots[i]?.pinCount += 1
        }
        return true
    }

    /// Takes one pin off a key. When the last pin goes, the entry becomes the most recently used
    /// and the cache evicts down to its budget (which may evict this very entry if it is the only
    /// unpinned one left and the budget is exceeded). Returns false when the key is absent or unpinned.
    @discardableResult
    public mutating func unpin(_ key: Key) -> Bool {
        guard let i = index[key], let slot = slots[i], slot.pinCount > 0 else { return false }
        if slot.pinCount == 1 {
            detach(i)
            slots[i]?.pinCount = 0
            attach(i)
            evictWhileOverBudget()
        } else {
            slots[i]?.pinCount -= 1
        }
        return true
    }

    /// Takes every pin off every entry (the end of a render); they become the most recently used,
    /// in the order they were pinned, and the cache evicts down to its budget.
    public mutating func unpinAll() {
        while pinnedList.head >= 0 {
            let i = pinnedList.head
            detach(i)
            slots[i]?.pinCount = 0
            attach(i)
        }
        evictWhileOverBudget()
    }

    /// The number of pins on a key (0 when unpinned or absent).
    public func pinCount(forKey key: Key) -> Int {
        guard let i = index[key] else { return 0 }
        return slots[i]?.pinCount ?? 0
    }

    public func isPinned(_ key: Key) -> Bool { pinCount(forKey: key) > 0 }
}
