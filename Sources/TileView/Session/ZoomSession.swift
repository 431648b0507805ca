import TileViewCodecs
import TileViewCore
import TileViewZoom

/// One image being looked at: its zoom state, changed gesture by gesture, and the frame it shows.
///
/// `tileview zoom` (`ZoomJob`) and a server's image view are both this: the state starts at fit, each gesture
/// applies in order (DESIGN section 3), and a frame is `TiledImage.render` of the state encoded by
/// `ImageFiles.encodePNG`. So the same gestures on the same file give the same PNG bytes wherever they run.
/// Not thread-safe: one session is used from one thread at a time.
public final class ZoomSession {
    public let image: TiledImage
    public let background: RGBA8
    public private(set) var state: ZoomState

    /// A session at fit for `viewport`.
    public init(
        image: TiledImage, viewport: PixelSize, maximumScale: Double = 1, doubleTapStep: Double = 1.5,
        background: RGBA8 = .black
    ) {
        self.image = image
        self.background = background
        state = ZoomState(
            imageSize: image.imageSize.asSize, viewportSize: viewport.asSize, maximumScaleSetting: maximumScale,
            doubleTapStep: doubleTapStep)
    }

    /// Applies one gesture to the state.
    public func apply(_ gesture: ZoomGesture) { state.apply(gesture) }

    /// The level of detail the current state is drawn from (DESIGN section 7).
    public var level: Int { image.pyramid.level(forZoomScale: state.zoomScale) }

    /// What the viewport shows now.
    public func render() throws(TileViewError) -> RenderedFrame {
        try image.render(state, background: background)
    }

    /// What the viewport shows now, as the PNG file `tileview zoom` writes.
    public func renderPNG() throws(TileViewError) -> [UInt8] {
        try ImageFiles.encodePNG(try render().image, naming: image.path)
    }
}
