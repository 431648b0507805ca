/// Which way the feed is scrolling, which decides where cells are decoded ahead of the viewport.
public enum FeedScrollDirection: Hashable, Sendable, CustomStringConvertible {
    /// The container offset grows: later sections come into view from the bottom.
    case down
    /// The container offset shrinks: earlier sections come into view from the top.
    case up
    /// No motion: nothing is decoded ahead.
    case stationary

    /// The direction of a move from container offset `from` to `to`.
    public init(from: Int, to: Int) {
        self = to > from ? .down : (to < from ? .up : .stationary)
    }

    public var description: String {
        switch self {
        case .down: "down"
        case .up: "up"
        case .stationary: "stationary"
        }
    }
}
