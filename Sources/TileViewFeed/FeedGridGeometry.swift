import TileViewCore

/// The cells of one grid section: near-square integer rects that tile the viewport width exactly.
///
/// The model, for `n` items in `C` columns at viewport width `w` (all in pixels, grid-local: origin at the top
/// left of the section):
/// - the ideal cell side is `w / C`; cell edges are the integer edges `e(k) = floor(k * w / C)`, so column `c`
///   spans `[e(c), e(c + 1))` and row `r` spans `[e(r), e(r + 1))`. Every cell is `floor(w/C)` or `ceil(w/C)`
///   wide and high (square to within one pixel), the columns tile `[0, w)` with no gap or overlap, and the rows
///   tile `[0, height)`;
/// - item `k` sits in row `k / C`, column `k % C` (rows fill left to right, top to bottom; the last row may be
///   partly empty);
/// - `rows = ceil(n / C)` and `height` = the sum of the row heights = `e(rows) = floor(rows * w / C)`.
///
/// Clamping: `w` to `[1, FeedLayout.largestViewportLength]`, `n` to `[0, FeedLayout.largestItemCount]` and `C`
/// to `[1, w]` (more columns than pixels would give cells with no width), so every cell is at least 1x1.
public struct FeedGridGeometry: Hashable, Sendable {
    /// Items in the grid, after clamping.
    public let itemCount: Int
    /// Columns actually used, in `[1, viewportWidth]`.
    public let columns: Int
    /// The viewport width the grid tiles, after clamping.
    public let viewportWidth: Int

    public init(itemCount: Int, columns: Int, viewportWidth: Int) {
        let w = FeedLayout.guardedViewportLength(viewportWidth)
        self.viewportWidth = w
        self.itemCount = min(max(itemCount, 0), FeedLayout.largestItemCount)
        self.columns = min(max(columns, 1), w)
    }

    /// `ceil(itemCount / columns)`.
    public var rows: Int { (itemCount + columns - 1) / columns }

    /// The grid's height in pixels: `floor(rows * w / columns)`.
    public var height: Int { edge(rows) }

    /// The k-th cell edge, `floor(k * w / columns)`, on either axis. k <= 2^24 and w <= 2^20: no overflow.
    @inline(__always) func edge(_ k: Int) -> Int { k * viewportWidth / columns }

    /// Left edge of column `column`.
    public func columnX(_ column: Int) -> Int { edge(column) }
    /// Width of column `column`: `floor(w/C)` or `ceil(w/C)`.
    public func columnWidth(_ column: Int) -> Int { edge(column + 1) - edge(column) }
    /// Top edge of row `row`, grid-local.
    public func rowY(_ row: Int) -> Int { edge(row) }
    /// Height of row `row`: `floor(w/C)` or `ceil(w/C)`.
    public func rowHeight(_ row: Int) -> Int { edge(row + 1) - edge(row) }

    /// Items in row `row` (all columns except possibly in the last row).
    public func itemCount(inRow row: Int) -> Int { max(0, min(columns, itemCount - row * columns)) }

    /// The rect of item `item` (in `0..<itemCount`), grid-local.
    public func gridRect(ofItem item: Int) -> PixelRect {
        let row = item / columns
        let column = item % columns
        return PixelRect(x: columnX(column), y: rowY(row), width: columnWidth(column), height: rowHeight(row))
    }

    /// The row holding grid-local y, for `0 <= y < height`: the r with `e(r) <= y < e(r + 1)`.
    ///
    /// `e(r) <= y` holds exactly when `r * w < (y + 1) * C`, so r = `floor(((y + 1) * C - 1) / w)`.
    public func row(atGridY y: Int) -> Int { ((y + 1) * columns - 1) / viewportWidth }

    /// The rows that share at least one pixel row with the grid-local range `range`; nil when none do.
    public func rows(intersectingGridRange range: Range<Int>) -> ClosedRange<Int>? {
        let low = max(range.lowerBound, 0)
        let high = min(range.upperBound, height)
        guard low < high else { return nil }
        return row(atGridY: low)...row(atGridY: high - 1)
    }
}
