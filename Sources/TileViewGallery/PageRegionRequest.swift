import TileViewCore
import TileViewPaging
import TileViewZoom

/// What of one page a frame needs: the level pixels of the tiles that meet `rect` at `level` (of the page's image
/// turned by `turns` clockwise quarter turns, its zoom state's rotation), or, for a page whose content draws
/// itself (a scene), the page's whole frame rendered at its zoom state (`rendering`; `level` and `rect` unused).
public struct PageRegionRequest: Hashable, Sendable {
    public let position: PageMap.Cell
    public let level: Int
    public let rect: PixelRect
    /// Clockwise quarter turns of the image the level pixels belong to (0 to 3).
    public let turns: Int
    /// Set when the page is rendered whole by its content.
    public let rendering: Rendering?

    /// A page frame to render: the page's zoom state (whose viewport is the page frame) over a background.
    public struct Rendering: Hashable, Sendable {
        /// The page's zoom state; its viewport is the page frame's size.
        public let zoom: ZoomState
        /// What shows where the content does not cover the page frame.
        public let background: RGBA8

        public init(zoom: ZoomState, background: RGBA8) {
            self.zoom = zoom
            self.background = background
        }
    }

    public init(position: PageMap.Cell, level: Int, rect: PixelRect, turns: Int = 0) {
        self.position = position
        self.level = level
        self.rect = rect
        self.turns = turns
        self.rendering = nil
    }

    public init(position: PageMap.Cell, rendering: Rendering) {
        self.position = position
        self.level = 0
        self.rect = PixelRect(x: 0, y: 0, width: 0, height: 0)
        self.turns = rendering.zoom.rotation.quarterTurns
        self.rendering = rendering
    }
}
