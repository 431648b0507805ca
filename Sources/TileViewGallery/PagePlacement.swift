import TileViewCore
import TileViewPaging
import TileViewZoom

/// One page drawn in a planned frame: which page, which slot of the content plane, its frame and its zoom.
public struct PagePlacement: Hashable, Sendable {
    public let position: PageMap.Cell
    public let slot: PageMap.Cell
    /// The page's frame in viewport pixels (it may reach past the viewport's edges; drawing clips it).
    public let frame: PixelRect
    /// The page's zoom state; its viewport is the frame's size.
    public let zoom: ZoomState
}
