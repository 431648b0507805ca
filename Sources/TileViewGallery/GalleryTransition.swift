import TileViewCore
import TileViewPaging

/// A frame between two pages of an animated move or a drag's settling: frame `index` of `count`, at `fraction`
/// of the way (eased).
public struct GalleryTransition: Hashable, Sendable {
    public let index: Int
    public let count: Int
    public let fraction: Double
    /// The page the transition leaves and the page it arrives at.
    public let from: PageMap.Cell
    public let to: PageMap.Cell
}
