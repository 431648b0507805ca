import TileViewCore

/// How a gallery is shown: the viewport, peeking neighbours, transition frames and the zoom limits of each page.
public struct GallerySettings: Hashable, Sendable {
    /// The frame size in pixels.
    public var viewport: PixelSize
    /// P: how many pixels of each neighbour show at the sides (`--peek`), before clamping (see `GalleryPeek`).
    public var peek: Int
    /// G: the gap between neighbouring pages (`--gap`), before clamping.
    public var gap: Int
    /// N: the eased frames drawn between two pages (`--transition-frames`).
    public var transitionFrames: Int
    /// M: the largest zoom scale setting of every page (`--max-scale`).
    public var maximumScale: Double
    /// k: the double-tap step of every page.
    public var doubleTapStep: Double

    public init(
        viewport: PixelSize, peek: Int = 0, gap: Int = 0, transitionFrames: Int = 0, maximumScale: Double = 1,
        doubleTapStep: Double = 1.5
    ) {
        self.viewport = viewport
        self.peek = peek
        self.gap = gap
        self.transitionFrames = transitionFrames
        self.maximumScale = maximumScale
        self.doubleTapStep = doubleTapStep
    }
}
