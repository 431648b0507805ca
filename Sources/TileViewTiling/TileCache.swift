/// A byte-budgeted least-recently-used cache of tiles (or any values) with pinning.
///
/// Model: every entry has a byte cost, measured once when it is stored. Unpinned entries form a
/// recency list; when the held bytes would pass `budgetBytes`, the least recently used unpinned
/// entry is evicted, then the next, and so on. An entry is used when it is stored, found by
/// `value(forKey:)`, or unpinned (the work that pinned it has just used it). Pinned entries (pin
/// counts above zero, for the tiles of a render in progress) are never evicted, so the cache may
/// hold more than its budget, but only by pinned bytes: after every operation either
/// `currentBytes <= budgetBytes` or no unpinned entry is left. `isOverBudget` and the result of a
/// pinned insert say when that happens. A value costing more than `entryCapBytes` is never stored.
///
/// Storage: a dictionary from key to slot, and slots that are linked into one of two doubly linked
/// lists by index (unpinned by recency, pinned by pin order), so lookup, insert, pin, unpin and each
/// eviction are O(1). Freed slots are reused. The cache is a value; share it through one lock or actor.
public struct TileCache<Key: Hashable, Value> {
    /// One stored entry and its links in the list it belongs to (`pinCount > 0`: pinned list).
    struct Slot {
        var key: Key
        var value: Value
        /// The bytes the entry counts against the budget.
        var cost: Int
        /// Pins held (`pin` adds one, `unpin` takes one away); a pinned entry is never evicted.
        var pinCount: Int
        /// The neighbours' slot indexes in the slot's list, towards the head and towards the tail; -1 at an end.
        var previous: Int
        var next: Int
    }

    /// The two ends of a doubly linked list threaded through the slots; -1 is the null link.
    struct ListEnds {
        /// Least recently used (recency list) or first pinned (pinned list).
        var head = -1
        /// Most recently used, or last pinned.
        var tail = -1
    }

    /// The byte budget; unpinned entries are evicted to stay within it.
    public private(set) var budgetBytes: Int
    /// The most a single entry may cost and still be stored.
    public let entryCapBytes: Int
    /// Counters and byte totals.
    public internal(set) var statistics = TileCacheStatistics()

    let cost: @Sendable (Value) -> Int
    var slots: [Slot?] = []
    var freeSlots: [Int] = []
    var index: [Key: Int] = [:]
    var recency = ListEnds()
    var pinnedList = ListEnds()

    /// A cache holding at most `budgetBytes` of unpinned entries, refusing single values above
    /// `entryCapBytes` (the budget when nil). `cost` gives a value's bytes; negative costs count as 0.
    public init(budgetBytes: Int, entryCapBytes: Int? = nil, cost: @escaping @Sendable (Value) -> Int) {
        self.budgetBytes = max(0, budgetBytes)
        self.entryCapBytes = max(0, entryCapBytes ?? budgetBytes)
        self.cost = cost
    }

    /// Entries held.
    public var count: Int { index.count }
    public var isEmpty: Bool { index.isEmpty }
    /// Bytes held, pinned or not.
    public var currentBytes: Int { statistics.currentBytes }
    /// Bytes held by pinned entries.
    public var pinnedBytes: Int { statistics.pinnedBytes }
    /// How far the pinned entries take the cache over its budget (0 within budget).
    public var overBudgetBytes: Int { max(0, statistics.currentBytes - budgetBytes) }
    /// True when the cache holds more than its budget (possible only through pinned entries).
    public var isOverBudget: Bool { statistics.currentBytes > budgetBytes }

    /// Whether the key is held; does not count as a lookup nor refresh recency.
    public func contains(_ key: Key) -> Bool { index[key] != nil }

    /// The value for a key without counting a lookup or refreshing its recency.
    public func peekValue(forKey key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        return slots[i]?.value
    }

    /// The value for a key: a hit refreshes the entry's recency, and hits and misses are counted.
    public mutating func value(forKey key: Key) -> Value? {
        guard let i = index[key], let slot = slots[i] else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        if slot.pinCount == 0 {
            unlink(i, fromPinned: false)
            append(i, toPinned: false)
        }
        return slot.value
    }

