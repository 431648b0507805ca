import TileViewCore

/// Where pages sit in the viewport when the neighbours peek in at the sides (`--peek P --gap G`, docs/design.md section
/// 4).
///
/// Model, for the horizontal axis (the vertical one swaps width and height): the page width is pw = w - 2P; slot c
/// covers content x in [c*pw, (c+1)*pw); the viewport shows content x in [ox - P, ox - P + w), so at rest
/// (ox = c*pw) the current page is centred and P points of each neighbour show at the sides. Each page's frame is
/// inset by G/2 on both sides along the peek axis, leaving a gap G between neighbours; the other axis is not inset.
/// With P = 0 and G = 0 this is plain paging: one page fills the viewport at rest.
///
/// Clamping: P is kept in [0, L/4] (L the viewport length on the peek axis), so pw >= 2P and at any offset only
/// the page nearest the offset and its two neighbours on that axis can be visible, all of them resident. G is kept
/// in [0, pw/2]. Maps peek along one axis at a time: the pager's axis keeps what peeks in view resident.
public struct PeekLayout: Hashable, Sendable {
    public typealias Cell = PageMap.Cell

    /// The viewport size in points.
    public let viewportSize: Size
    /// The clamped peek P: how much of each neighbour shows at rest.
    public let peek: Double
    /// The clamped gap G between neighbouring pages.
    public let gap: Double
    /// The axis along which neighbours peek and pages are separated by the gap.
    public let axis: PageAxis

    public init(viewportSize: Size, peek: Double = 0, gap: Double = 0, axis: PageAxis = .horizontal) {
        let width = viewportSize.width.isFinite ? max(0, viewportSize.width) : 0
        let height = viewportSize.height.isFinite ? max(0, viewportSize.height) : 0
        self.viewportSize = Size(width: width, height: height)
        self.axis = axis
        let length = axis == .horizontal ? width : height
        let p = peek.isFinite ? min(max(peek, 0), length / 4) : 0
        self.peek = p
        let pageLength = length - 2 * p
        self.gap = gap.isFinite ? min(max(gap, 0), pageLength / 2) : 0
    }

    /// The size of one page slot: the viewport minus the two peeks on the peek axis.
    public var pageSize: Size {
        switch axis {
        case .horizontal: Size(width: viewportSize.width - 2 * peek, height: viewportSize.height)
        case .vertical: Size(width: viewportSize.width, height: viewportSize.height - 2 * peek)
        }
    }

    /// The content offset that shows the page in `slot` centred: (column * pw, row * ph).
    public func contentOffset(ofSlot slot: Cell) -> Point {
        Point(x: Double(slot.column) * pageSize.width, y: Double(slot.row) * pageSize.height)
    }

    /// The content point shown at the viewport's top-left corner for a content offset.
    public func viewportOrigin(atContentOffset offset: Point) -> Point {
        axis == .horizontal ? Point(x: offset.x - peek, y: offset.y) : Point(x: offset.x, y: offset.y - peek)
    }

    /// The frame of the page in `slot`, in viewport space, inset by G/2 on both sides along the peek axis.
    /// It may reach past the viewport's edges; clip when drawing.
    public func frame(ofSlot slot: Cell, atContentOffset offset: Point) -> Rect {
        let origin = viewportOrigin(atContentOffset: offset)
        let size = pageSize
        let x = Double(slot.column) * size.width - origin.x
        let y = Double(slot.row) * size.height - origin.y
        let half = gap / 2
        switch axis {
        case .horizontal: return Rect(x: x + half, y: y, width: size.width - gap, height: size.height)
        case .vertical: return Rect(x: x, y: y + half, width: size.width, height: size.height - gap)
        }
    }

    /// The pages visible at a content offset, in slot order: every slot whose inset frame overlaps the viewport
    /// (by more than `PageMath.gridTolerance` of a page on each axis, so that a page touching an edge after rounding
    /// is not counted) and shows a page. Slots without a page (a list's ends, holes, off the grid) are absent.
    public func visiblePages(atContentOffset offset: Point, in layout: PageLayout) -> [VisiblePage] {
        let size = pageSize
        guard size.width > 0, size.height > 0, offset.x.isFinite, offset.y.isFinite else { return [] }
        let viewport = Rect(origin: .zero, size: viewportSize)
        let origin = viewportOrigin(atContentOffset: offset)
        let firstColumn = PageMath.clampedSlot((origin.x / size.width).rounded(.down))
        let lastColumn = PageMath.clampedSlot(((origin.x + viewportSize.width) / size.width).rounded(.up)) - 1
        let firstRow = PageMath.clampedSlot((origin.y / size.height).rounded(.down))
        let lastRow = PageMath.clampedSlot(((origin.y + viewportSize.height) / size.height).rounded(.up)) - 1
        // A slot that only touches the viewport's edge can overlap it by an ulp after (c * pw) - offset.
        let tolerance = PageMath.gridTolerance
        var pages: [VisiblePage] = []
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return pages }
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let slot = Cell(column: column, row: row)
                guard let position = layout.position(atSlot: slot) else { continue }
                let frame = frame(ofSlot: slot, atContentOffset: offset)
                guard let shown = frame.intersection(viewport),
                    shown.width > tolerance * size.width, shown.height > tolerance * size.height
                else { continue }
                pages.append(VisiblePage(position: position, slot: slot, frame: frame))
            }
        }
        return pages
    }
}
