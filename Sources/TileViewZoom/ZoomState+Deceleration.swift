import TileViewCore

/// A pan that lets go with the finger still moving: the pan, then the deceleration of `ZoomDeceleration`.
extension ZoomState {
    /// Pans by the finger's motion `delta` (as `pan(byViewportDelta:)`), then lets the content decelerate from
    /// `velocity` (viewport points per millisecond, the finger's direction) to rest: the state at rest of
    /// `decelerationMotion`, with or without bounce (the edges stop it either way). The scale never changes.
    public mutating func pan(byViewportDelta delta: Point, velocity: Point) {
        pan(byViewportDelta: delta)
        contentOffset = ZoomDeceleration.restingOffset(from: contentOffset, velocity: decelerationVelocity(velocity))
        settleContentOffset()
    }

    /// The velocity the deceleration uses from this state: `velocity` guarded (`ZoomDeceleration.guardedVelocity`)
    /// and 0 on an axis where the content is centred, which does not scroll.
    public func decelerationVelocity(_ velocity: Point) -> Point {
        let v = ZoomDeceleration.guardedVelocity(velocity)
        return Point(x: isCentredHorizontally ? 0 : v.x, y: isCentredVertically ? 0 : v.y)
    }

    /// The frames after the finger lifts from a pan by `delta` with `velocity` (see `ZoomDeceleration`), sampled
    /// every 1000/fps ms (`fps` guarded by `ZoomAnimation.guardedFramesPerSecond`): frame k at time k * 1000/fps,
    /// until the motion is over. The motion lasts N ms (the steps) and, with `bounce` and an overshoot left when
    /// the steps end, 300 ms more for the spring back; its last frame is at that time exactly, at rest with zero
    /// overscroll, and is the state `pan(byViewportDelta:velocity:)` gives. A motion with no steps has just that
    /// frame, at time 0.
    ///
    /// Between whole milliseconds the unconstrained offset is interpolated linearly. Each frame's state is that
    /// offset clamped (always valid); with `bounce` its `overscroll` is the rubber-banded overshoot past the edge,
    /// then during the spring back the overshoot left at the end times 1 - smoothstep(elapsed / 300 ms).
    public func decelerationMotion(panningBy delta: Point, velocity: Point, fps: Double, bounce: Bool) -> ZoomMotion {
        var lifted = self
        lifted.pan(byViewportDelta: delta)
        let offsets = ZoomDeceleration.offsets(
            from: lifted.contentOffset, velocity: lifted.decelerationVelocity(velocity))
        let steps = offsets.count - 1

        // The state and the displayed overshoot at an unconstrained offset.
        func clampedFrame(at time: Double, offset u: Point) -> ZoomMotionFrame {
            var state = lifted
            state.contentOffset = u
            state.settleContentOffset()
            let overscroll = bounce ? state.overscroll(ofUnconstrainedOffset: u) : .zero
            return ZoomMotionFrame(time: time, state: state, overscroll: overscroll)
        }
        let rest = clampedFrame(at: Double(steps), offset: offsets[steps])
        let leftOver = rest.overscroll
        let duration = Double(steps) + (leftOver == .zero ? 0 : ZoomDeceleration.springBackDuration)

        func sampledFrame(at time: Double) -> ZoomMotionFrame {
            if time >= Double(steps) {
                let remaining = 1 - ZoomMath.smoothstep((time - Double(steps)) / ZoomDeceleration.springBackDuration)
                return ZoomMotionFrame(
                    time: time, state: rest.state,
                    overscroll: Point(x: leftOver.x * remaining, y: leftOver.y * remaining))
            }
            let i = Int(time)
            let fraction = time - Double(i)
            let (a, b) = (offsets[i], offsets[i + 1])
            return clampedFrame(
                at: time, offset: Point(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction))
        }

        let rate = ZoomAnimation.guardedFramesPerSecond(fps)
        let count = max(1, Int((duration * rate / 1000).rounded(.up)))
        var frames: [ZoomMotionFrame] = []
        frames.reserveCapacity(count)
        for k in 1..<count {
            frames.append(sampledFrame(at: min(Double(k) * 1000 / rate, duration)))
        }
        frames.append(ZoomMotionFrame(time: duration, state: rest.state))
        return ZoomMotion(frames: frames)
    }

    /// How far content at the unconstrained offset `u` is drawn past its edges, rubber-banded, with the sign of
    /// `ZoomMotionFrame.overscroll`; this state's offset is `u` clamped.
    func overscroll(ofUnconstrainedOffset u: Point) -> Point {
        func displacement(_ unconstrained: Double, _ clamped: Double, extent: Double) -> Double {
            // An offset below the clamped one moves the content forward (right or down), and vice versa.
            let past = unconstrained - clamped
            let drawn = ZoomDeceleration.rubberBand(abs(past), extent: extent)
            return past > 0 ? -drawn : drawn
        }
        return Point(
            x: displacement(u.x, contentOffset.x, extent: viewportSize.width),
            y: displacement(u.y, contentOffset.y, extent: viewportSize.height))
    }
}
