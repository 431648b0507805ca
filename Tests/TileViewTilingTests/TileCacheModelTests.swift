import Testing
import TileViewCore
import TileViewTestSupport
import TileViewTiling

@Suite("Tile cache against a reference model")
struct TileCacheModelTests {
    @Test("LRU order, pins, results and counters match the reference model over random operation sequences")
    func cacheMatchesReferenceModel() {
        forEachSeed(1...200) { seed, rng in
            let budget = rng.int(0...400)
            let cap = rng.chance(0.5) ? budget : rng.int(0...600)
            var cache = TileCache<Int, Blob>(budgetBytes: budget, entryCapBytes: cap) { $0.cost }
            var model = ReferenceCache(budget: budget, cap: cap)
            let keys = rng.int(1...24)
            var log: [String] = []
            for step in 0..<300 {
                let key = rng.int(0...keys)
                let roll = rng.int(0...99)
                let op: String
                switch roll {
                case 0..<35:
                    let blob = Blob(id: step, cost: rng.int(0...(rng.chance(0.1) ? 700 : 90)))
                    let pinned = rng.chance(0.2)
                    op = "insert \(key) cost \(blob.cost)\(pinned ? " pinned" : "")"
                    let stored = cache.insert(blob, forKey: key, pinned: pinned).isStored
                    #expect(stored == model.insert(blob, key: key, pinned: pinned), "seed \(seed) step \(step): \(op)")
                case 35..<65:
                    op = "get \(key)"
                    #expect(cache.value(forKey: key) == model.get(key), "seed \(seed) step \(step): \(op)")
                case 65..<75:
                    op = "pin \(key)"
                    #expect(cache.pin(key) == model.pin(key), "seed \(seed) step \(step): \(op)")
                case 75..<87:
                    op = "unpin \(key)"
                    #expect(cache.unpin(key) == model.unpin(key), "seed \(seed) step \(step): \(op)")
                case 87..<92:
                    op = "remove \(key)"
                    #expect(cache.removeValue(forKey: key) == model.remove(key), "seed \(seed) step \(step): \(op)")
                case 92..<95:
                    op = "unpinAll"
                    cache.unpinAll()
                    model.unpinAll()
                case 95..<98:
                    let bytes = rng.int(0...400)
                    op = "setBudget \(bytes)"
                    cache.setBudget(bytes: bytes)
                    model.setBudget(bytes)
                default:
                    op = rng.chance(0.3) ? "removeAll" : "peek \(key)"
                    if op == "removeAll" {
                        cache.removeAll()
                        model.removeAll()
                    } else {
                        #expect(cache.peekValue(forKey: key) == model.entries[key]?.blob)
                    }
                }
                log.append(op)
                let context = "seed \(seed) step \(step) after \(log.suffix(4))"
                #expect(cache.keysByRecency == model.recency, "\(context)")
                #expect(cache.pinnedKeys == model.pinOrder, "\(context)")
                #expect(cache.currentBytes == model.currentBytes, "\(context)")
                #expect(cache.pinnedBytes == model.pinnedBytes, "\(context)")
                let s = cache.statistics
                let counters = [
                    s.hits, s.misses, s.insertions, s.replacements, s.rejections, s.evictions, s.removals, s.peakBytes,
                ]
                let modelCounters = [
                    model.hits, model.misses, model.insertions, model.replacements, model.rejections, model.evictions,
                    model.removals, model.peak,
                ]
                #expect(counters == modelCounters, "\(context): \(s)")
                #expect(cache.invariantViolations() == [], "\(context)")
                if !cache.invariantViolations().isEmpty || cache.keysByRecency != model.recency { break }
            }
        }
    }

    @Test("the cache never holds more than its budget except by pinned bytes, and pinned entries are never evicted")
    func budgetHoldsExceptPinnedAndPinsSurvive() {
        forEachSeed(1...200) { seed, rng in
            let budget = rng.int(50...500)
            var cache = TileCache<Int, Blob>(budgetBytes: budget, entryCapBytes: rng.int(20...600)) { $0.cost }
            var pinned: [Int: Int] = [:]  // key -> pins, kept independently of the cache
            var lookups = 0
            var peakSeen = 0
            for step in 0..<400 {
                let key = rng.int(0...40)
                switch rng.int(0...9) {
                case 0...4:
                    let pin = rng.chance(0.15)
                    if cache.insert(Blob(id: step, cost: rng.int(1...120)), forKey: key, pinned: pin).isStored && pin {
                        pinned[key, default: 0] += 1
                    }
                case 5...6:
                    lookups += 1
                    _ = cache.value(forKey: key)
                case 7:
                    if cache.pin(key) { pinned[key, default: 0] += 1 }
                default:
                    if cache.unpin(key) {
                        pinned[key]! -= 1
                        if pinned[key] == 0 { pinned[key] = nil }
                    }
                }
                let here = "seed \(seed) step \(step)"
                #expect(
                    cache.currentBytes <= budget || cache.keysByRecency.isEmpty, "\(here): over budget with unpinned")
                #expect(cache.currentBytes - cache.pinnedBytes <= budget, "\(here)")
                #expect(cache.isOverBudget == (cache.currentBytes > budget))
                for (key, pins) in pinned {
                    #expect(cache.contains(key) && cache.pinCount(forKey: key) == pins, "\(here): pinned \(key) lost")
                }
                peakSeen = max(peakSeen, cache.currentBytes)
            }
            let s = cache.statistics
            #expect(s.hits + s.misses == lookups, "seed \(seed)")
            #expect(s.insertions - s.evictions - s.removals == cache.count, "seed \(seed): \(s)")
            #expect(s.entryCount == cache.count && s.currentBytes == cache.currentBytes)
            #expect(s.peakBytes == peakSeen, "seed \(seed): peak \(s.peakBytes) but saw \(peakSeen)")
        }
    }
}
