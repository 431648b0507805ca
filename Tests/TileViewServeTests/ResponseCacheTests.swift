import Testing
@testable import TileViewServe

@Suite("Response cache")
struct ResponseCacheTests {
    @Test("the response cache split over parts keeps its whole budget and each answer findable")
    func responseCacheParts() {
        let cache = ResponseCache(budgetBytes: 1 << 20, parts: 4)
        for n in 0..<64 {
            cache.insert(
                EncodedImage(bytes: [UInt8](repeating: 1, count: 1024), mediaType: "image/jpeg"), forKey: "k\(n)")
        }
        #expect((0..<64).allSatisfy { cache.value(forKey: "k\($0)") != nil })
        #expect(cache.statistics.currentBytes == 64 * 1024 && cache.statistics.hits == 64)
        // An answer larger than an eighth of the budget is not kept.
        cache.insert(
            EncodedImage(bytes: [UInt8](repeating: 1, count: 200 << 10), mediaType: "image/png"), forKey: "big")
        #expect(cache.value(forKey: "big") == nil)
    }
}
