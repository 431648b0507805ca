import Foundation

/// The seeded generator of every sweep: SplitMix64 (Steele, Lea and Flood), small, fast and the same on
/// every machine, so a failing case is reproduced from the seed its test prints.
public struct SplitMix64: RandomNumberGenerator {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for case `index` of a sweep whose base seed is `base`.
    public static func caseSeed(_ base: UInt64, _ index: Int) -> UInt64 {
        base &+ UInt64(index) &* 0x1000_0001
    }

    /// Uniform in [0, 1) with 53 random bits (the same value `Double.random(in: 0..<1, using:)` gives).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Log-uniform in [low, high): every factor of two equally likely.
    public mutating func logUniform(_ low: Double, _ high: Double) -> Double {
        exp2(log2(low) + (log2(high) - log2(low)) * unit())
    }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    public mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// In 0..<n (0 when n <= 1).
    public mutating func int(below n: Int) -> Int { n <= 1 ? 0 : Int(next() % UInt64(n)) }
}

/// Runs `body` once for each seed in `seeds` with a fresh generator seeded with it, for tests that check each
/// case with their own expectations (a failure names its seed); `return` ends one case.
public func forEachSeed(_ seeds: ClosedRange<UInt64>, _ body: (UInt64, inout SplitMix64) throws -> Void) rethrows {
    for seed in seeds {
        var rng = SplitMix64(seed: seed)
        try body(seed, &rng)
    }
}

/// Runs `body` for cases 0..<`cases` of a sweep whose base seed is `base`: case `i` gets a generator seeded with
/// `SplitMix64.caseSeed(base, i)`, which it is also handed so that a failure can name it; `return` ends one case.
public func forEachCase(
    seed base: UInt64, cases: Int, _ body: (UInt64, inout SplitMix64) throws -> Void
) rethrows {
    for index in 0..<cases {
        let seed = SplitMix64.caseSeed(base, index)
        var rng = SplitMix64(seed: seed)
        try body(seed, &rng)
    }
}
