/// The current page of a gallery and the pages kept resident around it; a value type that steps through moves.
///
/// After every step the resident set is `layout.residentSet(around: position, axis: axis)`: the current page and
/// at most two neighbours, so never more than three pages and never a page that is not a neighbour. Each step
/// reports the diff (`load`, `evict`). A step that does not move (a list's end, a hole, off the grid) changes
/// nothing and reports empty diffs. The axis only matters on maps: it is the axis of the last move that moved,
/// except that `next`/`prev` (page order, which may change rows) plan as at a start: horizontally unless the new
/// page has no page to its left or right but one above or below (`PageLayout.initialAxis(at:)`).
public struct Pager: Hashable, Sendable {
    public typealias Cell = PageMap.Cell

    public let layout: PageLayout
    /// The current page's position.
    public private(set) var position: Cell
    /// The axis the resident set is planned along (always horizontal on lists).
    public private(set) var axis: PageAxis
    /// The pages holding decoded pixels, in page order.
    public private(set) var resident: [Cell]

    /// A pager at `start` (default: the first page in page order). Nil when the layout has no pages or `start`
    /// holds no page.
    public init?(layout: PageLayout, start: Cell? = nil) {
        guard let first = layout.firstPosition else { return nil }
        let start = start ?? first
        guard layout.holdsPage(start) else { return nil }
        self.layout = layout
        position = start
        axis = layout.initialAxis(at: start)
        resident = layout.residentSet(around: start, axis: axis)
        checkInvariants()
    }

    /// The step that shows the first page: every resident page loads, nothing is evicted.
    public var initialStep: PageStep {
        PageStep(
            move: nil, from: position, position: position, targetSlot: position, axis: axis,
            plan: ResidentPlan(from: [], to: resident))
    }

    /// Applies one move (see `PageLayout.position(after:from:)`). A `goto` is a jump (`move(to:)`) that records
    /// its move; one to a page number the layout does not have does not move.
    public mutating func apply(_ move: PageMove) -> PageStep {
        if case .goto(let number) = move {
            return jump(to: layout.position(ofPage: number - 1) ?? position, move: move)
        }
        guard let target = layout.position(after: move, from: position) else {
            return settle(move: move, at: position, slot: position, axis: axis)
        }
        let slot = layout.wraps ? position.moved(by: move.step, along: .horizontal) : target
        let newAxis: PageAxis
        if !layout.isMap {
            newAxis = .horizontal
        } else if move == .next || move == .prev {
            newAxis = layout.initialAxis(at: target)
        } else {
            newAxis = move.axis
        }
        return settle(move: move, at: target, slot: slot, axis: newAxis)
    }

    /// Jumps to any page, e.g. where a drag was released. The axis becomes the axis along which the two positions
    /// differ (unchanged when they differ on both). No move when `target` holds no page.
    public mutating func move(to target: Cell) -> PageStep {
        jump(to: target, move: nil)
    }

    private mutating func jump(to target: Cell, move: PageMove?) -> PageStep {
        guard layout.holdsPage(target), target != position else {
            return settle(move: move, at: position, slot: position, axis: axis)
        }
        var newAxis = axis
        if !layout.isMap {
            newAxis = .horizontal
        } else if target.row == position.row {
            newAxis = .horizontal
        } else if target.column == position.column {
            newAxis = .vertical
        }
        return settle(move: move, at: target, slot: nearestSlot(of: target), axis: newAxis)
    }

    /// Plans the resident set along `axis` without moving, e.g. when a drag on a map locks to the other axis.
    /// Lists always stay horizontal.
    public mutating func orient(_ newAxis: PageAxis) -> PageStep {
        settle(move: nil, at: position, slot: position, axis: layout.isMap ? newAxis : .horizontal)
    }

    /// The slot of `target` nearest the current position: on a circular list the copy of `target`'s column
    /// closest to the current column (ties go forward), elsewhere `target` itself.
    private func nearestSlot(of target: Cell) -> Cell {
        guard layout.wraps else { return target }
        let n = layout.count
        var delta = ((target.column - position.column) % n + n) % n
        if 2 * delta > n { delta -= n }
        return position.moved(by: delta, along: .horizontal)
    }

    private mutating func settle(move: PageMove?, at target: Cell, slot: Cell, axis newAxis: PageAxis) -> PageStep {
        let from = position
        let before = resident
        position = target
        axis = newAxis
        resident = layout.residentSet(around: target, axis: newAxis)
        checkInvariants()
        return PageStep(
            move: move, from: from, position: target, targetSlot: slot, axis: newAxis,
            plan: ResidentPlan(from: before, to: resident))
    }
}