    /// Stores a value under a key, evicting least recently used unpinned entries to make room.
    ///
    /// A value above the per-entry cap is refused, and so is an unpinned value that cannot fit even
    /// after evicting every other unpinned entry; a refused insert leaves the cache as it was (an
    /// earlier value for the key stays). `pinned: true` stores the value pinned once more (as
    /// `pin(_:)` would), so it cannot be evicted before the caller unpins it; a pinned value is
    /// always stored when it is within the cap, even over the budget. Replacing the value of an
    /// entry keeps its pins and makes it the most recently used (or the last pinned).
    @discardableResult
    public mutating func insert(_ value: Value, forKey key: Key, pinned: Bool = false) -> TileCacheInsertion {
        let bytes = max(0, cost(value))
        guard bytes <= entryCapBytes else {
            statistics.rejections += 1
            return .rejectedOverEntryCap
        }
        let existing = index[key]
        let existingPins = existing.flatMap { slots[$0]?.pinCount } ?? 0
        let pinCount = existingPins + (pinned ? 1 : 0)
        if pinCount == 0 {
            // Room that evicting every other unpinned entry could make.
            guard statistics.pinnedBytes + bytes <= budgetBytes else {
                statistics.rejections += 1
                return .rejectedNoRoom
            }
        }
        if let i = existing {
            detach(i)
            statistics.replacements += 1
        } else {
            statistics.insertions += 1
        }
        while statistics.currentBytes + bytes > budgetBytes, recency.head >= 0 {
            evict(recency.head)
        }
        let i: Int
        if let reused = existing {
            slots[reused]?.value = value
            slots[reused]?.cost = bytes
            slots[reused]?.pinCount = pinCount
            i = reused
        } else {
            i = allocateSlot(Slot(key: key, value: value, cost: bytes, pinCount: pinCount, previous: -1, next: -1))
            index[key] = i
        }
        attach(i)
        return isOverBudget ? .storedOverBudget(bytes: overBudgetBytes) : .stored
    }

    /// Removes a key whether or not it is pinned, and returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let i = index[key], let slot = slots[i] else { return nil }
        detach(i)
        releaseSlot(i)
        statistics.removals += 1
        return slot.value
    }

    /// Drops every entry, pinned or not, and frees the storage; the counters keep counting
    /// (the dropped entries count as removals).
    public mutating func removeAll() {
        statistics.removals += index.count
        statistics.entryCount = 0
        statistics.currentBytes = 0
        statistics.pinnedBytes = 0
        slots = []
        freeSlots = []
        index = [:]
        recency = ListEnds()
        pinnedList = ListEnds()
    }

    /// Changes the budget, evicting least recently used unpinned entries until within it.
    public mutating func setBudget(bytes: Int) {
        budgetBytes = max(0, bytes)
        evictWhileOverBudget()
    }

    /// Counts one decoded tile of `bytes` bytes in the statistics (the cache cannot see decodes).
    public mutating func recordDecode(bytes: Int) {
        statistics.tilesDecoded += 1
        statistics.bytesDecoded += max(0, bytes)
    }

    /// Unpinned keys from least to most recently used: the order in which they would be evicted.
    public var keysByRecency: [Key] { keys(from: recency.head) }

    /// Pinned keys in the order they were pinned (an entry stored again moves to the end).
    public var pinnedKeys: [Key] { keys(from: pinnedList.head) }

    private func keys(from head: Int) -> [Key] {
        var result: [Key] = []
        var i = head
        while i >= 0, let slot = slots[i] {
            result.append(slot.key)
            i = slot.next
        }
        return result
    }
}

extension TileCache where Value: ByteCostReporting & Sendable {
    /// A cache that weighs values by their own `byteCost`.
    public init(budgetBytes: Int, entryCapBytes: Int? = nil) {
        self.init(budgetBytes: budgetBytes, entryCapBytes: entryCapBytes) { $0.byteCost }
    }
}

extension TileCache: Sendable where Key: Sendable, Value: Sendable {}
extension TileCache.Slot: Sendable where Key: Sendable, Value: Sendable {}
extension TileCache.ListEnds: Sendable {}
