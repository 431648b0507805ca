/// The identity of one grid cell: which section, which item in that section's folder order.
///
/// Ordered by section, then item: the order cells appear in the feed.
public struct CellID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The grid section's index in the feed.
    public let section: Int
    /// The item's index in the grid, from 0 (natural order of the folder's file names).
    public let item: Int

    public init(section: Int, item: Int) { (self.section, self.item) = (section, item) }

    public static func < (a: CellID, b: CellID) -> Bool {
        (a.section, a.item) < (b.section, b.item)
    }

    public var description: String { "\(section).\(item)" }
}
