import TileViewCore

/// One grid cell found by a query: its identity, where it lies in the container, and where in the viewport.
///
/// `viewportRect` is `containerRect` moved up by the container offset the query was made at; for cells kept
/// ahead of the viewport (prefetch) it lies partly or wholly outside `[0, h)`.
public struct CellRef: Hashable, Sendable, CustomStringConvertible {
    /// Section and item.
    public let id: CellID
    /// The cell in container space (y from the top of the feed).
    public let containerRect: PixelRect
    /// The cell in viewport space at the query's container offset.
    public let viewportRect: PixelRect

    /// The grid section's index in the feed.
    public var section: Int { id.section }
    /// The item's index in the grid.
    public var item: Int { id.item }
    /// The cell's size: the size a thumbnail is decoded at.
    public var pixelSize: PixelSize { containerRect.size }
    /// Bytes an RGBA8 thumbnail of the cell's size holds.
    public var byteCount: Int { containerRect.pixelCount * ImageBuffer.channels }

    public var description: String { "cell \(id) at \(viewportRect)" }
}
