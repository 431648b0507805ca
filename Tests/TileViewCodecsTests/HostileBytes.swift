import TileViewTestSupport

/// The damage the hostile sweeps of the parsers do to good bytes.
enum HostileBytes {
    /// `bytes` for trial `trial` of a sweep: every `truncateEvery`th trial cut to a random length, the others with
    /// 1 to `maxChanges` bytes set to random values at random places after the first `keep` bytes.
    static func mutated(
        _ bytes: [UInt8], trial: Int, truncateEvery: Int, maxChanges: UInt64, keep: Int = 0,
        _ rng: inout SplitMix64
    ) -> [UInt8] {
        var bytes = bytes
        if trial % truncateEvery == 0 {
            bytes = Array(bytes[0..<Int(rng.next() % UInt64(bytes.count))])
        } else {
            for _ in 0..<(1 + Int(rng.next() % maxChanges)) {
                bytes[keep + Int(rng.next() % UInt64(bytes.count - keep))] = UInt8(truncatingIfNeeded: rng.next())
            }
        }
        return bytes
    }
}
