import TileViewCore

/// The zoom and scroll state of one image in one viewport, with UIScrollView's semantics (docs/design.md section 3).
///
/// The model: an image of `imageSize` (image space: after orientation and rotation) is drawn at `zoomScale` as
/// content of `contentSize = imageSize * zoomScale`. The viewport of `viewportSize` shows that content scrolled by
/// `contentOffset` (content space). On an axis where the content is smaller than the viewport the content is
/// centred and the offset on that axis is 0; otherwise the offset lies in `[0, contentSize - viewportSize]`.
///
/// - `minimumZoomScale` is the fit scale, `min(w/W, h/H)`: the whole image visible, touching two edges.
/// - `maximumZoomScale` is `max(M, fit)` for the setting M (`--max-scale`, default 1: one image pixel per
///   viewport pixel), so a small image may still be shown at its fit scale.
/// - A new state starts at the minimum scale, centred.
///
/// Rotation (docs/design.md section 12): the image may be turned clockwise by quarter turns (`rotation`). The engine
/// then zooms the rotated image: `imageSize` is the rotated size (width and height of `unrotatedImageSize` swapped for
/// 90 and 270 degrees) and "image space" everywhere in the engine (`imagePoint(atViewportPoint:)`, `visibleRect`,
/// `zoom(toImageRect:)`, the snapshot's `image`) means the rotated image. `ZoomState+Rotation.swift` maps between
/// it and the unrotated image, which is what a renderer reads pixels from.
///
/// Every gesture (`zoom(toImageRect:)`, `doubleTap(atViewportPoint:)`, `twoFingerTap()`,
/// `pinch(by:aboutViewportPoint:)`, `pan(byViewportDelta:)`, `pan(byViewportDelta:velocity:)`,
/// `rotate(quarterTurns:)`) ends by clamping the scale and then clamping and centring the offset, so the state is
/// always valid; engines clamp, they never throw or trap.
///
/// Degenerate input is clamped at the door (see `ZoomState+InputGuards.swift`):
/// - an image or viewport dimension that is NaN, zero, negative or below 1 becomes 1; +infinity and values above
///   `ZoomState.largestDimension` (2^32) become that limit;
/// - a NaN or infinite `maximumScaleSetting` becomes the default 1, otherwise it is clamped to
///   `[0, largestScaleSetting]` (anything at or below the fit scale means "no zoom past fit");
/// - a NaN `doubleTapStep` becomes the default 1.5, otherwise it is clamped to `[1, largestScaleSetting]`
///   (a step of 1 makes both taps change nothing but the position).
public struct ZoomState: Hashable, Sendable {
    /// Size of the whole unrotated image (pixels of the oriented image, docs/design.md section 2), after the input
    /// guards.
    public let unrotatedImageSize: Size
    /// Size of the viewport in viewport pixels, after the input guards.
    public let viewportSize: Size
    /// M: the requested largest scale (`--max-scale`); the effective limit is `maximumZoomScale`.
    public let maximumScaleSetting: Double
    /// k: the factor a double tap zooms in by and a two-finger tap zooms out by.
    public let doubleTapStep: Double

    /// Viewport pixels per image pixel, always in `[minimumZoomScale, maximumZoomScale]`.
    public internal(set) var zoomScale: Double
    /// How far the content is scrolled, in content space; 0 on centred axes, else in `[0, contentOffsetLimit]`.
    public internal(set) var contentOffset: Point
    /// How the image is turned; `upright` unless a `rotate` gesture turned it.
    public internal(set) var rotation: ZoomRotation

    /// A state at the minimum (fit) scale, centred, for an upright image of `imageSize` (image space, after EXIF
    /// orientation) shown in a viewport of `viewportSize`.
    public init(
        imageSize: Size, viewportSize: Size, maximumScaleSetting: Double = 1.0, doubleTapStep: Double = 1.5
    ) {
        self.init(
            unrotatedImageSize: imageSize, rotation: .upright, viewportSize: viewportSize,
            maximumScaleSetting: maximumScaleSetting, doubleTapStep: doubleTapStep)
    }

    /// A state at the minimum (fit) scale, centred, for an image of `unrotatedImageSize` (after EXIF orientation)
    /// turned by `rotation` and shown in a viewport of `viewportSize`. Its `imageSize` is the rotated size.
    public init(
        unrotatedImageSize: Size, rotation: ZoomRotation, viewportSize: Size, maximumScaleSetting: Double = 1.0,
        doubleTapStep: Double = 1.5
    ) {
        self.unrotatedImageSize = Self.guardedSize(unrotatedImageSize)
        self.viewportSize = Self.guardedSize(viewportSize)
        self.maximumScaleSetting = Self.guardedMaximumScaleSetting(maximumScaleSetting)
        self.doubleTapStep = Self.guardedDoubleTapStep(doubleTapStep)
        self.rotation = rotation
        self.zoomScale = 1
        self.contentOffset = .zero
        self.zoomScale = minimumZoomScale
        settleContentOffset()
    }

    /// Size of the whole image being zoomed, in image space: the unrotated size turned by `rotation` (width and
    /// height swapped for 90 and 270 degrees). Every zoom formula (fit, limits, offsets, frames) uses this size.
    public var imageSize: Size { rotation.rotatedSize(unrotatedImageSize) }

    /// The fit scale: min(w/W, h/H), at which the whole image is visible.
    public var minimumZoomScale: Double {
        min(viewportSize.width / imageSize.width, viewportSize.height / imageSize.height)
    }

    /// max(M, fit): the largest scale gestures reach.
    public var maximumZoomScale: Double {
        max(maximumScaleSetting, minimumZoomScale)
    }
}

extension ZoomState: CustomStringConvertible {
    public var description: String {
        "ZoomState(image \(imageSize), viewport \(viewportSize), scale \(zoomScale) in [\(minimumZoomScale), "
            + "\(maximumZoomScale)], offset \(contentOffset), k \(doubleTapStep)"
            + (rotation == .upright ? ")" : ", turned \(rotation))")
    }
}
