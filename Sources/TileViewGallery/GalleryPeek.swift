import TileViewCore
import TileViewPaging

/// `PeekLayout` in whole pixels: where pages sit in the frame, each page's frame snapped to the pixel grid.
///
/// The peek and the gap are whole pixels, clamped as `PeekLayout` clamps them but rounding down, so that the
/// page slot (w - 2P) and each page's frame (w - 2P - G across, h down, for the horizontal axis) are whole
/// pixels: P is kept in [0, floor(L/4)] and G in [0, floor((L - 2P)/2)], L the viewport's length on the axis.
/// A page's frame has that fixed size; its origin, which `PeekLayout` gives as a real number (transition and
/// drag offsets are fractions of a page), is rounded to the nearest pixel, halves upwards. So a page is always
/// drawn into a frame of the same size, at its own zoom state, exactly as `tileview zoom` draws that page in a
/// viewport of the frame's size, and then clipped to the frame.
public struct GalleryPeek: Hashable, Sendable {
    public typealias Cell = PageMap.Cell

    /// The layout in points, with the whole-pixel peek and gap.
    public let layout: PeekLayout
    /// The size of every page's frame.
    public let pageFrameSize: PixelSize

    public init(viewport: PixelSize, peek: Int, gap: Int, axis: PageAxis) {
        let length = axis == .horizontal ? viewport.width : viewport.height
        let p = min(max(peek, 0), max(length, 0) / 4)
        let pageLength = length - 2 * p
        let g = min(max(gap, 0), max(pageLength, 0) / 2)
        layout = PeekLayout(viewportSize: viewport.asSize, peek: Double(p), gap: Double(g), axis: axis)
        switch axis {
        case .horizontal: pageFrameSize = PixelSize(width: pageLength - g, height: viewport.height)
        case .vertical: pageFrameSize = PixelSize(width: viewport.width, height: pageLength - g)
        }
    }

    public var axis: PageAxis { layout.axis }
    /// The clamped peek P in pixels.
    public var peek: Int { Int(layout.peek) }
    /// The clamped gap G in pixels.
    public var gap: Int { Int(layout.gap) }

    /// The content offset showing `slot` at rest.
    public func contentOffset(ofSlot slot: Cell) -> Point { layout.contentOffset(ofSlot: slot) }

    /// The page frame of `slot` at a content offset, snapped to whole pixels (see the type's summary).
    public func frame(ofSlot slot: Cell, atContentOffset offset: Point) -> PixelRect {
        snapped(layout.frame(ofSlot: slot, atContentOffset: offset))
    }

    /// The pages visible at a content offset with their snapped frames; pages whose snapped frame misses the
    /// viewport are left out.
    public func visiblePages(atContentOffset offset: Point, in pages: PageLayout) -> [(
        page: VisiblePage, frame: PixelRect
    )] {
        let viewport = PixelRect(
            size: PixelSize(truncating: layout.viewportSize))
        return layout.visiblePages(atContentOffset: offset, in: pages).compactMap { page in
            let frame = snapped(page.frame)
            return frame.intersection(viewport) == nil ? nil : (page, frame)
        }
    }

    private func snapped(_ frame: Rect) -> PixelRect {
        PixelRect(
            x: Int((frame.minX + 0.5).rounded(.down)), y: Int((frame.minY + 0.5).rounded(.down)),
            width: pageFrameSize.width, height: pageFrameSize.height)
    }
}
