/// The shape of a gallery: a linear list, a circular list or a 2-D map with holes (docs/design.md section 4).
///
/// Every page sits at a position, a `PageMap.Cell`: list page i is at column i of row 0, map pages at their cells.
/// Content offsets address slots, cells of the unbounded plane with one page-sized rect each: slot (c, r) covers
/// content x in [c*pw, (c+1)*pw) and y in [r*ph, (r+1)*ph). `position(atSlot:)` says which page a slot shows:
/// a circular list repeats its pages every n columns; every other slot outside the pages is empty space.
/// A count below zero is read as zero (an empty layout has no positions and no pager).
public enum PageLayout: Hashable, Sendable {
    /// `count` pages in a row; `next`/`prev` stop at the ends.
    case linear(Int)
    /// `count` pages in a ring; indexes wrap modulo `count`.
    case circular(Int)
    /// A 2-D grid of pages with holes.
    case map(PageMap)

    public typealias Cell = PageMap.Cell

    /// The number of pages.
    public var count: Int {
        switch self {
        case .linear(let n), .circular(let n): max(0, n)
        case .map(let map): map.pageCells.count
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// Whether indexes wrap: a circular list of at least two pages (one page has nowhere to wrap to).
    public var wraps: Bool {
        if case .circular(let n) = self { return n >= 2 }
        return false
    }

    /// The positions of all pages, in page order (list order; row-major order on a map).
    public var positions: [Cell] {
        switch self {
        case .linear, .circular: (0..<count).map { Cell(column: $0, row: 0) }
        case .map(let map): map.pageCells
        }
    }

    /// The position of the first page in page order, without listing them all; nil when there are no pages.
    public var firstPosition: Cell? {
        switch self {
        case .linear, .circular: count > 0 ? Cell(column: 0, row: 0) : nil
        case .map(let map): map.pageCells.first
        }
    }

    /// Whether `position` is the position of a page (no wrapping: circular positions are columns 0..<n of row 0).
    public func holdsPage(_ position: Cell) -> Bool {
        switch self {
        case .linear, .circular: position.row == 0 && position.column >= 0 && position.column < count
        case .map(let map): map.holdsPage(position)
        }
    }

    /// The page a slot shows, or nil for empty space: a hole, off the grid, past a linear list's ends.
    public func position(atSlot slot: Cell) -> Cell? {
        if wraps {
            guard slot.row == 0 else { return nil }
            let n = count
            return Cell(column: ((slot.column % n) + n) % n, row: 0)
        }
        return holdsPage(slot) ? slot : nil
    }

    /// The place of the page at `position` in page order, or nil when no page is there.
    public func pageIndex(at position: Cell) -> Int? {
        switch self {
        case .linear, .circular: holdsPage(position) ? position.column : nil
        case .map(let map): map.pageIndex(at: position)
        }
    }

    /// The position of the page at place `index` in page order, or nil when out of range.
    public func position(ofPage index: Int) -> Cell? {
        guard index >= 0, index < count else { return nil }
        switch self {
        case .linear, .circular: return Cell(column: index, row: 0)
        case .map(let map): return map.pageCells[index]
        }
    }
}
