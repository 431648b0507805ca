import TileViewCore
import TileViewPaging

/// Level pixels of one page that a frame needs: the tiles that meet `rect` at `level`.
public struct PageRegionRequest: Hashable, Sendable {
    public let position: PageMap.Cell
    public let level: Int
    public let rect: PixelRect

    public init(position: PageMap.Cell, level: Int, rect: PixelRect) {
        self.position = position
        self.level = level
        self.rect = rect
    }
}
