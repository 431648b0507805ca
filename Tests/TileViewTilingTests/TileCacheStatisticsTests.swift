import Testing
import TileViewTiling

@Suite("Tile cache statistics")
struct TileCacheStatisticsTests {
    @Test("two caches' statistics add counter by counter, every counter included")
    func sums() {
        // Every counter 1 in both: a counter left out of the sum stays 1, one added twice becomes 3.
        var a = TileCacheStatistics()
        #expect(Mirror(reflecting: a).children.count == 13, "a new counter: add it to TileCacheStatistics.counters")
        (a.hits, a.misses, a.insertions, a.replacements, a.rejections) = (1, 1, 1, 1, 1)
        (a.evictions, a.removals, a.entryCount, a.currentBytes, a.pinnedBytes) = (1, 1, 1, 1, 1)
        (a.peakBytes, a.tilesDecoded, a.bytesDecoded) = (1, 1, 1)
        for child in Mirror(reflecting: a + a).children {
            #expect(child.value as? Int == 2, "\(child.label ?? "?")")
        }
    }
}
