import TileViewCore

/// What holds decoded pixels at a container offset: the viewport plus at most one screen ahead.
extension FeedLayout {
    /// The container rows whose cells and images hold decoded pixels at offset `y` (clamped first) while
    /// scrolling in `direction`: the viewport `[y, y + h)` extended by exactly one screen in the scroll direction.
    ///
    /// - `.down`: `[y, y + 2h)`, the viewport and the screen below it;
    /// - `.up`: `[y - h, y + h)`, the screen above it and the viewport;
    /// - `.stationary`: `[y, y + h)`, the viewport only.
    ///
    /// The range may reach past either end of the content, where nothing lies; it is never longer than 2h.
    public func residentContainerRange(atContainerOffset y: Int, scrollDirection direction: FeedScrollDirection)
        -> Range<Int>
    {
        let offset = clampedContainerOffset(y)
        let h = viewportSize.height
        switch direction {
        case .down: return offset..<(offset + 2 * h)
        case .up: return (offset - h)..<(offset + h)
        case .stationary: return offset..<(offset + h)
        }
    }

    /// The grid cells that hold decoded thumbnails at offset `y` (clamped first) while scrolling in `direction`:
    /// those sharing a pixel with `residentContainerRange(atContainerOffset:scrollDirection:)`, in feed order,
    /// with viewport rects at the clamped offset (the cells ahead lie outside the viewport).
    ///
    /// Never more than `maxResidentCells`.
    public func residentCells(atContainerOffset y: Int, scrollDirection direction: FeedScrollDirection)
        -> [CellRef]
    {
        cells(
            inContainerRange: residentContainerRange(atContainerOffset: y, scrollDirection: direction),
            atContainerOffset: clampedContainerOffset(y))
    }

    /// The image sections that hold decoded pixels at offset `y` (clamped first) while scrolling in `direction`:
    /// those sharing a row with the resident range, in feed order. Headers are drawn from their colour and grids
    /// from their cells, so neither appears here.
    public func residentImageSections(atContainerOffset y: Int, scrollDirection direction: FeedScrollDirection)
        -> [Int]
    {
        let range = residentContainerRange(atContainerOffset: y, scrollDirection: direction)
        return sections(intersectingContainerRange: range).filter { index in
            if case .image = sections[index] { return true }
            return false
        }
    }

    /// The bound on resident cells: the most grid cells that any stretch of the feed two screens tall (2h rows)
    /// shares a pixel with. No offset and direction ever makes more cells resident, and some offset and direction
    /// reaches it (every resident range is such a stretch, and every stretch is covered by a resident range).
    ///
    /// Computed by sliding a 2h window over the grid rows of the whole feed: the best window starts one row above
    /// the bottom of some row (the lowest start that still touches that row). O(total grid rows).
    public var maxResidentCells: Int {
        // Every grid row of the feed, in container order: (top, bottom, cells).
        var tops: [Int] = []
        var bottoms: [Int] = []
        var counts: [Int] = []
        for index in sections.indices {
            guard let grid = gridGeometries[index] else { continue }
            let top = sectionTops[index]
            for row in 0..<grid.rows {
                tops.append(top + grid.rowY(row))
                bottoms.append(top + grid.rowY(row + 1))
                counts.append(grid.itemCount(inRow: row))
            }
        }
        let window = 2 * viewportSize.height
        var best = 0
        var sum = 0
        var end = 0  // rows first..<end are inside the current window; end > first after each step
        for first in tops.indices {
            // The window [bottoms[first] - 1, bottoms[first] - 1 + window) touches row `first` and every later
            // row whose top lies before its end; its end only grows with `first`.
            let windowEnd = bottoms[first] - 1 + window
            while end < tops.count && tops[end] < windowEnd {
                sum += counts[end]
                end += 1
            }
            best = max(best, sum)
            sum -= counts[first]
        }
        return best
    }
}
