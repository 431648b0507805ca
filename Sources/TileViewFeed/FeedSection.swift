import TileViewCore

/// One section of a vertical feed: a coloured header, a grid of thumbnails, or an image at the viewport width.
///
/// A section is only its geometry: the image's pixel size and the grid's item count come from whoever read the
/// files (see `FeedSectionSpec`). `FeedLayout` stacks sections top to bottom, each as wide as the viewport:
/// - `header`: `height` viewport pixels of one colour;
/// - `grid`: `itemCount` items in rows of `columns` near-square cells (`FeedGridGeometry` has the exact rects);
/// - `image`: the image scaled to the viewport width, `height = round(w * H / W)` (see `height(atViewportWidth:)`).
///
/// Values outside the sensible range are clamped by the layout, never rejected (`FeedLayout` lists the limits).
public enum FeedSection: Hashable, Sendable {
    /// A band of `height` viewport pixels filled with `colour`.
    case header(height: Int, colour: RGBA8)
    /// A folder of `itemCount` images shown as thumbnails, `columns` per row.
    case grid(itemCount: Int, columns: Int)
    /// One image of `pixelSize` (image space, after orientation), laid out at the viewport width.
    case image(pixelSize: PixelSize)
}

extension FeedSection: CustomStringConvertible {
    public var description: String {
        switch self {
        case .header(let height, let colour): "header \(height) #\(colour)"
        case .grid(let itemCount, let columns): "grid \(itemCount) items in \(columns) columns"
        case .image(let pixelSize): "image \(pixelSize)"
        }
    }
}
