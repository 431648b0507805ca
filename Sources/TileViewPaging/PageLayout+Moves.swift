extension PageLayout {
    /// Where `move` takes the viewer from `position`, or nil when it does not move.
    ///
    /// Linear lists stop at the ends; circular lists wrap modulo n (a one-page ring has nowhere to go). On lists
    /// `left`/`right` are `prev`/`next` and `up`/`down` never move. On maps `left`/`right`/`up`/`down` go one cell
    /// along one axis and only into a cell holding a page (a hole or the grid's edge: no move, no jumping over
    /// holes); `next`/`prev` go to the following/preceding page in row-major order and stop at the last/first;
    /// `goto N` goes to the Nth page in page order (none when there is no such page).
    /// Nil too when `position` holds no page.
    public func position(after move: PageMove, from position: Cell) -> Cell? {
        guard holdsPage(position) else { return nil }
        let target: Cell?
        switch (self, move) {
        case (_, .goto(let number)):
            target = self.position(ofPage: number - 1)
        case (.map(let map), .next), (.map(let map), .prev):
            guard let index = map.pageIndex(at: position) else { return nil }
            let next = index + move.step
            target = next >= 0 && next < map.pageCells.count ? map.pageCells[next] : nil
        case (.map, _):
            target = self.position(atSlot: position.moved(by: move.step, along: move.axis))
        case (_, .up), (_, .down):
            target = nil
        default:
            target = self.position(atSlot: position.moved(by: move.step, along: .horizontal))
        }
        return target == position ? nil : target
    }
}
