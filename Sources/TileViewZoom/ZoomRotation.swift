import TileViewCore

/// A clockwise turn of the image by a whole number of quarter turns, and the mapping it makes between the
/// unrotated image (pixels of the oriented image, docs/design.md section 2) and the rotated image that the zoom engine
/// works on.
///
/// Turning an image of unrotated size W x H clockwise by 90 degrees gives an image of size H x W whose top right
/// corner is the unrotated top left: the unrotated point (u, v) lies at (H - v, u). By 180 degrees it lies at
/// (W - u, H - v), by 270 degrees at (v, W - u). Both spaces have their origin at the top left, x right, y down.
public enum ZoomRotation: Int, Hashable, Sendable, CaseIterable, Codable, CustomStringConvertible {
    case upright = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// The rotation by `quarterTurns` clockwise quarter turns, any integer (negative turns go anticlockwise, so
    /// -1 is `clockwise270`).
    public init(quarterTurns: Int) {
        switch normalizedQuarterTurns(quarterTurns) {
        case 1: self = .clockwise90
        case 2: self = .clockwise180
        case 3: self = .clockwise270
        default: self = .upright
        }
    }

    /// The clockwise angle in degrees: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }

    /// The clockwise quarter turns: 0, 1, 2 or 3.
    public var quarterTurns: Int { rawValue / 90 }

    /// Whether the rotated image's width is the unrotated height (90 and 270 degrees).
    public var swapsWidthAndHeight: Bool { self == .clockwise90 || self == .clockwise270 }

    /// This rotation followed by `quarterTurns` more clockwise quarter turns.
    public func turned(by quarterTurns: Int) -> ZoomRotation {
        ZoomRotation(quarterTurns: self.quarterTurns + quarterTurns % 4)
    }

    /// The size of the rotated image: `unrotated` with width and height swapped for 90 and 270 degrees.
    public func rotatedSize(_ unrotated: Size) -> Size {
        swapsWidthAndHeight ? Size(width: unrotated.height, height: unrotated.width) : unrotated
    }

    /// Where the unrotated image point `point` lies in the rotated image, for an unrotated image of `size`.
    public func rotatedPoint(_ point: Point, inUnrotatedSize size: Size) -> Point {
        switch self {
        case .upright: point
        case .clockwise90: Point(x: size.height - point.y, y: point.x)
        case .clockwise180: Point(x: size.width - point.x, y: size.height - point.y)
        case .clockwise270: Point(x: point.y, y: size.width - point.x)
        }
    }

    /// Where the rotated image point `point` lies in the unrotated image of `size` (the inverse of
    /// `rotatedPoint(_:inUnrotatedSize:)`).
    public func unrotatedPoint(_ point: Point, inUnrotatedSize size: Size) -> Point {
        switch self {
        case .upright: point
        case .clockwise90: Point(x: point.y, y: size.height - point.x)
        case .clockwise180: Point(x: size.width - point.x, y: size.height - point.y)
        case .clockwise270: Point(x: size.width - point.y, y: point.x)
        }
    }

    /// The rotated image rect covering the unrotated rect `rect` (its corners mapped, the result standardised).
    public func rotatedRect(_ rect: Rect, inUnrotatedSize size: Size) -> Rect {
        Self.spanning(
            rotatedPoint(rect.origin, inUnrotatedSize: size),
            rotatedPoint(Point(x: rect.maxX, y: rect.maxY), inUnrotatedSize: size))
    }

    /// The unrotated image rect covering the rotated rect `rect` (its corners mapped, the result standardised).
    public func unrotatedRect(_ rect: Rect, inUnrotatedSize size: Size) -> Rect {
        Self.spanning(
            unrotatedPoint(rect.origin, inUnrotatedSize: size),
            unrotatedPoint(Point(x: rect.maxX, y: rect.maxY), inUnrotatedSize: size))
    }

    /// `90 degrees clockwise`, `0 degrees clockwise` and so on.
    public var description: String { "\(degrees) degrees clockwise" }

    /// The rect with opposite corners `a` and `b`.
    private static func spanning(_ a: Point, _ b: Point) -> Rect {
        Rect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }
}
