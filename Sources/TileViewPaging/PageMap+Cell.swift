extension PageMap {
    /// A grid position: `column` counted from the left, `row` from the top, both from 0.
    ///
    /// Positions of list pages are cells too: list page i sits at column i of row 0. Cells order row-major.
    public struct Cell: Hashable, Sendable, Comparable, CustomStringConvertible {
        public var column: Int
        public var row: Int

        public init(column: Int, row: Int) { (self.column, self.row) = (column, row) }

        /// The cell `steps` cells away along `axis` (positive: right or down).
        public func moved(by steps: Int, along axis: PageAxis) -> Cell {
            switch axis {
            case .horizontal: Cell(column: column + steps, row: row)
            case .vertical: Cell(column: column, row: row + steps)
            }
        }

        /// The coordinate along `axis`: the column for horizontal, the row for vertical.
        public func coordinate(along axis: PageAxis) -> Int {
            axis == .horizontal ? column : row
        }

        public static func < (a: Cell, b: Cell) -> Bool {
            (a.row, a.column) < (b.row, b.column)
        }

        public var description: String { "[\(column), \(row)]" }
    }
}
