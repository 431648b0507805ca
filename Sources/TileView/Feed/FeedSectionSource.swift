import TileViewCodecs
import TileViewCore
import TileViewFeed

/// What a feed section draws from, once its files are found: a colour, a folder of images, or one image.
///
/// Made from a `FeedSectionSpec` before any frame is rendered, so that a wrong path stops the command before
/// it writes anything: an image's header is read (it gives the section's height), a grid's folder is listed
/// (it gives the item count); no pixel is decoded.
public enum FeedSectionSource {
    /// A band of one colour.
    case header(height: Int, colour: RGBA8)
    /// Thumbnails of the folder's images in natural order, `columns` per row.
    case grid(ImageFolder, columns: Int)
    /// One image at the viewport width.
    case image(FeedImageSection)

    /// Resolves `spec` for a feed of `viewportSize`.
    public init(spec: FeedSectionSpec, viewportSize: PixelSize, options: DecodeOptions) throws(TileViewError) {
        switch spec.kind {
        case .header(let height, let colour):
            self = .header(height: height, colour: colour)
        case .grid(let columns):
            self = .grid(try ImageFolder(path: spec.path ?? ""), columns: columns)
        case .image:
            self = .image(try FeedImageSection(path: spec.path ?? "", viewportSize: viewportSize, options: options))
        }
    }

    /// The section's geometry for `FeedLayout`.
    public var section: FeedSection {
        switch self {
        case .header(let height, let colour): .header(height: height, colour: colour)
        case .grid(let folder, let columns): .grid(itemCount: folder.count, columns: columns)
        case .image(let image): .image(pixelSize: image.image.imageSize)
        }
    }
}
