/// The container offsets of `--offsets FROM:TO:STEP`: FROM, then steps of STEP towards TO, TO included when a
/// step lands on it.
///
/// FROM below TO scrolls down (`from, from + step, ...` up to TO); FROM above TO scrolls up (`from, from - step,
/// ...` down to TO); FROM equal to TO is one offset. So `0:3000:250` has 13 offsets ending at 3000, `0:1000:300`
/// has 0, 300, 600, 900, and `3000:0:1000` has 3000, 2000, 1000, 0. Offsets past the content are kept as
/// asked; the layout clamps them. A collection, so `count` costs nothing and nothing is stored per offset.
public struct OffsetRange: RandomAccessCollection, Hashable, Sendable, CustomStringConvertible {
    /// The first offset.
    public let from: Int
    /// The offset to stop at (reached only when a step lands on it).
    public let to: Int
    /// The distance between offsets, at least 1.
    public let step: Int

    /// The largest offset a range holds: 2^62.
    public static let largestOffset = 1 << 62

    /// The offsets from `from` towards `to` in steps of `step`. Clamped: `from` and `to` to
    /// `[0, largestOffset]`, `step` to at least 1.
    public init(from: Int, to: Int, step: Int) {
        self.from = Swift.min(Swift.max(from, 0), Self.largestOffset)
        self.to = Swift.min(Swift.max(to, 0), Self.largestOffset)
        self.step = Swift.max(step, 1)
    }

    /// `.down` when FROM < TO, `.up` when FROM > TO, `.stationary` for a single offset.
    public var scrollDirection: FeedScrollDirection { FeedScrollDirection(from: from, to: to) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { (from < to ? to - from : from - to) / step + 1 }

    public subscript(position: Int) -> Int {
        precondition(indices.contains(position), "offset index \(position) outside 0..<\(count)")
        return from < to ? from + position * step : from - position * step
    }

    /// The text form `FROM:TO:STEP`.
    public var description: String { "\(from):\(to):\(step)" }
}
