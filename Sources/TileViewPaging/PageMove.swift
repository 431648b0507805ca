/// One paging step as written in `--moves` and in scripts: `next`, `prev`, `left`, `right`, `up` or `down`.
///
/// `next` and `prev` follow page order: list order, or row-major (reading) order over the pages of a map, so on a
/// map they may jump to another row. `left`, `right`, `up` and `down` move one cell along one axis. On a list,
/// which is one horizontal row of pages, `left` and `right` are `prev` and `next`, and `up` and `down` never move.
public enum PageMove: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case next
    case prev
    case left
    case right
    case up
    case down

    /// The axis the move travels along; `next` and `prev` count as horizontal (page order is reading order).
    public var axis: PageAxis {
        switch self {
        case .up, .down: .vertical
        case .next, .prev, .left, .right: .horizontal
        }
    }

    /// +1 towards the end of the list, the right or the bottom; -1 the other way.
    public var step: Int {
        switch self {
        case .next, .right, .down: 1
        case .prev, .left, .up: -1
        }
    }

    /// The move that goes back the way this one came.
    public var reversed: PageMove {
        switch self {
        case .next: .prev
        case .prev: .next
        case .left: .right
        case .right: .left
        case .up: .down
        case .down: .up
        }
    }

    public var description: String { rawValue }
}
