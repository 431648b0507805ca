/// One of the two axes pages move along: horizontal (list order, map columns) or vertical (map rows).
public enum PageAxis: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case horizontal
    case vertical

    /// The other axis.
    public var perpendicular: PageAxis { self == .horizontal ? .vertical : .horizontal }

    public var description: String { rawValue }
}
