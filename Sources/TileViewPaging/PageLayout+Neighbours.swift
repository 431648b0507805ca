extension PageLayout {
    /// The pages next to `position`, in page order, never `position` itself.
    ///
    /// Linear: i-1 and i+1 where they exist. Circular: i-1 and i+1 modulo n, deduplicated (one neighbour when
    /// n = 2, none when n = 1). Map: the 4-neighbours (left, right, up, down) that hold pages; diagonal cells are
    /// not neighbours. Empty when `position` holds no page.
    public func neighbours(of position: Cell) -> [Cell] {
        neighbourSet(of: position, axes: PageAxis.allCases)
    }

    /// The neighbours of `position` along one axis (lists have none vertically).
    public func neighbours(of position: Cell, along axis: PageAxis) -> [Cell] {
        neighbourSet(of: position, axes: [axis])
    }

    /// The pages to keep decoded around `position`: the position and its neighbours along `axis`.
    ///
    /// Lists: {i-1, i, i+1} (modulo n when circular), whatever the axis. Maps: the current page and its two
    /// neighbours along the axis of travel, so the page the viewer came from stays and the next page in the
    /// direction of travel is ready; the neighbours on the other axis are not resident (a map cell can have four
    /// neighbours, and at most three pages are resident). Never more than three pages, in page order.
    public func residentSet(around position: Cell, axis: PageAxis) -> [Cell] {
        guard holdsPage(position) else { return [] }
        let along: PageAxis = isMap ? axis : .horizontal
        return ([position] + neighbours(of: position, along: along)).sorted()
    }

    /// The axis a pager starts on at `position`: horizontal, unless a map cell has no page to its left or right
    /// but has one above or below.
    public func initialAxis(at position: Cell) -> PageAxis {
        guard isMap, neighbours(of: position, along: .horizontal).isEmpty,
            !neighbours(of: position, along: .vertical).isEmpty
        else { return .horizontal }
        return .vertical
    }

    /// Whether this is a 2-D map.
    public var isMap: Bool {
        if case .map = self { return true }
        return false
    }

    private func neighbourSet(of position: Cell, axes: [PageAxis]) -> [Cell] {
        guard holdsPage(position) else { return [] }
        var found: [Cell] = []
        for axis in axes where isMap || axis == .horizontal {
            for step in [-1, 1] {
                if let page = self.position(atSlot: position.moved(by: step, along: axis)), page != position,
                    !found.contains(page)
                {
                    found.append(page)
                }
            }
        }
        return found.sorted()
    }
}
