/// Real-valued geometry shared by every space (image, content, viewport).
///
/// The types do not know which space they live in: the API that produces or consumes them
/// names the space in its labels (`imagePoint(atViewportPoint:)`), as docs/design.md section 2 asks.

/// A point with real coordinates, x to the right and y down.
public struct Point: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }

    public static let zero = Point(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}

/// A width and a height with real values.
public struct Size: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) { (self.width, self.height) = (width, height) }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(width)x\(height)" }
}

/// An axis-aligned rectangle: origin at the top left, non-negative size. Coded flat, as
/// `{"x": ..., "y": ..., "width": ..., "height": ...}` (the JSON records' form).
public struct Rect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// A rect of `size` whose centre is `center`.
    public init(center: Point, size: Size) {
        self.init(
            x: center.x - size.width / 2, y: center.y - size.height / 2,
            width: size.width, height: size.height)
    }

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// The common part of two rects, or nil when they do not overlap with a positive area.
    public func intersection(_ other: Rect) -> Rect? {
        guard let xs = overlap(minX, maxX, other.minX, other.maxX), let ys = overlap(minY, maxY, other.minY, other.maxY)
        else { return nil }
        return Rect(
            x: xs.lower, y: ys.lower, width: xs.upper - xs.lower,
            height: ys.upper - ys.lower)
    }

    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    public var description: String { "(\(minX), \(minY)) \(width)x\(height)" }

    private enum CodingKeys: String, CodingKey { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            x: try c.decode(Double.self, forKey: .x), y: try c.decode(Double.self, forKey: .y),
            width: try c.decode(Double.self, forKey: .width), height: try c.decode(Double.self, forKey: .height))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for (key, value) in [(CodingKeys.x, minX), (.y, minY), (.width, width), (.height, height)] {
            try c.encode(value, forKey: key)
        }
    }
}

/// The common part of the intervals [a0, a1) and [b0, b1) as (lower, upper), nil when it is empty (an interval
/// given backwards is empty): the one overlap rule of `Rect` and `PixelRect`, on both axes.
func overlap<T: Comparable>(_ a0: T, _ a1: T, _ b0: T, _ b1: T) -> (lower: T, upper: T)? {
    let lower = max(a0, b0)
    let upper = min(a1, b1)
    return upper > lower ? (lower, upper) : nil
}
