/// One paging step as written in `--moves` and in scripts: `next`, `prev`, `left`, `right`, `up`, `down` or
/// `goto N`.
///
/// `next` and `prev` follow page order: list order, or row-major (reading) order over the pages of a map, so on a
/// map they may jump to another row. `left`, `right`, `up` and `down` move one cell along one axis. On a list,
/// which is one horizontal row of pages, `left` and `right` are `prev` and `next`, and `up` and `down` never move.
/// `goto N` jumps to the Nth page in page order, counting from 1 (a thumbnail strip's click): the pages between
/// are never loaded, and the resident set is planned around the page it lands on as for a drag's release.
public enum PageMove: Hashable, Sendable, CustomStringConvertible {
    case next
    case prev
    case left
    case right
    case up
    case down
    /// The page numbered `n` in page order, counting from 1.
    case goto(Int)

    /// The six moves of one step (every move but `goto`), in the order messages list them.
    public static let steps: [PageMove] = [.next, .prev, .left, .right, .up, .down]

    /// The axis the move travels along; `next` and `prev` count as horizontal (page order is reading order). A
    /// `goto` has none of its own (`Pager` plans it from where it lands); it reads as horizontal.
    public var axis: PageAxis {
        switch self {
        case .up, .down: .vertical
        case .next, .prev, .left, .right, .goto: .horizontal
        }
    }

    /// +1 towards the end of the list, the right or the bottom; -1 the other way; 0 for a `goto`.
    public var step: Int {
        switch self {
        case .next, .right, .down: 1
        case .prev, .left, .up: -1
        case .goto: 0
        }
    }

    /// The move that goes back the way this one came; nil for a `goto` (going back needs the page it left).
    public var reversed: PageMove? {
        switch self {
        case .next: .prev
        case .prev: .next
        case .left: .right
        case .right: .left
        case .up: .down
        case .down: .up
        case .goto: nil
        }
    }

    public var description: String {
        switch self {
        case .next: "next"
        case .prev: "prev"
        case .left: "left"
        case .right: "right"
        case .up: "up"
        case .down: "down"
        case .goto(let number): "goto \(number)"
        }
    }
}
