import TileViewCore

/// Decoded level pixels of one page: `buffer` holds at least the requested rect, its top left being level pixel
/// (`originX`, `originY`). Or, for a page streamed straight from its decoder, the part of the frame the page's
/// draw covers, already rendered (`isRenderedPart`): then no region was held.
public struct DecodedPageRegion: Sendable {
    public let buffer: ImageBuffer
    public let originX: Int
    public let originY: Int
    /// Whether `buffer` is the draw's part of the frame, rendered by the worker from the decoder's rows.
    public let isRenderedPart: Bool
    /// Decoded level pixels held to make it: the region itself, or for a rendered part the decoder's ring of
    /// rows (its largest holding while it ran).
    public let byteCount: Int

    /// A decoded region.
    init(buffer: ImageBuffer, originX: Int, originY: Int) {
        self.buffer = buffer
        self.originX = originX
        self.originY = originY
        isRenderedPart = false
        byteCount = buffer.byteCount
    }

    /// A part rendered straight from the decoder, which held `decodedBytes` while it ran.
    init(renderedPart: ImageBuffer, decodedBytes: Int) {
        buffer = renderedPart
        originX = 0
        originY = 0
        isRenderedPart = true
        byteCount = decodedBytes
    }
}
