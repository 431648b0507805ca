import TileViewCore

/// One frame of a motion: a valid state, and how far the drawn content is displaced past the content's edge.
public struct ZoomMotionFrame: Hashable, Sendable {
    /// Milliseconds since the motion began: since the finger lifted for a fling, since the tap for an animated
    /// zoom.
    public var time: Double
    /// The state shown, always valid (clamped and centred); during a bounce, the state at the edge.
    public var state: ZoomState
    /// Viewport pixels by which the drawn image is displaced from `state.imageFrame` while it bounces past an
    /// edge, to be added to the image frame's origin: positive x when the content is pulled right, past its left
    /// edge (a gap shows at the viewport's left), negative x when pulled left past its right edge; likewise y with
    /// down and up. Zero on an axis that is not past an edge, and always zero without bounce.
    public var overscroll: Point

    public init(time: Double, state: ZoomState, overscroll: Point = .zero) {
        self.time = time
        self.state = state
        self.overscroll = overscroll
    }

    /// Where the whole image is drawn, in viewport space: `state.imageFrame` moved by `overscroll`.
    public var drawnImageFrame: Rect {
        let frame = state.imageFrame
        return Rect(origin: Point(x: frame.minX + overscroll.x, y: frame.minY + overscroll.y), size: frame.size)
    }
}

/// The frames a gesture moves through, sampled at a frame rate; the last is the state at rest.
public struct ZoomMotion: Hashable, Sendable {
    /// At least one frame, in time order; the last has zero overscroll and the final state.
    public let frames: [ZoomMotionFrame]

    /// `frames` must not be empty and its last frame must have zero overscroll.
    init(frames: [ZoomMotionFrame]) {
        assert(frames.last?.overscroll == .zero, "a motion ends at rest")
        self.frames = frames
    }

    /// The state at rest: what `apply` of the gesture gives.
    public var finalState: ZoomState { frames[frames.count - 1].state }

    /// How long the motion lasts, in milliseconds: the time of the last frame.
    public var duration: Double { frames[frames.count - 1].time }
}

extension ZoomState {
    /// The frames of `gesture` at `fps` frames per second (see `ZoomAnimation.guardedFramesPerSecond`): for a
    /// fling, the deceleration after the finger lifts (`decelerationMotion`, rubber-banding past the edges when
    /// `bounce` is on); for a double tap, two-finger tap or zoom-to, the animated zoom (`ZoomAnimation`) at times
    /// 300 k / frameCount ms; otherwise the state after the gesture alone, at time 0. The final state is always
    /// the state `apply(gesture)` gives.
    public func motion(applying gesture: ZoomGesture, fps: Double, bounce: Bool = false) -> ZoomMotion {
        if case .fling(let delta, let velocity) = gesture {
            return decelerationMotion(panningBy: delta, velocity: velocity, fps: fps, bounce: bounce)
        }
        var end = self
        end.apply(gesture)
        guard gesture.isAnimatable else { return ZoomMotion(frames: [ZoomMotionFrame(time: 0, state: end)]) }
        let states = ZoomAnimation.frames(from: self, to: end, fps: fps)
        let duration = 1000 * ZoomAnimation.duration
        return ZoomMotion(
            frames: states.enumerated().map { k, state in
                ZoomMotionFrame(time: duration * Double(k + 1) / Double(states.count), state: state)
            })
    }
}
