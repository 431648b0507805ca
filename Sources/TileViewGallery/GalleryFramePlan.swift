import TileViewCore
import TileViewPaging
import TileViewZoom

/// Everything about one output frame that is known without decoding a pixel: the step that made it, the pager's
/// resident set and its diff, and where each visible page is drawn at which zoom.
public struct GalleryFramePlan: Hashable, Sendable {
    public typealias Cell = PageMap.Cell

    /// The frame's index: frame-0000 is 0, the initial view.
    public let index: Int
    /// The step that made the frame; nil for the initial view.
    public let action: GalleryAction?
    /// Set on the frames between two pages.
    public let transition: GalleryTransition?
    /// The current page: the page nearest the content offset (docs/design.md: floor((2x + pw) / (2pw)) on each axis).
    public let position: Cell
    /// The resident set, in page order: the pager's set around `position` (so every page shown is resident).
    public let resident: [Cell]
    /// Pages that entered (loaded) and left (evicted) the resident set since the frame before.
    public let loaded: [Cell]
    public let evicted: [Cell]
    /// The visible pages, in slot order.
    public let placements: [PagePlacement]
    /// The current page's zoom state.
    public let zoom: ZoomState
}
