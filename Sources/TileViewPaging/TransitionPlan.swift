import TileViewCore

/// The eased content offsets of an animated move between two pages (`--transition-frames N`).
///
/// Frame k of N (k = 1...N) sits at time t = k / (N + 1) and eased fraction e(t) = 3t^2 - 2t^3, the cubic
/// ease-in-out (smoothstep: zero speed at both ends, symmetric, e(t) + e(1 - t) = 1, strictly increasing on
/// [0, 1]). Its offset is from + (to - from) * f with f = m + (1 - 2m) * e(t), where m is the end margin as a
/// fraction of the distance (0 without a gap). The two end states are not frames, so every frame lies strictly
/// between the two pages' offsets; the offsets are monotone from `from` to `to`. With a gap G wider than twice
/// the peek P the first and last G/2 - P points of travel show only the gap beside the page being left or
/// reached, so frames keep that margin from both ends: every frame between neighbouring pages shows a part of
/// each. A move that did not move, or N <= 0, has no frames.
public struct TransitionPlan: Hashable, Sendable {
    /// The content offset of the page the transition leaves.
    public let from: Point
    /// The content offset of the page it arrives at.
    public let to: Point
    /// The fraction of the way from `from` to `to` of each frame, strictly increasing inside (0, 1).
    public let fractions: [Double]

    /// N frames between two content offsets, keeping `margin` points (clamped to [0, 0.45 * distance]) away
    /// from both ends.
    public init(from: Point, to: Point, frames: Int, margin: Double = 0) {
        self.from = from
        self.to = to
        let distance = ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot()
        let count = distance > 0 && distance.isFinite ? max(0, frames) : 0
        let m = count > 0 && margin.isFinite ? min(max(margin / distance, 0), 0.45) : 0
        fractions = (0..<count).map { m + (1 - 2 * m) * Self.eased(Double($0 + 1) / Double(count + 1)) }
    }

    /// N frames for a pager step in plain paging, from the old page's slot to `step.targetSlot` (so a circular
    /// wrap slides one page on, not back across the ring). No frames when the step did not move.
    public init(step: PageStep, pageSize: Size, frames: Int) {
        self.init(
            from: Self.offset(ofSlot: step.from, pageSize: pageSize),
            to: Self.offset(ofSlot: step.moved ? step.targetSlot : step.from, pageSize: pageSize), frames: frames)
    }

    /// N frames for a pager step with peeking neighbours: slots sized `peek.pageSize`, and, for a step along
    /// the peek axis, a margin of max(0, G/2 - P) at both ends so that each frame shows both pages.
    public init(step: PageStep, peek: PeekLayout, frames: Int) {
        let size = peek.pageSize
        let margin = step.axis == peek.axis ? max(0, peek.gap / 2 - peek.peek) : 0
        self.init(
            from: Self.offset(ofSlot: step.from, pageSize: size),
            to: Self.offset(ofSlot: step.moved ? step.targetSlot : step.from, pageSize: size), frames: frames,
            margin: margin)
    }

    private static func offset(ofSlot slot: PageMap.Cell, pageSize: Size) -> Point {
        Point(x: Double(slot.column) * pageSize.width, y: Double(slot.row) * pageSize.height)
    }

    /// The content offset of each frame, in order.
    public var offsets: [Point] {
        fractions.map { e in Point(x: from.x + (to.x - from.x) * e, y: from.y + (to.y - from.y) * e) }
    }

    /// The ease-in-out curve: 3t^2 - 2t^3 for t clamped to [0, 1].
    public static func eased(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        return t * t * (3 - 2 * t)
    }
}
