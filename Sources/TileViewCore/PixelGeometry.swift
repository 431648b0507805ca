/// Integer pixel geometry: sizes and rects on the pixel grid.

/// A size in whole pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }

    /// A size of whole numbers (a viewport's, an image's) in pixels; fractions are dropped.
    public init(truncating size: Size) { self.init(width: Int(size.width), height: Int(size.height)) }

    /// width * height, computed without overflow traps (saturating at Int.max).
    public var pixelCount: Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var asSize: Size { Size(width: Double(width), height: Double(height)) }
    public var description: String { "\(width)x\(height)" }
}

/// A rect of whole pixels: columns [x, x + width), rows [y, y + height). Coded as
/// `{"x": ..., "y": ..., "width": ..., "height": ...}`.
public struct PixelRect: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public init(size: PixelSize) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var pixelCount: Int { isEmpty ? 0 : width * height }

    /// The common pixels of two rects, or nil when they share none.
    public func intersection(_ other: PixelRect) -> PixelRect? {
        guard let xs = overlap(x, maxX, other.x, other.maxX), let ys = overlap(y, maxY, other.y, other.maxY)
        else { return nil }
        return PixelRect(x: xs.lower, y: ys.lower, width: xs.upper - xs.lower, height: ys.upper - ys.lower)
    }

    /// The smallest rect holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(x, other.x)
        let y0 = min(y, other.y)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    public func contains(_ other: PixelRect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && px < maxX && py >= y && py < maxY
    }

    /// The smallest pixel rect that covers a real rect (floor of the minimum, ceiling of the maximum).
    public static func covering(_ rect: Rect) -> PixelRect {
        let x0 = Int(rect.minX.rounded(.down))
        let y0 = Int(rect.minY.rounded(.down))
        let x1 = Int(rect.maxX.rounded(.up))
        let y1 = Int(rect.maxY.rounded(.up))
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    public var asRect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
    public var description: String { "(\(x), \(y)) \(width)x\(height)" }
}
