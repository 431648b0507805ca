import TileViewCore

/// The motion after a pan ends with the finger still moving (docs/design.md section 12): UIScrollView's deceleration,
/// edges and rubber-banding, in discrete steps of one millisecond.
///
/// The model: the velocity v (viewport points per millisecond, in the finger's direction, so the content moves
/// with it: the content offset decreases by v) is applied once per millisecond and then decays, v *= 0.998
/// (UIKit's normal deceleration rate), until the speed |v| = sqrt(vx^2 + vy^2) is under 0.01 points per
/// millisecond. From a velocity v0 that takes N steps, the smallest N with |v0| * 0.998^N < 0.01, and the content
/// travels v0 * (1 - 0.998^N) / (1 - 0.998) (at most 500 v0) where no edge is in the way.
///
/// The steps move an unconstrained offset u, which is never clamped. The state shown is u clamped to the content's
/// edges, so without bounce an axis that reaches its edge stops there while the other goes on. The motion's clock
/// is the decaying velocity, which the edges do not change: with or without bounce the motion lasts the same N
/// steps and comes to rest at the same state, u after N steps clamped. With bounce the content is also drawn past
/// the edge by the rubber-banded overshoot (`rubberBand(_:extent:)`), and when the steps end any overshoot springs
/// back to the edge over 0.3 s, eased with smoothstep.
///
/// Following UIKit (where `alwaysBounceHorizontal` and `alwaysBounceVertical` are off by default), an axis on which
/// the content is centred (no larger than the viewport) does not scroll and does not bounce: the velocity on it is
/// taken as 0, and the speed that ends the motion is that of the remaining axis.
public enum ZoomDeceleration {
    /// The factor the velocity keeps per millisecond: UIKit's `UIScrollView.DecelerationRate.normal`.
    public static let rate = 0.998

    /// The speed, in viewport points per millisecond, under which the motion stops.
    public static let stoppingSpeed = 0.01

    /// The constant c of the rubber band d' = (1 - 1/(d*c/D + 1)) * D.
    public static let rubberBandCoefficient = 0.55

    /// How long an overshoot takes to spring back to the edge, in milliseconds.
    public static let springBackDuration = 300.0

    /// The largest velocity component accepted, in viewport points per millisecond (2^32, the largest dimension);
    /// faster components are clamped to it.
    public static let largestSpeed = ZoomState.largestDimension

    /// The velocity made usable: a NaN component becomes 0 (no motion on that axis), the others are clamped to
    /// `[-largestSpeed, largestSpeed]` (so an infinite one flings as fast as the model goes).
    public static func guardedVelocity(_ velocity: Point) -> Point {
        func guarded(_ value: Double) -> Double {
            value.isNaN ? 0 : min(max(value, -largestSpeed), largestSpeed)
        }
        return Point(x: guarded(velocity.x), y: guarded(velocity.y))
    }

    /// Whether the speed |v| = sqrt(vx^2 + vy^2) is at least `stoppingSpeed`, decided on squares (vx^2 + vy^2 >=
    /// 0.01^2) so that no square root (a libm call in debug builds) is needed.
    public static func isMoving(_ velocity: Point) -> Bool {
        velocity.x * velocity.x + velocity.y * velocity.y >= stoppingSpeed * stoppingSpeed
    }

    /// N: the number of one-millisecond steps a motion from `velocity` (guarded) makes before its speed is under
    /// `stoppingSpeed`; 0 when it already is.
    public static func stepCount(velocity: Point) -> Int {
        var count = 0
        step(velocity: guardedVelocity(velocity)) { _ in count += 1 }
        return count
    }

    /// The closed form of the distance the content travels from `velocity` (guarded) when nothing stops it,
    /// in the finger's direction (the offset changes by minus this): v0 * (1 - 0.998^N) / (1 - 0.998) with
    /// N = `stepCount(velocity:)`. It equals the sum of the N steps up to rounding.
    public static func travel(velocity: Point) -> Point {
        let v = guardedVelocity(velocity)
        let factor = (1 - ZoomMath.pow(rate, Double(stepCount(velocity: v)))) / (1 - rate)
        return Point(x: v.x * factor, y: v.y * factor)
    }

    /// The distance an overshoot of `overshoot` viewport points past an edge is drawn at, on an axis whose viewport
    /// extent is `extent`: (1 - 1/(d*0.55/D + 1)) * D. It grows like 0.55 d at first and never reaches D.
    ///
    /// Computed as D * x/(x + 1) with x = d*0.55/D, the same value without the cancellation of 1 - 1/(x + 1) for
    /// small overshoots.
    public static func rubberBand(_ overshoot: Double, extent: Double) -> Double {
        guard overshoot > 0 else { return 0 }
        let x = overshoot * rubberBandCoefficient / extent
        return extent * (x / (x + 1))
    }

    /// The unconstrained offsets of a motion: `offset`, then the offset after each step, N + 1 in all.
    static func offsets(from offset: Point, velocity: Point) -> [Point] {
        var offsets = [offset]
        var u = offset
        step(velocity: velocity) { v in
            u = Point(x: u.x - v.x, y: u.y - v.y)
            offsets.append(u)
        }
        return offsets
    }

    /// The unconstrained offset where a motion from `offset` ends: the last of `offsets(from:velocity:)`, by the
    /// same arithmetic.
    static func restingOffset(from offset: Point, velocity: Point) -> Point {
        var u = offset
        step(velocity: velocity) { v in u = Point(x: u.x - v.x, y: u.y - v.y) }
        return u
    }

    /// Calls `body` with the velocity of each step, decaying by `rate` after each, while the speed is at least
    /// `stoppingSpeed`. `velocity` must be guarded (finite), which bounds the steps (about 12,600 from the
    /// largest speed).
    private static func step(velocity: Point, _ body: (Point) -> Void) {
        var v = velocity
        while isMoving(v) {
            body(v)
            v = Point(x: v.x * rate, y: v.y * rate)
        }
    }
}
