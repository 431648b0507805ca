import TileViewCore

/// The arithmetic between content offsets and page slots.
///
/// Slot coordinates are clamped to ±2^48 so that offsets far beyond any gallery stay finite integers; a non-finite
/// offset or a page length that is not positive reads as slot 0.
public enum PageMath {
    /// Grid coordinates within this distance of an integer are that integer: `(c * pw) / pw` may miss `c` by an
    /// ulp, and an offset resting on a page must read as that page, not as the gap before it.
    public static let gridTolerance = 1e-9

    /// The largest slot coordinate that offsets map to.
    public static let slotLimit = 1 << 48

    /// The page index for a content offset along one axis: floor((2x + pw) / (2pw)), the page whose centre is
    /// nearest (halfway rounds up). Returns 0 when `pageWidth` is not positive or `x` is not finite.
    public static func pageIndex(forOffset x: Double, pageWidth pw: Double) -> Int {
        guard pw > 0, pw.isFinite, x.isFinite else { return 0 }
        return clampedSlot(((2 * x + pw) / (2 * pw)).rounded(.down))
    }

    /// The position along one axis in page units, x / pw, snapped to an integer within `gridTolerance`.
    public static func gridCoordinate(forOffset x: Double, pageLength pw: Double) -> Double {
        guard pw > 0, pw.isFinite, x.isFinite else { return 0 }
        let g = x / pw
        let nearest = g.rounded()
        return abs(g - nearest) <= gridTolerance ? nearest : g
    }

    /// The grid position (x / pw, y / ph) of a content offset, each axis snapped as in `gridCoordinate`.
    public static func gridPosition(forContentOffset offset: Point, pageSize: Size) -> Point {
        Point(
            x: gridCoordinate(forOffset: offset.x, pageLength: pageSize.width),
            y: gridCoordinate(forOffset: offset.y, pageLength: pageSize.height))
    }

    /// An integer-valued double as a slot coordinate, clamped to ±`slotLimit` (NaN reads as 0).
    static func clampedSlot(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        let limit = Double(slotLimit)
        return Int(min(max(value, -limit), limit))
    }
}
