import Testing
import TileViewTestSupport

@testable import TileViewServe

/// The indexer's queue against the plain array it replaced (a request removes the identifier and inserts it first,
/// a scan appends what is not queued, the indexer takes the first), and its storage bound.
@Suite("Index queue")
struct IndexQueueTests {
    /// The old queue: an array, each operation O(n).
    struct ArrayQueue {
        var items: [String] = []
        mutating func append(_ id: String) { if !items.contains(id) { items.append(id) } }
        mutating func moveToFront(_ id: String) {
            items.removeAll { $0 == id }
            items.insert(id, at: 0)
        }
        mutating func takeNext() -> String? { items.isEmpty ? nil : items.removeFirst() }
    }

    @Test("seeded sweep: every append, move to the front and take gives what the array queue gives")
    func matchesArrayQueue() {
        for index in 0..<200 {
            let seed = SplitMix64.caseSeed(0x1D3_0E7E, index)
            var random = SplitMix64(seed: seed)
            var queue = IndexQueue()
            var model = ArrayQueue()
            let pool = Int.random(in: 1...40, using: &random)
            for step in 0..<3000 {
                let id = "image-\(Int.random(in: 0..<pool, using: &random)).jpg"
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<4:
                    queue.append(id)
                    model.append(id)
                case 4..<7:
                    queue.moveToFront(id)
                    model.moveToFront(id)
                default:
                    let taken = queue.takeNext()
                    let expected = model.takeNext()
                    guard taken == expected else {
                        Issue.record(
                            "seed \(seed), step \(step): took \(taken ?? "nil"), the array \(expected ?? "nil")")
                        return
                    }
                }
                guard queue.count == model.items.count, queue.contains(id) == model.items.contains(id) else {
                    Issue.record("seed \(seed), step \(step): \(queue.count) waiting, the array \(model.items.count)")
                    return
                }
            }
            while let expected = model.takeNext() {
                guard queue.takeNext() == expected else {
                    Issue.record("seed \(seed): the drain differs at \(expected)")
                    return
                }
            }
            #expect(queue.takeNext() == nil && queue.isEmpty, "seed \(seed)")
        }
    }

    @Test(
        "what moves and is taken is dropped from storage: two images asked for in turn 100,000 times hold a few entries"
    )
    func storageStaysBounded() {
        var queue = IndexQueue()
        for n in 0..<5000 { queue.append("scanned-\(n).jpg") }
        for n in 0..<100_000 { queue.moveToFront(n % 2 == 0 ? "a.jpg" : "b.jpg") }
        #expect(queue.count == 5002)
        #expect(queue.storedEntries <= 5002 + 2 * 2 + 32, "stored \(queue.storedEntries)")
        for _ in 0..<4000 { _ = queue.takeNext() }
        #expect(queue.count == 1002)
        #expect(queue.storedEntries <= 2 * 1002 + 1024, "stored \(queue.storedEntries)")
        // A taken identifier scanned again waits once more, behind the rest.
        queue.append("a.jpg")
        #expect(queue.count == 1003)
        var last: String?
        while let next = queue.takeNext() { last = next }
        #expect(last == "a.jpg" && queue.storedEntries == 0)
    }
}
