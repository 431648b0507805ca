import Foundation
import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// The animated zoom of double taps, two-finger taps and zoom-to: 0.3 s of valid states, eased with smoothstep.
@Suite("Animated zoom")
struct AnimationLawTests {
    /// A double tap, two-finger tap or zoom-to for `state`.
    static func randomAnimatableGesture(for state: ZoomState, _ rng: inout SplitMix64) -> ZoomGesture {
        switch rng.next() % 3 {
        case 0: .doubleTap(viewportPoint: ZoomScenario.randomViewportPoint(in: state, &rng))
        case 1: .twoFingerTap
        default: .zoomTo(imageRect: ZoomScenario.randomImageRect(in: state, &rng))
        }
    }

    /// A random double tap, two-finger tap or zoom-to for `start`, and the state after it.
    static func randomAnimation(from start: ZoomState, _ rng: inout SplitMix64) -> (
        gesture: ZoomGesture, end: ZoomState
    ) {
        let gesture = randomAnimatableGesture(for: start, &rng)
        var end = start
        end.apply(gesture)
        return (gesture, end)
    }

    /// Smoothstep's e for frame `index` (from 0) of `count`: t = (index + 1) / count, e = t^2 (3 - 2t).
    static func easing(frame index: Int, of count: Int) -> Double {
        let t = Double(index + 1) / Double(count)
        return t * t * (3 - 2 * t)
    }

    @Test(
        "max(1, round(0.3 * fps)) frames; NaN fps is the default 60 and fps is clamped to [0, 1000]",
        arguments: [
            (30.0, 9), (60, 18), (120, 36), (24, 7), (25, 8), (1, 1), (0, 1), (-5, 1), (.nan, 18), (.infinity, 300),
            (1e300, 300),
        ])
    func frameCount(fps: Double, expected: Int) {
        #expect(ZoomAnimation.frameCount(fps: fps) == expected)
    }

    @Test("only double tap, two-finger tap and zoom-to are animated")
    func animatableGestures() {
        let p = Point(x: 1, y: 2)
        #expect(ZoomGesture.doubleTap(viewportPoint: p).isAnimatable)
        #expect(ZoomGesture.twoFingerTap.isAnimatable)
        #expect(ZoomGesture.zoomTo(imageRect: Rect(x: 0, y: 0, width: 5, height: 5)).isAnimatable)
        #expect(!ZoomGesture.pinch(factor: 2, viewportPoint: p).isAnimatable)
        #expect(!ZoomGesture.pan(viewportDelta: p).isAnimatable)
        #expect(!ZoomGesture.fling(viewportDelta: p, velocity: p).isAnimatable)
        #expect(!ZoomGesture.rotate(quarterTurns: 1).isAnimatable)
    }

    @Test(
        "round(0.3 fps) valid frames, scale monotone and geometric, the last frame the end state exactly",
        arguments: [30.0, 60, 120])
    func framesAreValidAndEndExactly(fps: Double) {
        let expectedCount = Int((0.3 * fps).rounded())
        sweepScenarios("animation frames at \(fps) fps", seed: 0xA41A_0001 &+ UInt64(fps), cases: 1500) {
            scenario, start, rng in
            let (gesture, end) = Self.randomAnimation(from: start, &rng)
            let frames = ZoomAnimation.frames(from: start, to: end, fps: fps)
            let context = "\(gesture) at \(fps) fps after \(scenario)"
            guard frames.count == expectedCount else { return "\(frames.count) frames: \(context)" }
            guard let last = frames.last, last == end, last.zoomScale.bitPattern == end.zoomScale.bitPattern,
                last.contentOffset.x.bitPattern == end.contentOffset.x.bitPattern,
                last.contentOffset.y.bitPattern == end.contentOffset.y.bitPattern
            else { return "last frame \(frames.last.map(\.description) ?? "none") is not the end \(end): \(context)" }
            let s0 = start.zoomScale
            let s1 = end.zoomScale
            var previous = s0
            for (index, frame) in frames.enumerated() {
                if let problem = ZoomInvariantLawTests.violation(frame) {
                    return "frame \(index): \(problem): \(context)"
                }
                guard frame.imageSize == start.imageSize, frame.viewportSize == start.viewportSize else {
                    return "frame \(index) changed the image or viewport: \(context)"
                }
                let s = frame.zoomScale
                guard s1 >= s0 ? s >= previous : s <= previous else {
                    return "frame \(index) scale \(s) steps back from \(previous) (\(s0) to \(s1)): \(context)"
                }
                previous = s
                // s0 * (s1/s0)^e with the C library's pow.
                let e = Self.easing(frame: index, of: frames.count)
                let expected = s0 * Foundation.pow(s1 / s0, e)
                guard abs(s - expected) <= 1e-12 * max(s, expected) else {
                    return "frame \(index) scale \(s), expected \(expected) at e \(e): \(context)"
                }
            }
            return nil
        }
    }

