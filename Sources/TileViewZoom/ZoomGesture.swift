import TileViewCore

/// One zoom gesture, as the command line's `--gesture` takes it (docs/design.md section 9).
///
/// Text forms (numbers may be negative or decimal): `double-tap X,Y`, `two-finger-tap`, `pinch F X,Y`,
/// `pan DX,DY` (viewport pixels), `pan DX,DY velocity VX,VY` (a fling: VX,VY in viewport pixels per millisecond),
/// `zoom-to X,Y,W,H` (image pixels) and `rotate D` (D one of 90, 180, 270, -90 degrees clockwise).
/// `description` prints the same form, which `init(parsing:)` reads back.
public enum ZoomGesture: Hashable, Sendable {
    /// Double tap at a viewport point: zoom in one step, bringing the point to the centre.
    case doubleTap(viewportPoint: Point)
    /// Two-finger tap: zoom out one step about the viewport centre.
    case twoFingerTap
    /// Pinch by a factor about a viewport point.
    case pinch(factor: Double, viewportPoint: Point)
    /// Pan by the finger's motion (dx, dy) in viewport pixels.
    case pan(viewportDelta: Point)
    /// zoomToRect of a rect in image space.
    case zoomTo(imageRect: Rect)
    /// A pan that lets go with the finger moving: pan by `viewportDelta`, then decelerate from `velocity`
    /// (viewport pixels per millisecond, the finger's direction like the delta; see `ZoomDeceleration`).
    /// Written `pan DX,DY velocity VX,VY`. (A case of its own, not a second `pan`: a case name with two label sets
    /// makes `case .pan` patterns ambiguous.)
    case fling(viewportDelta: Point, velocity: Point)
    /// Turn the content clockwise by quarter turns about the viewport centre (negative: anticlockwise). Written
    /// `rotate 90`, `rotate 180`, `rotate 270` or `rotate -90` for 1, 2, 3 and -1 quarter turns.
    case rotate(quarterTurns: Int)
}

extension ZoomGesture: CustomStringConvertible {
    /// The text form, e.g. `pinch 2.5 120,80`.
    public var description: String {
        let f = Self.formatNumber
        switch self {
        case .doubleTap(let p):
            return "double-tap \(f(p.x)),\(f(p.y))"
        case .twoFingerTap:
            return "two-finger-tap"
        case .pinch(let factor, let p):
            return "pinch \(f(factor)) \(f(p.x)),\(f(p.y))"
        case .pan(let d):
            return "pan \(f(d.x)),\(f(d.y))"
        case .zoomTo(let r):
            return "zoom-to \(f(r.minX)),\(f(r.minY)),\(f(r.width)),\(f(r.height))"
        case .fling(let d, let v):
            return "pan \(f(d.x)),\(f(d.y)) velocity \(f(v.x)),\(f(v.y))"
        case .rotate(let quarterTurns):
            // Other counts than 1, 2, 3 and -1 print as their angle, which the parser rejects.
            return "rotate \(f(Double(quarterTurns) * 90))"
        }
    }

    /// Whole numbers without a fraction (`120`, not `120.0`); others in Swift's shortest round-trip form, which
    /// the parser reads back. (A NaN or infinite value prints as `nan` or `inf`, which the parser rejects.)
    static func formatNumber(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}

extension ZoomState {
    /// Performs one gesture.
    public mutating func apply(_ gesture: ZoomGesture) {
        switch gesture {
        case .doubleTap(let point):
            doubleTap(atViewportPoint: point)
        case .twoFingerTap:
            twoFingerTap()
        case .pinch(let factor, let point):
            pinch(by: factor, aboutViewportPoint: point)
        case .pan(let delta):
            pan(byViewportDelta: delta)
        case .zoomTo(let rect):
            zoom(toImageRect: rect)
        case .fling(let delta, let velocity):
            pan(byViewportDelta: delta, velocity: velocity)
        case .rotate(let quarterTurns):
            rotate(quarterTurns: quarterTurns)
        }
    }

    /// Performs gestures in order.
    public mutating func apply(_ gestures: some Sequence<ZoomGesture>) {
        for gesture in gestures { apply(gesture) }
    }
}
