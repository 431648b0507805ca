import Testing

/// Runs `cases` seeded cases of a law; a case returns nil when the law holds or a description of what broke.
///
/// Case `i` draws from `SplitMix64(seed: seed &+ i)`, so a failure is replayed from the seed and case printed.
/// The first five failures are shown; the test fails once however many cases broke.
public func sweep(
    _ law: String, seed: UInt64, cases: Int = 3000,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (inout SplitMix64) -> String?
) {
    var failures: [String] = []
    var failureCount = 0
    for i in 0..<cases {
        var rng = SplitMix64(seed: seed &+ UInt64(i))
        if let failure = body(&rng) {
            failureCount += 1
            if failures.count < 5 { failures.append("case \(i): \(failure)") }
        }
    }
    #expect(
        failureCount == 0,
        Comment(
            rawValue:
                "\(law): \(failureCount) of \(cases) cases failed "
                + "(seed 0x\(String(seed, radix: 16)), case i draws from seed &+ i)\n"
                + failures.joined(separator: "\n")),
        sourceLocation: sourceLocation)
}
