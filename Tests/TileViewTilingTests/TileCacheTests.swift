import Testing
import TileViewCore
import TileViewTiling

@Suite("Tile cache")
struct TileCacheTests {
    private func blob(_ id: Int, _ cost: Int) -> Blob { Blob(id: id, cost: cost) }

    @Test("the least recently used entry goes first, and a lookup makes an entry recent")
    func leastRecentlyUsedGoesFirst() {
        var cache = TileCache<String, Blob>(budgetBytes: 30) { $0.cost }
        cache.insert(blob(1, 10), forKey: "a")
        cache.insert(blob(2, 10), forKey: "b")
        cache.insert(blob(3, 10), forKey: "c")
        #expect(cache.value(forKey: "a")?.id == 1)
        cache.insert(blob(4, 10), forKey: "d")
        #expect(cache.keysByRecency == ["c", "a", "d"])
        #expect(!cache.contains("b"))
        #expect(cache.statistics.evictions == 1 && cache.statistics.hits == 1)
        cache.checkInvariants()
    }

    @Test("a value above the entry cap is not stored and leaves the cache as it was")
    func entryCapRefuses() {
        var cache = TileCache<String, Blob>(budgetBytes: 100, entryCapBytes: 25) { $0.cost }
        cache.insert(blob(1, 20), forKey: "a")
        #expect(cache.insert(blob(2, 26), forKey: "a") == .rejectedOverEntryCap)
        #expect(cache.peekValue(forKey: "a")?.id == 1)
        #expect(cache.insert(blob(3, 26), forKey: "b", pinned: true) == .rejectedOverEntryCap)
        #expect(cache.count == 1 && cache.statistics.rejections == 2)
    }

    @Test("pinned entries survive pressure; the cache goes over budget only by them and says so")
    func pinnedEntriesOverBudget() {
        var cache = TileCache<Int, Blob>(budgetBytes: 100) { $0.cost }
        #expect(cache.insert(blob(1, 60), forKey: 1, pinned: true) == .stored)
        #expect(cache.insert(blob(2, 30), forKey: 2) == .stored)
        #expect(cache.insert(blob(3, 60), forKey: 3, pinned: true) == .storedOverBudget(bytes: 20))
        #expect(!cache.contains(2) && cache.isOverBudget && cache.overBudgetBytes == 20)
        #expect(cache.insert(blob(4, 1), forKey: 4) == .rejectedNoRoom)
        #expect(cache.pinnedKeys == [1, 3] && cache.pinnedBytes == 120)
        cache.unpin(1)  // 1 becomes unpinned and most recent, then goes: the budget is exceeded
        #expect(!cache.contains(1) && cache.currentBytes == 60 && !cache.isOverBudget)
        cache.checkInvariants()
    }

    @Test("pins count: an entry pinned twice stays pinned after one unpin")
    func pinsAreCounted() {
        var cache = TileCache<Int, Blob>(budgetBytes: 10) { $0.cost }
        cache.insert(blob(1, 10), forKey: 1, pinned: true)
        #expect(cache.pin(1) && cache.pinCount(forKey: 1) == 2)
        #expect(cache.unpin(1) && cache.isPinned(1))
        #expect(cache.insert(blob(2, 10), forKey: 2) == .rejectedNoRoom)
        #expect(cache.unpin(1) && !cache.isPinned(1) && !cache.unpin(1))
        let pinnedAbsentKey = cache.pin(99)
        #expect(!pinnedAbsentKey)
        #expect(cache.insert(blob(2, 10), forKey: 2) == .stored && !cache.contains(1))
    }

    @Test("unpinAll makes the pinned entries recent in pin order and evicts down to the budget")
    func unpinAllRestoresBudget() {
        var cache = TileCache<Int, Blob>(budgetBytes: 20) { $0.cost }
        for k in 0..<4 { cache.insert(blob(k, 10), forKey: k, pinned: true) }
        #expect(cache.currentBytes == 40)
        cache.unpinAll()
        #expect(cache.keysByRecency == [2, 3] && cache.pinnedKeys.isEmpty && cache.currentBytes == 20)
        #expect(cache.statistics.evictions == 2)
    }

    @Test("removeAll frees everything, pinned or not, and the counters still add up")
    func removeAllFreesEverything() {
        var cache = TileCache<Int, ImageBuffer>(budgetBytes: 1 << 20)
        cache.insert(ImageBuffer(width: 16, height: 16), forKey: 1, pinned: true)
        cache.insert(ImageBuffer(width: 8, height: 8), forKey: 2)
        #expect(cache.currentBytes == 16 * 16 * 4 + 8 * 8 * 4)
        cache.removeAll()
        #expect(cache.isEmpty && cache.currentBytes == 0 && cache.pinnedBytes == 0)
        #expect(cache.keysByRecency.isEmpty && cache.pinnedKeys.isEmpty)
        #expect(cache.statistics.peakBytes == 16 * 16 * 4 + 8 * 8 * 4)
        #expect(cache.statistics.insertions - cache.statistics.evictions - cache.statistics.removals == 0)
        cache.insert(ImageBuffer(width: 4, height: 4), forKey: 3)
        #expect(cache.count == 1)
        cache.checkInvariants()
    }

    @Test("decode counters are the caller's and the hit rate is hits over lookups")
    func decodeCountersAndHitRate() {
        var cache = TileCache<TileID, ImageBuffer>(budgetBytes: 1 << 20)
        let id = TileID(level: 1, column: 2, row: 3)
        #expect(cache.value(forKey: id) == nil)
        let tile = ImageBuffer(width: 32, height: 32)
        cache.recordDecode(bytes: tile.byteCount)
        cache.insert(tile, forKey: id)
        #expect(cache.value(forKey: id) == tile)
        #expect(cache.value(forKey: id) == tile)
        let s = cache.statistics
        #expect(s.tilesDecoded == 1 && s.bytesDecoded == 4096 && s.misses == 1 && s.hits == 2)
        #expect(s.hitRate == 2.0 / 3.0)
    }

    @Test("a replaced value keeps its pins and its new cost counts")
    func replacementKeepsPins() {
        var cache = TileCache<Int, Blob>(budgetBytes: 100) { $0.cost }
        cache.insert(blob(1, 10), forKey: 1, pinned: true)
        cache.insert(blob(2, 30), forKey: 1)
        #expect(cache.pinCount(forKey: 1) == 1 && cache.currentBytes == 30 && cache.pinnedBytes == 30)
        #expect(cache.statistics.insertions == 1 && cache.statistics.replacements == 1)
        cache.checkInvariants()
    }
}
