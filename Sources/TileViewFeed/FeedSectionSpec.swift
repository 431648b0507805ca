import TileViewCore

/// A section as written on the command line, before any file is read: its kind and the path it names.
///
/// Text forms (see `init(parsing:)`): `image:PATH`, `grid:DIR:COLUMNS`, `header:HEIGHT[:RRGGBB]`. The spec does no
/// I/O: the caller resolves `path`, reads the image's size or counts the folder's images, then asks for the
/// `FeedSection` with `section(imagePixelSize:gridItemCount:)`.
public struct FeedSectionSpec: Hashable, Sendable, CustomStringConvertible {
    /// What the section is, with the settings the text gives.
    public enum Kind: Hashable, Sendable {
        /// An image laid out at the viewport width; `path` names the file.
        case image
        /// A grid of thumbnails, `columns` per row; `path` names the folder.
        case grid(columns: Int)
        /// A band of `height` pixels of `colour`; no path.
        case header(height: Int, colour: RGBA8)
    }

    /// The kind and its settings.
    public let kind: Kind
    /// The image file or grid folder exactly as written (relative paths stay relative); nil for a header.
    public let path: String?

    /// The colour of a header written without one: mid grey, `808080`, visible on the default black background
    /// and against white photos alike.
    public static let defaultHeaderColour = RGBA8(r: 0x80, g: 0x80, b: 0x80)

    public init(kind: Kind, path: String?) {
        self.kind = kind
        self.path = path
    }

    /// The section once the caller knows the files: `imagePixelSize` is the image's size after orientation
    /// (used by `image:` only), `gridItemCount` the number of images in the folder (used by `grid:` only).
    public func section(imagePixelSize: PixelSize = PixelSize(width: 1, height: 1), gridItemCount: Int = 0)
        -> FeedSection
    {
        switch kind {
        case .image: .image(pixelSize: imagePixelSize)
        case .grid(let columns): .grid(itemCount: gridItemCount, columns: columns)
        case .header(let height, let colour): .header(height: height, colour: colour)
        }
    }

    /// The text form, which `init(parsing:)` reads back to the same spec.
    public var description: String {
        switch kind {
        case .image: "image:\(path ?? "")"
        case .grid(let columns): "grid:\(path ?? ""):\(columns)"
        case .header(let height, let colour): "header:\(height):\(colour)"
        }
    }
}
