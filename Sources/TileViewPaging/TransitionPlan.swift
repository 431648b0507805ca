import TileViewCore

/// The eased content offsets of an animated move between two pages (`--transition-frames N`).
///
/// Frame k of N (k = 1...N) sits at time t = k / (N + 1) and eased fraction e(t) = 3t^2 - 2t^3, the cubic
/// ease-in-out (smoothstep: zero speed at both ends, symmetric, e(t) + e(1 - t) = 1, strictly increasing on
/// [0, 1]). Its offset is from + (to - from) * e(t). The two end states are not frames, so every frame lies
/// strictly between the two pages' offsets and, for neighbouring pages, shows a part of each; the offsets are
/// monotone from `from` to `to`. A move that did not move, or N <= 0, has no frames.
public struct TransitionPlan: Hashable, Sendable {
    /// The content offset of the page the transition leaves.
    public let from: Point
    /// The content offset of the page it arrives at.
    public let to: Point
    /// The eased fraction of each frame, strictly increasing inside (0, 1).
    public let fractions: [Double]

    /// N frames between two content offsets.
    public init(from: Point, to: Point, frames: Int) {
        self.from = from
        self.to = to
        let count = from == to ? 0 : max(0, frames)
        fractions = (0..<count).map { Self.eased(Double($0 + 1) / Double(count + 1)) }
    }

    /// N frames for a pager step, from the old page's slot to `step.targetSlot` (so a circular wrap slides one
    /// page on, not back across the ring). No frames when the step did not move.
    public init(step: PageStep, pageSize: Size, frames: Int) {
        func offset(_ slot: PageMap.Cell) -> Point {
            Point(x: Double(slot.column) * pageSize.width, y: Double(slot.row) * pageSize.height)
        }
        self.init(from: offset(step.from), to: offset(step.moved ? step.targetSlot : step.from), frames: frames)
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
