import Testing
import TileView
import TileViewTestSupport

/// Expects `NaturalOrder.areInIncreasingOrder` to be a strict total order on 60 names of 1 to 6 characters drawn
/// from `alphabet` (seeded by `seed`, which is printed): irreflexive, exactly one of two different names first,
/// and transitive.
func expectNaturalOrderIsStrictTotal(
    seed: UInt64, alphabet: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    print("natural order sweep seed \(seed)")
    var rng = SplitMix64(seed: seed)
    let alphabet = Array(alphabet)
    let names = (0..<60).map { _ in
        String((0..<(1 + rng.int(below: 6))).map { _ in alphabet[rng.int(below: alphabet.count)] })
    }
    let less = NaturalOrder.areInIncreasingOrder
    for a in names {
        #expect(!less(a, a), "\(a)", sourceLocation: sourceLocation)
        for b in names where a != b {
            #expect(less(a, b) != less(b, a), "exactly one of \(a), \(b) comes first", sourceLocation: sourceLocation)
            for c in names where less(a, b) && less(b, c) {
                #expect(less(a, c), "\(a) < \(b) < \(c)", sourceLocation: sourceLocation)
            }
        }
    }
}
