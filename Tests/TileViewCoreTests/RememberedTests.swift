import Testing
import TileViewCore
import TileViewTestSupport

@Suite("Remembered")
struct RememberedTests {
    @Test("a seeded sweep of remember and forget matches a plain list model: the newest `capacity` keys, no others")
    func matchesModel() {
        var generator = SplitMix64(seed: 29)
        for capacity in [1, 2, 5, 16] {
            var remembered = Remembered<Int, Int>(capacity: capacity)
            var model: [(key: Int, value: Int)] = []  // the oldest first
            for step in 0..<2_000 {
                let key = Int.random(in: 0..<24, using: &generator)
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    remembered.forget(key)
                    model.removeAll { $0.key == key }
                } else {
                    remembered.remember(step, for: key)
                    if let at = model.firstIndex(where: { $0.key == key }) {
                        model[at].value = step  // a value replaced keeps its key's age
                    } else {
                        model.append((key, step))
                        if model.count > capacity { model.removeFirst() }
                    }
                }
                for probe in 0..<24 {
                    let expected = model.first { $0.key == probe }?.value
                    #expect(remembered[probe] == expected, "capacity \(capacity), step \(step), key \(probe)")
                }
            }
        }
    }
}
