import TileViewCore

/// A finger drag through the pages, from touch-down to release (docs/design.md section 4, "Drag and fling").
///
/// The session starts at the current page's content offset. The first motion that is not zero locks the drag to
/// its dominant axis (a tie, |dx| = |dy|, locks horizontally, the axis lists page along); the offset then moves by
/// minus the finger's motion on that axis only, and stops where the next bit of motion would bring a hole, the
/// grid's edge or a linear list's end into view: it stays within the run of pages through the start page on the
/// locked axis, where every offset is accessible. Circular lists wrap, so the offset runs freely (slot c shows page
/// c mod n); a one-page ring does not move. Page sizes that are not positive read as 1; non-finite motion as 0.
public struct DragSession: Hashable, Sendable {
    public typealias Cell = PageMap.Cell

    /// The smallest speed along the drag axis, in points per millisecond, that flings to the neighbour.
    public static let flingThreshold = 0.1

    public let layout: PageLayout
    /// The size of one page slot in content space (`PeekLayout.pageSize` when neighbours peek).
    public let pageSize: Size
    /// The page the drag started on.
    public let start: Cell
    /// The content offset now, in content space (unwrapped on circular lists: it may leave 0..<n*pw).
    public private(set) var contentOffset: Point
    /// The axis the drag is locked to, nil until the first motion that is not zero.
    public private(set) var axis: PageAxis?
    private var lowerBound: Double?
    private var upperBound: Double?

    /// A drag starting at `pager`'s current page.
    public init(pager: Pager, pageSize: Size) {
        layout = pager.layout
        self.pageSize = Size(
            width: pageSize.width > 0 && pageSize.width.isFinite ? pageSize.width : 1,
            height: pageSize.height > 0 && pageSize.height.isFinite ? pageSize.height : 1)
        start = pager.position
        contentOffset = pager.layout.contentOffset(ofSlot: pager.position, pageSize: self.pageSize)
    }

    /// Moves the finger by (dx, dy) viewport points: the offset moves by (-dx, -dy), along the locked axis only,
    /// clamped to the accessible run.
    public mutating func drag(by motion: (dx: Double, dy: Double)) {
        let dx = motion.dx.isFinite ? motion.dx : 0
        let dy = motion.dy.isFinite ? motion.dy : 0
        if axis == nil {
            guard dx != 0 || dy != 0 else { return }
            lock(abs(dx) >= abs(dy) ? .horizontal : .vertical)
        }
        switch axis {
        case .horizontal: contentOffset.x = clamped(contentOffset.x - dx)
        case .vertical: contentOffset.y = clamped(contentOffset.y - dy)
        case nil: break
        }
    }

    /// The slot nearest the offset: on the drag axis floor((2x + pw) / (2pw)), on the other the start's.
    public var nearestSlot: Cell {
        let axis = self.axis ?? .horizontal
        let length = axis == .horizontal ? pageSize.width : pageSize.height
        let offset = axis == .horizontal ? contentOffset.x : contentOffset.y
        let index = PageMath.pageIndex(forOffset: offset, pageWidth: length)
        return start.moved(by: index - start.coordinate(along: axis), along: axis)
    }

    /// The page nearest the offset; it always holds a page because the offset is always accessible.
    public var nearestPosition: Cell { layout.position(atSlot: nearestSlot) ?? start }

    /// Lifts the finger with velocity (vx, vy) of the content offset in points per millisecond (positive x heads
    /// for the page on the right). On the drag axis (or, when nothing moved yet, the velocity's dominant axis):
    /// when |v| >= 0.1 the target is the neighbour in the direction of sign(v), the first slot strictly beyond
    /// the offset on that side (floor(g) + 1 when v > 0, ceil(g) - 1 when v < 0, g the offset in page units;
    /// the start page's neighbour when the offset rests on it), provided that slot shows a page. Otherwise the
    /// target is the page nearest the offset.
    public func release(velocity: (vx: Double, vy: Double)) -> DragRelease {
        let vx = velocity.vx.isFinite ? velocity.vx : 0
        let vy = velocity.vy.isFinite ? velocity.vy : 0
        let axis = self.axis ?? (abs(vx) >= abs(vy) ? .horizontal : .vertical)
        let v = axis == .horizontal ? vx : vy
        if abs(v) >= Self.flingThreshold {
            let length = axis == .horizontal ? pageSize.width : pageSize.height
            let along = axis == .horizontal ? contentOffset.x : contentOffset.y
            let g = PageMath.gridCoordinate(forOffset: along, pageLength: length)
            let index = PageMath.clampedSlot(v > 0 ? g.rounded(.down) + 1 : g.rounded(.up) - 1)
            let slot = start.moved(by: index - start.coordinate(along: axis), along: axis)
            if let page = layout.position(atSlot: slot) {
                return DragRelease(position: page, slot: slot, contentOffset: offset(ofSlot: slot), flung: true)
            }
        }
        let slot = nearestSlot
        return DragRelease(position: nearestPosition, slot: slot, contentOffset: offset(ofSlot: slot), flung: false)
    }

    private func offset(ofSlot slot: Cell) -> Point {
        layout.contentOffset(ofSlot: slot, pageSize: pageSize)
    }

    private mutating func lock(_ newAxis: PageAxis) {
        axis = newAxis
        let run = layout.accessibleRun(through: start, along: newAxis)
        let length = newAxis == .horizontal ? pageSize.width : pageSize.height
        lowerBound = run.lower.map { Double($0) * length }
        upperBound = run.upper.map { Double($0) * length }
    }

    private func clamped(_ value: Double) -> Double {
        var result = value
        if let lowerBound { result = max(result, lowerBound) }
        if let upperBound { result = min(result, upperBound) }
        return result
    }
}
