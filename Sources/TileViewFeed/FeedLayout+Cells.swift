import TileViewCore

/// Finding grid cells by container range: the visible ones and any band of the feed.
extension FeedLayout {
    /// The grid cells sharing at least one pixel with the viewport at container offset `y` (clamped first), in
    /// feed order, with their viewport rects.
    ///
    /// Exactly the cells whose rects intersect `(0, 0) w x h` in viewport space. O(sections + cells returned).
    public func visibleCells(atContainerOffset y: Int) -> [CellRef] {
        let range = viewportContainerRange(atContainerOffset: y)
        return cells(inContainerRange: range, atContainerOffset: range.lowerBound)
    }

    /// The grid cells sharing at least one pixel row with the container range `range`, in feed order.
    ///
    /// Every cell spans whole columns inside `[0, w)`, so sharing a row is sharing a pixel. `viewportRect` is
    /// the container rect moved up by `containerOffset` (used as given, not clamped); pass the offset the cells
    /// will be shown at. O(sections + cells returned): rows are found by arithmetic, not by scanning.
    public func cells(inContainerRange range: Range<Int>, atContainerOffset containerOffset: Int) -> [CellRef] {
        var found: [CellRef] = []
        for index in sections.indices {
            guard let grid = gridGeometries[index] else { continue }
            let top = sectionTops[index]
            // Clip to the section before moving into grid space, so that no range can overflow.
            let low = max(range.lowerBound, top)
            let high = min(range.upperBound, top + sectionHeights[index])
            guard low < high, let rows = grid.rows(intersectingGridRange: (low - top)..<(high - top)) else { continue }
            for row in rows {
                let y = top + grid.rowY(row)
                let height = grid.rowHeight(row)
                for column in 0..<grid.itemCount(inRow: row) {
                    let x = grid.columnX(column)
                    let width = grid.columnWidth(column)
                    found.append(
                        CellRef(
                            id: CellID(section: index, item: row * grid.columns + column),
                            containerRect: PixelRect(x: x, y: y, width: width, height: height),
                            viewportRect: PixelRect(x: x, y: y - containerOffset, width: width, height: height)))
                }
            }
        }
        return found
    }

    /// The container rect of one cell, or nil when the section is not a grid or the item is out of range.
    public func containerRect(of cell: CellID) -> PixelRect? {
        guard sections.indices.contains(cell.section), let grid = gridGeometries[cell.section],
            (0..<grid.itemCount).contains(cell.item)
        else { return nil }
        let local = grid.gridRect(ofItem: cell.item)
        return PixelRect(
            x: local.x, y: sectionTops[cell.section] + local.y, width: local.width, height: local.height)
    }
}
