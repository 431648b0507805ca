import TileViewCore

/// Decoded level pixels of one page: `buffer` holds at least the requested rect, its top left being level pixel
/// (`originX`, `originY`).
public struct DecodedPageRegion: Sendable {
    public let buffer: ImageBuffer
    public let originX: Int
    public let originY: Int

    public var byteCount: Int { buffer.byteCount }
}
