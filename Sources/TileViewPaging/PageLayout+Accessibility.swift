import TileViewCore

extension PageLayout {
    /// Whether a content offset may be shown: its grid position (x/pw, y/ph), rounded down and up on both axes,
    /// reaches only slots that show pages (docs/design.md section 4). An offset resting on a page needs that page only;
    /// an offset between two pages needs both; between four, all four. Circular lists wrap. Page sizes that are not
    /// positive and non-finite offsets are not accessible.
    public func isAccessible(contentOffset: Point, pageSize: Size) -> Bool {
        guard pageSize.width > 0, pageSize.height > 0, contentOffset.x.isFinite, contentOffset.y.isFinite else {
            return false
        }
        let grid = PageMath.gridPosition(forContentOffset: contentOffset, pageSize: pageSize)
        let columns = Set([grid.x.rounded(.down), grid.x.rounded(.up)].map(PageMath.clampedSlot))
        let rows = Set([grid.y.rounded(.down), grid.y.rounded(.up)].map(PageMath.clampedSlot))
        for row in rows {
            for column in columns where position(atSlot: Cell(column: column, row: row)) == nil {
                return false
            }
        }
        return true
    }

    /// The content offset at which the page in `slot` fills the page rect: (column * pw, row * ph).
    public func contentOffset(ofSlot slot: Cell, pageSize: Size) -> Point {
        Point(x: Double(slot.column) * pageSize.width, y: Double(slot.row) * pageSize.height)
    }

    /// The run of slots that show pages through `slot` along `axis`: the first and last slot coordinate on that
    /// axis, nil where it never ends (a circular list horizontally). A drag along `axis` from `slot` can reach
    /// exactly the offsets between the two ends.
    func accessibleRun(through slot: Cell, along axis: PageAxis) -> (lower: Int?, upper: Int?) {
        guard position(atSlot: slot) != nil else {
            let c = slot.coordinate(along: axis)
            return (c, c)
        }
        if wraps && axis == .horizontal && slot.row == 0 { return (nil, nil) }
        var lower = slot
        while position(atSlot: lower.moved(by: -1, along: axis)) != nil { lower = lower.moved(by: -1, along: axis) }
        var upper = slot
        while position(atSlot: upper.moved(by: 1, along: axis)) != nil { upper = upper.moved(by: 1, along: axis) }
        return (lower.coordinate(along: axis), upper.coordinate(along: axis))
    }
}
