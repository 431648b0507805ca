import TileViewCore
import TileViewPaging
import TileViewZoom

/// The zoom state of each resident page: kept while the page is resident, forgotten when it is evicted.
///
/// A page without a stored state is at fit (a new `ZoomState`, centred at the minimum scale), so a page that
/// leaves the resident set and comes back starts at fit again, while a page that stays resident keeps its zoom
/// and offset however often the viewer pages away from it and back. Each state's viewport is the page's frame
/// size; when that size changes (a map with peeking neighbours turns to the other axis, so the page frame is
/// inset on the other axis), a page at fit stays at fit and a zoomed page zooms to the rect it showed.
public struct PageZoomStates: Hashable, Sendable {
    public typealias Cell = PageMap.Cell

    private var states: [Cell: ZoomState] = [:]
    public let maximumScale: Double
    public let doubleTapStep: Double

    public init(maximumScale: Double = 1, doubleTapStep: Double = 1.5) {
        self.maximumScale = maximumScale
        self.doubleTapStep = doubleTapStep
    }

    /// The pages with a stored (non-fit) state, in page order.
    public var storedPositions: [Cell] { states.keys.sorted() }

    /// The state stored for the page at `position` (nil: it is at fit).
    public func stored(at position: Cell) -> ZoomState? { states[position] }

    /// The state of the page at `position` for an image of `imageSize` (upright) in a frame of `frameSize`; a
    /// stored state keeps its rotation while the page is resident.
    public func state(at position: Cell, imageSize: Size, frameSize: Size) -> ZoomState {
        let fit = ZoomState(
            imageSize: imageSize, viewportSize: frameSize, maximumScaleSetting: maximumScale,
            doubleTapStep: doubleTapStep)
        guard let stored = states[position] else { return fit }
        if stored.viewportSize == fit.viewportSize && stored.unrotatedImageSize == fit.imageSize { return stored }
        // Another frame size (or image): keep the page's turn and what it showed, as far as the new frame allows.
        let turnedFit = ZoomState(
            unrotatedImageSize: imageSize, rotation: stored.rotation, viewportSize: frameSize,
            maximumScaleSetting: maximumScale, doubleTapStep: doubleTapStep)
        guard stored.zoomScale > stored.minimumZoomScale else { return turnedFit }
        var refitted = turnedFit
        refitted.zoom(toImageRect: stored.visibleRect)
        return refitted
    }

    /// Stores the state of the page at `position` (after a gesture).
    public mutating func set(_ state: ZoomState, at position: Cell) {
        states[position] = state
    }

    /// Forgets the states of evicted pages: they start at fit when they come back.
    public mutating func forget(_ positions: some Sequence<Cell>) {
        for position in positions { states[position] = nil }
    }
}
