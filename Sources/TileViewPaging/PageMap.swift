/// A 2-D grid of pages with holes, as read from a `--map` file (docs/design.md section 4).
///
/// Columns run left to right and rows top to bottom, both from 0: `Cell(column: 0, row: 0)` is the top-left cell.
/// A cell holds a page name (as written in the map, usually a path relative to the map file) or is a hole. Rows
/// shorter than the widest row are padded with holes, so the grid is a rectangle of `columnCount` x `rowCount`
/// cells and anything outside it is off the grid. Page order is row-major (reading) order; `next` and `prev`
/// follow it. The same name may appear in several cells; lookups by name find the first in page order.
public struct PageMap: Hashable, Sendable {
    /// The cells row by row, each row as long as written (at most `columnCount`; cells past a row's end are
    /// holes); `nil` is a hole.
    public let grid: [[String?]]
    /// The 1-based source line of each row, for messages (`0` for maps built in code).
    public let rowLines: [Int]
    /// The cells that hold pages, in page order (row-major).
    public let pageCells: [Cell]
    /// The widest row's length.
    public let columnCount: Int
    private let pageIndexByCell: [Cell: Int]

    /// A map from rows of optional page names (`nil` is a hole); rows may differ in length.
    /// Throws when there are no rows or no pages.
    public init(rows: [[String?]]) throws(PageMapError) {
        try self.init(rows: rows, rowLines: Array(repeating: 0, count: rows.count), lineCount: 0)
    }

    init(rows: [[String?]], rowLines: [Int], lineCount: Int) throws(PageMapError) {
        guard !rows.isEmpty else { throw .empty(lineCount: lineCount) }
        // Rows are kept as written, not padded to the widest: a long first row over many short rows must not
        // cost rows x width cells. A cell past the end of its row is a hole.
        let width = rows.map(\.count).max() ?? 0
        grid = rows
        self.rowLines = rowLines
        columnCount = width
        var cells: [Cell] = []
        for (row, names) in grid.enumerated() {
            for (column, name) in names.enumerated() where name != nil {
                cells.append(Cell(column: column, row: row))
            }
        }
        guard !cells.isEmpty else {
            throw .noPages(firstLine: rowLines.first ?? 0, lastLine: rowLines.last ?? 0)
        }
        pageCells = cells
        pageIndexByCell = Dictionary(uniqueKeysWithValues: cells.enumerated().map { ($0.element, $0.offset) })
    }

    /// The number of rows.
    public var rowCount: Int { grid.count }

    /// The page name at `cell`, or nil for a hole or a cell off the grid.
    public func page(at cell: Cell) -> String? {
        guard cell.row >= 0, cell.row < grid.count, cell.column >= 0, cell.column < columnCount else { return nil }
        let row = grid[cell.row]
        return cell.column < row.count ? row[cell.column] : nil
    }

    /// Whether `cell` is on the grid and holds a page.
    public func holdsPage(_ cell: Cell) -> Bool { pageIndexByCell[cell] != nil }

    /// The place of the page at `cell` in page order, or nil for a hole or a cell off the grid.
    public func pageIndex(at cell: Cell) -> Int? { pageIndexByCell[cell] }

    /// The first cell (in page order) whose page is written exactly `name`.
    public func cell(ofPage name: String) -> Cell? {
        pageCells.first { page(at: $0) == name }
    }
}