    @Test("each frame shows the eased centre c0 + (c1 - c0)e at the viewport centre unless the offset is at a limit")
    func centreMovesLinearlyWithEasing() {
        sweepScenarios("animation centre follows the easing", seed: 0xA41A_0002, cases: 1500) { scenario, start, rng in
            let (gesture, end) = Self.randomAnimation(from: start, &rng)
            let c0 = start.visibleRect.center
            let c1 = end.visibleRect.center
            let frames = ZoomAnimation.frames(from: start, to: end, fps: 60)
            for (index, frame) in frames.enumerated().dropLast() {
                let e = Self.easing(frame: index, of: frames.count)
                let center = Point(x: c0.x + (c1.x - c0.x) * e, y: c0.y + (c1.y - c0.y) * e)
                if let problem = frame.mismatch(showing: center, at: frame.viewportCenter) {
                    return "frame \(index): \(problem): \(gesture) after \(scenario)"
                }
            }
            return nil
        }
    }

    @Test("motion(applying:) times the frames 300 k / n ms; other gestures give the state after them at time 0")
    func motionOfGestures() {
        sweepScenarios("animation motion frames", seed: 0xA41A_0003, cases: 500) { scenario, start, rng in
            let gesture = ZoomScenario.randomGesture(for: start, &rng)
            var end = start
            end.apply(gesture)
            let motion = start.motion(applying: gesture, fps: 60)
            let context = "\(gesture) after \(scenario)"
            guard motion.finalState == end, motion.frames.allSatisfy({ $0.overscroll == .zero }) else {
                return "final state \(motion.finalState) is not \(end): \(context)"
            }
            if gesture.isAnimatable {
                let frames = ZoomAnimation.frames(from: start, to: end, fps: 60)
                guard motion.frames.map(\.state) == frames, motion.duration == 300,
                    motion.frames.enumerated().allSatisfy({ $1.time == 300 * Double($0 + 1) / 18 })
                else { return "animated motion frames differ: \(context)" }
            } else if motion.frames != [ZoomMotionFrame(time: 0, state: end)] {
                return "\(motion.frames.count) frames for an unanimated gesture: \(context)"
            }
            return nil
        }
    }

    @Test("animating between states of different images, viewports or rotations gives the end state only")
    func unrelatedStatesJump() {
        let start = ZoomState(imageSize: Size(width: 600, height: 400), viewportSize: Size(width: 100, height: 100))
        var turned = start
        turned.rotate(quarterTurns: 1)
        let other = ZoomState(imageSize: Size(width: 600, height: 401), viewportSize: Size(width: 100, height: 100))
        #expect(ZoomAnimation.frames(from: start, to: turned, fps: 60) == [turned])
        #expect(ZoomAnimation.frames(from: start, to: other, fps: 60) == [other])
        #expect(start.animationFrames(applying: .rotate(quarterTurns: 1), fps: 60) == [turned])
    }

    @Test("the worked example's double tap zooms from 0.170667 to 0.256 through 18 frames at 60 fps")
    func workedExample() {
        let start = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        let frames = start.animationFrames(applying: .doubleTap(viewportPoint: Point(x: 120, y: 80)), fps: 60)
        #expect(frames.count == 18)
        // Halfway (t = 1/2, e = 1/2) the scale is the geometric mean of the two.
        let middle = frames[8]
        #expect(abs(middle.zoomScale - (start.zoomScale * 0.256).squareRoot()) < 1e-12)
        #expect(abs(frames[17].zoomScale - 0.256) < 1e-12)
    }
}
