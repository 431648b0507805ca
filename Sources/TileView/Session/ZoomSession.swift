import TileViewCodecs
import TileViewCore
import TileViewZoom

/// One image (or scene) being looked at: its zoom state, changed gesture by gesture, and the frame it shows.
///
/// `tileview zoom` (`ZoomJob`) and a server's image view are both this: the state starts at fit, each gesture
/// applies in order (docs/design.md section 3), and a frame is the content's render of the state encoded by
/// `ImageFiles.encodePNG`. So the same gestures on the same file give the same PNG bytes wherever they run.
///
/// Motion (docs/design.md section 12): `motion(applying:)` gives the frames a gesture moves through (an animated zoom,
/// a fling's deceleration and bounce) and `render(_:)` draws any of them; applying the gesture gives the state of
/// the last one. A turned state (`rotate`) is drawn from the content turned by as many quarter turns, opened once
/// per turn and kept. Not thread-safe: one session is used from one thread at a time.
public final class ZoomSession {
    /// What is zoomed, upright: an image file or a scene.
    public let image: any ZoomContent
    public let background: RGBA8
    /// How image pixels are resampled (`automatic`: smooth; `nearest`: sharp squares past 1:1).
    public let filter: ResampleFilter
    public private(set) var state: ZoomState
    /// The content turned by 1, 2 and 3 quarter turns, opened when first drawn.
    private var turned: [ZoomRotation: any ZoomContent] = [:]

    /// A session at fit for `view`'s viewport, with its largest scale, double-tap step, background and filter (its
    /// decode options are the opener's: `image` is open already).
    public init(image: any ZoomContent, view: ViewSettings) {
        self.image = image
        background = view.background
        filter = view.filter
        state = ZoomState(
            imageSize: image.contentSize, viewportSize: view.viewport.asSize, maximumScaleSetting: view.maximumScale,
            doubleTapStep: view.doubleTapStep)
    }

    /// Moves the state to `place` (one read back from a view token, see `ZoomState.restored`), opening the content
    /// turned as it is; an input error when it is no state this image and viewport can have.
    public func restore(_ place: ZoomPlace) throws(TileViewError) {
        guard let restored = state.restored(place) else {
            throw TileViewError(.input, path: "\(place)", reason: "is no zoom state of this image in this viewport")
        }
        _ = try content(for: restored.rotation)
        state = restored
    }

    /// Applies one gesture to the state. A rotation of content that cannot turn (a scene) is refused before the
    /// state changes.
    public func apply(_ gesture: ZoomGesture) throws(TileViewError) {
        try openTurn(of: gesture)
        state.apply(gesture)
    }

    /// The frames `gesture` moves through from the current state at `fps` (see `ZoomState.motion`); the state is
    /// not changed. The last frame's state is what `apply(gesture)` gives.
    public func motion(applying gesture: ZoomGesture, fps: Double, bounce: Bool) throws(TileViewError) -> ZoomMotion {
        try openTurn(of: gesture)
        return state.motion(applying: gesture, fps: fps, bounce: bounce)
    }

    /// Sets the state to the end of a motion made by `motion(applying:)`.
    public func finish(_ motion: ZoomMotion) { state = motion.finalState }

    /// The level of detail the current state is drawn from (docs/design.md section 7).
    public var level: Int { image.level(forZoomScale: state.zoomScale) }

    /// What the viewport shows now.
    public func render() throws(TileViewError) -> RenderedFrame {
        try render(ZoomMotionFrame(time: 0, state: state))
    }

    /// What the viewport shows at one frame of a motion.
    public func render(_ frame: ZoomMotionFrame) throws(TileViewError) -> RenderedFrame {
        try content(for: frame.state.rotation).render(
            frame.state, displacedBy: frame.overscroll, background: background, filter: filter)
    }

    /// What the viewport shows now, as the PNG file `tileview zoom` writes.
    public func renderPNG() throws(TileViewError) -> [UInt8] {
        try renderFramePNG().png
    }

    /// What the viewport shows now and its PNG file (encoded while it is drawn where the content can).
    public func renderFramePNG() throws(TileViewError) -> (frame: RenderedFrame, png: [UInt8]) {
        try content(for: state.rotation).renderPNG(
            state, displacedBy: .zero, background: background, filter: filter)
    }

    /// What decoding the frame `renderFramePNG` draws now holds at its peak (`ZoomContent.decodePeakBytes(for:)`
    /// of the content as turned now); the image's bound where the turned content cannot be opened (the render then
    /// fails the same way).
    public var frameDecodePeakBytes: Int {
        guard let content = try? content(for: state.rotation) else { return image.decodePeakBytes }
        return content.decodePeakBytes(for: state)
    }

    /// The level pixels the frame `renderFramePNG` draws now reads at once (`ZoomContent.frameSourceBytes(for:)`);
    /// nil where only the viewport's bound is known.
    public var frameSourceBytes: Int? { (try? content(for: state.rotation))?.frameSourceBytes(for: state) }

    /// Opens the content a rotation gesture turns to, so that content which cannot turn refuses it first.
    private func openTurn(of gesture: ZoomGesture) throws(TileViewError) {
        if case .rotate(let turns) = gesture { _ = try content(for: state.rotation.turned(by: turns)) }
    }

    /// The content as turned by `rotation`.
    private func content(for rotation: ZoomRotation) throws(TileViewError) -> any ZoomContent {
        if rotation == .upright { return image }
        if let content = turned[rotation] { return content }
        let content = try image.rotated(clockwiseQuarterTurns: rotation.quarterTurns)
        turned[rotation] = content
        return content
    }
}
