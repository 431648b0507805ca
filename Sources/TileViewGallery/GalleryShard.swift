import TileViewCore

/// One of N shards of a gallery run (`--shard K/N`): the frames whose index i has i mod N = K, K counted from 0.
///
/// Every shard plans the whole walk (planning is cheap and reads only headers) and renders only its frames, so
/// the frames and JSON step records of shards 0/N to (N-1)/N together are exactly those of the unsharded run.
/// K counts from 0 like frame numbers and `--start`: `0/2` renders frames 0, 2, 4, ..., `1/2` frames 1, 3, 5, ...
public struct GalleryShard: Hashable, Sendable, CustomStringConvertible {
    /// K, in 0..<count.
    public let index: Int
    /// N, at least 1.
    public let count: Int

    /// The whole run: shard 0 of 1.
    public static let whole = GalleryShard(uncheckedIndex: 0, count: 1)

    /// Shard `index` of `count`; nil unless 0 <= index < count.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.init(uncheckedIndex: index, count: count)
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Reads `K/N` (white space around the numbers is not allowed; K from 0).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let k = Int(parts[0]), let n = Int(parts[1])
        else { return nil }
        self.init(index: k, count: n)
    }

    /// Whether this shard renders frame `index`.
    public func contains(frame index: Int) -> Bool { index % count == self.index }

    public var description: String { "\(index)/\(count)" }
}
