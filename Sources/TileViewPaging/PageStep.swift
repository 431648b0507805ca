/// What one pager step did: the move, where it started and ended, and the resident-set diff.
public struct PageStep: Hashable, Sendable, CustomStringConvertible {
    public typealias Cell = PageMap.Cell

    /// The move applied; nil for the initial step, a drag's jump (`Pager.move(to:)`) or a change of axis.
    public let move: PageMove?
    /// The position before the step.
    public let from: Cell
    /// The position after the step (equal to `from` when nothing moved).
    public let position: Cell
    /// The new position as a slot beside `from`: equal to `position`, except that a circular list wraps through
    /// slots -1 and n (`next` from page n-1 arrives in slot n, `prev` from page 0 in slot -1), so a transition
    /// between the two slots' offsets slides one page width in the direction of the move.
    public let targetSlot: Cell
    /// The axis the resident set is planned along after the step (always horizontal on lists).
    public let axis: PageAxis
    /// The resident set after the step and its diff from before.
    public let plan: ResidentPlan

    /// Whether the current page changed.
    public var moved: Bool { position != from }

    public var description: String {
        let what = move?.description ?? "-"
        let result = moved ? "moved \(from) -> \(position)" : "stays \(position)"
        return "\(what) \(result) axis \(axis) \(plan)"
    }
}
