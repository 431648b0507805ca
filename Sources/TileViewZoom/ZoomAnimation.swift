import TileViewCore

/// UIKit's animated zoom (docs/design.md section 12): double taps, two-finger taps and zoom-to move over 0.3 s.
///
/// The model: between the state before the gesture (scale s0, visible rect centre c0) and the state after it (s1,
/// c1), the frame at time t in [0, 1] (a fraction of the duration) has the eased progress e = smoothstep(t) =
/// t*t*(3 - 2t), the scale s0 * (s1/s0)^e (geometric, so that each frame zooms by the same factor at constant
/// speed) and shows the image point c0 + (c1 - c0)*e at the viewport centre, then clamp and centre: every frame is
/// a valid state. With `fps` frames per second there are max(1, round(0.3 * fps)) frames, at t = k / frameCount
/// for k = 1...frameCount; the last is the state after the gesture exactly.
public enum ZoomAnimation {
    /// The duration of an animated zoom, in seconds.
    public static let duration = 0.3

    /// The default frame rate (`--fps`).
    public static let defaultFramesPerSecond = 60.0

    /// The largest frame rate accepted, one frame per millisecond (the step of the deceleration model).
    public static let largestFramesPerSecond = 1000.0

    /// The frame rate made usable: NaN becomes `defaultFramesPerSecond`, the rest is clamped to
    /// `[0, largestFramesPerSecond]` (0 or less asks for the end state only).
    public static func guardedFramesPerSecond(_ fps: Double) -> Double {
        guard !fps.isNaN else { return defaultFramesPerSecond }
        return min(max(fps, 0), largestFramesPerSecond)
    }

    /// max(1, round(0.3 * fps)): 9 frames at 30 fps, 18 at 60, 36 at 120.
    public static func frameCount(fps: Double) -> Int {
        max(1, Int((duration * guardedFramesPerSecond(fps)).rounded()))
    }

    /// The easing: smoothstep(t) = t*t*(3 - 2t) for t clamped to [0, 1].
    public static func easing(_ t: Double) -> Double {
        ZoomMath.smoothstep(t)
    }

    /// Whether `end` is `start` after a zoom that can be animated: the same image, rotation, viewport and
    /// settings, so that only the scale and the offset differ.
    public static func canAnimate(from start: ZoomState, to end: ZoomState) -> Bool {
        start.unrotatedImageSize == end.unrotatedImageSize && start.rotation == end.rotation
            && start.viewportSize == end.viewportSize && start.maximumScaleSetting == end.maximumScaleSetting
            && start.doubleTapStep == end.doubleTapStep
    }

    /// The frames of the animated zoom from `start` to `end` at `fps` frames per second (see the type's model):
    /// `frameCount(fps:)` valid states, the last equal to `end` exactly. The scale moves monotonically from
    /// s0 towards s1 (a frame never steps back, even by a rounding error). When `end` is not a zoom of `start`
    /// (`canAnimate` is false) the only frame is `end`.
    public static func frames(from start: ZoomState, to end: ZoomState, fps: Double) -> [ZoomState] {
        guard canAnimate(from: start, to: end) else { return [end] }
        let count = frameCount(fps: fps)
        var frames: [ZoomState] = []
        frames.reserveCapacity(count)
        var previousScale = start.zoomScale
        let growing = end.zoomScale >= start.zoomScale
        for k in 1..<count {
            var (scale, center) = target(from: start, to: end, at: Double(k) / Double(count))
            // Rounding in the power could step back by an ulp where s1/s0 is within a hair of 1.
            scale = growing ? max(scale, previousScale) : min(scale, previousScale)
            previousScale = scale
            frames.append(start.placing(imagePoint: center, at: scale))
        }
        frames.append(end)
        return frames
    }

    /// The state at time `t` (a fraction of the duration, clamped to [0, 1]) of the animated zoom from `start` to
    /// `end`: scale s0 * (s1/s0)^e and visible centre c0 + (c1 - c0)*e with e = smoothstep(t), clamped and
    /// centred. t = 1 gives `end`'s scale and centre (computed, so within rounding of `end`; `frames` ends with
    /// `end` itself).
    public static func state(from start: ZoomState, to end: ZoomState, at t: Double) -> ZoomState {
        let (scale, center) = target(from: start, to: end, at: t)
        return start.placing(imagePoint: center, at: scale)
    }

    /// The scale and the image point for the viewport centre at time `t`, before clamping the offset; the scale
    /// lies between s0 and s1.
    static func target(from start: ZoomState, to end: ZoomState, at t: Double) -> (scale: Double, center: Point) {
        let e = easing(t)
        let s0 = start.zoomScale
        let s1 = end.zoomScale
        let scale = min(max(s0 * ZoomMath.pow(s1 / s0, e), min(s0, s1)), max(s0, s1))
        let c0 = start.visibleRect.center
        let c1 = end.visibleRect.center
        return (scale, Point(x: c0.x + (c1.x - c0.x) * e, y: c0.y + (c1.y - c0.y) * e))
    }
}

extension ZoomGesture {
    /// Whether UIKit animates the gesture's zoom: double tap, two-finger tap and zoom-to do; pinch, pan, fling
    /// (which has its own motion, see `ZoomDeceleration`) and rotate do not.
    public var isAnimatable: Bool {
        switch self {
        case .doubleTap, .twoFingerTap, .zoomTo: true
        case .pinch, .pan, .fling, .rotate: false
        }
    }
}

extension ZoomState {
    /// The frames of `gesture` at `fps` frames per second: the animated zoom's frames for an animatable gesture
    /// (see `ZoomAnimation`), otherwise the one state after the gesture. The last frame is always the state that
    /// `apply(gesture)` gives.
    public func animationFrames(applying gesture: ZoomGesture, fps: Double) -> [ZoomState] {
        var end = self
        end.apply(gesture)
        return gesture.isAnimatable ? ZoomAnimation.frames(from: self, to: end, fps: fps) : [end]
    }

    /// This state at `scale` (clamped) with `imagePoint` at the viewport centre, clamped and centred.
    func placing(imagePoint: Point, at scale: Double) -> ZoomState {
        var state = self
        state.zoom(toScale: scale, placingImagePoint: imagePoint, atViewportPoint: viewportCenter)
        return state
    }
}
