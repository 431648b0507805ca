import Foundation
import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// A pan that lets go with the finger moving: deceleration by 0.998 per millisecond, edges and rubber-banding.
@Suite("Deceleration")
struct DecelerationLawTests {
    /// N from the model's definition, with the speed decayed as a number: the smallest n with |v| 0.998^n < 0.01.
    static func steps(speed: Double) -> Int {
        var n = 0
        var s = speed
        while s >= 0.01 {
            s *= 0.998
            n += 1
        }
        return n
    }

    /// The closed form v0 (1 - 0.998^N) / (1 - 0.998) with the C library's pow.
    static func closedFormTravel(_ v: Point) -> Point {
        let n = Double(steps(speed: (v.x * v.x + v.y * v.y).squareRoot()))
        let factor = (1 - Foundation.pow(0.998, n)) / 0.002
        return Point(x: v.x * factor, y: v.y * factor)
    }

    /// A fling for `state`: a pan of up to the viewport's size and a velocity of up to `maximumSpeed` per axis.
    static func randomFling(for state: ZoomState, _ rng: inout SplitMix64, maximumSpeed: Double = 20) -> ZoomGesture {
        let v = state.viewportSize
        let speed = rng.chance(0.3) ? 0.05 : maximumSpeed
        return .fling(
            viewportDelta: rng.chance(0.3)
                ? .zero : Point(x: rng.uniform(-v.width, v.width), y: rng.uniform(-v.height, v.height)),
            velocity: Point(x: rng.uniform(-speed, speed), y: rng.uniform(-speed, speed)))
    }

    /// A scenario zoomed in on a random image point as far as it goes, so that it usually scrolls on both axes.
    static func zoomedIn(_ scenario: ZoomScenario, _ rng: inout SplitMix64) -> ZoomScenario {
        var zoomed = scenario
        let image = zoomed.state.imageSize
        zoomed.gestures.append(
            .zoomTo(
                imageRect: Rect(x: rng.uniform(0, image.width), y: rng.uniform(0, image.height), width: 0, height: 0)))
        return zoomed
    }

    @Test("the step count is the smallest N with |v0| 0.998^N < 0.01", arguments: [0.0, 0.009, 0.01, 1, 10, 1e6])
    func stepCount(speed: Double) {
        #expect(ZoomDeceleration.stepCount(velocity: Point(x: speed, y: 0)) == Self.steps(speed: speed))
        #expect(ZoomDeceleration.stepCount(velocity: Point(x: 0, y: -speed)) == Self.steps(speed: speed))
    }

    @Test("known step counts and distances: 1 point/ms decays for 2301 ms and travels 495.007 points")
    func knownDistances() {
        #expect(ZoomDeceleration.stepCount(velocity: Point(x: 1, y: 0)) == 2301)
        let travel = ZoomDeceleration.travel(velocity: Point(x: -1, y: 0))
        #expect(abs(travel.x + (1 - Foundation.pow(0.998, 2301)) / 0.002) < 1e-9)
        #expect(abs(travel.x + 495.007) < 0.001 && travel.y == 0, "\(travel)")
        // |(3, -4)| = 5 sets N for both axes.
        #expect(ZoomDeceleration.stepCount(velocity: Point(x: 3, y: -4)) == Self.steps(speed: 5))
        let diagonal = ZoomDeceleration.travel(velocity: Point(x: 3, y: -4))
        #expect(abs(diagonal.x / 3 + diagonal.y / 4) < 1e-9 && abs(diagonal.x - 3 * (500 - 0.01 / 5 * 500)) < 0.01)
        #expect(ZoomDeceleration.travel(velocity: Point(x: 0.005, y: 0.005)) == .zero)
        #expect(ZoomDeceleration.stepCount(velocity: Point(x: .infinity, y: .nan)) > 0)
    }

    @Test("rubber band: (1 - 1/(d 0.55/D + 1)) D, 0 at 0, half of D at d = D/0.55, always below D")
    func rubberBand() {
        #expect(ZoomDeceleration.rubberBand(0, extent: 768) == 0)
        #expect(ZoomDeceleration.rubberBand(-5, extent: 768) == 0)
        #expect(abs(ZoomDeceleration.rubberBand(768 / 0.55, extent: 768) - 384) < 1e-9)
        #expect(abs(ZoomDeceleration.rubberBand(1e-6, extent: 768) - 0.55e-6) < 1e-15)
        #expect(ZoomDeceleration.rubberBand(1e12, extent: 768) < 768)
        var previous = 0.0
        for d in stride(from: 1.0, through: 5000, by: 7) {
            let drawn = ZoomDeceleration.rubberBand(d, extent: 390)
            #expect(drawn > previous && drawn < min(390, 0.55 * d))
            previous = drawn
        }
    }

    @Test("where no edge is hit the content travels the closed form v0 (1 - 0.998^N)/(1 - 0.998), within a point")
    func travelMatchesClosedForm() {
        sweepScenarios("deceleration travel matches the closed form", seed: 0xDEC0_0001, cases: 2000) {
            scenario, state, rng in
            let lifted = state
            // Up to the room on each axis: the travel is under 500 |v0|, so the content stays inside.
            let limit = lifted.contentOffsetLimit
            func component(room: Double, ahead: Double) -> Double {
                rng.chance(0.5) ? rng.uniform(0, ahead / 500) : -rng.uniform(0, room / 500)
            }
            let velocity = Point(
                x: component(room: limit.x - lifted.contentOffset.x, ahead: lifted.contentOffset.x),
                y: component(room: limit.y - lifted.contentOffset.y, ahead: lifted.contentOffset.y))
            var after = lifted
            after.apply(.fling(viewportDelta: .zero, velocity: velocity))
            let expected = Self.closedFormTravel(velocity)
            let module = ZoomDeceleration.travel(velocity: velocity)
            let moved = Point(
                x: lifted.contentOffset.x - after.contentOffset.x, y: lifted.contentOffset.y - after.contentOffset.y)
            let context = "velocity \(velocity) after \(scenario)"
            guard abs(moved.x - expected.x) <= 1, abs(moved.y - expected.y) <= 1 else {
                return "moved \(moved), closed form \(expected): \(context)"
            }
            guard near(module.x, expected.x, magnitude: 500), near(module.y, expected.y, magnitude: 500) else {
                return "ZoomDeceleration.travel \(module), closed form \(expected): \(context)"
            }
            return nil
        }
    }

    @Test(
        "without bounce every frame is valid with zero overscroll, moves one way, and the last is the apply result",
        arguments: [30.0, 60, 120])
    func withoutBounceStopsAtEdges(fps: Double) {
        sweepScenarios("deceleration without bounce", seed: 0xDEC0_0002 &+ UInt64(fps), cases: 400) {
            drawn, _, rng in
            let scenario = rng.chance(0.7) ? Self.zoomedIn(drawn, &rng) : drawn
            let before = scenario.state
            let gesture = Self.randomFling(for: before, &rng)
            guard case .fling(let delta, let velocity) = gesture else { return "not a fling" }
            let motion = before.decelerationMotion(panningBy: delta, velocity: velocity, fps: fps, bounce: false)
            var applied = before
            applied.apply(gesture)
            var lifted = before
            lifted.pan(byViewportDelta: delta)
            let v = lifted.decelerationVelocity(velocity)
            let context = "\(gesture) at \(fps) fps after \(scenario)"
            guard motion.finalState == applied, motion.frames.last?.overscroll == .zero else {
                return "final state \(motion.finalState) is not the apply result \(applied): \(context)"
            }
            let steps = ZoomDeceleration.stepCount(velocity: v)
            guard motion.duration == Double(steps),
                motion.frames.count == max(1, Int((Double(steps) * fps / 1000).rounded(.up)))
            else { return "\(motion.frames.count) frames over \(motion.duration) ms for \(steps) steps: \(context)" }
            var previous = ZoomMotionFrame(time: 0, state: lifted)
            for (index, frame) in motion.frames.enumerated() {
                if let problem = ZoomInvariantLawTests.violation(frame.state) {
                    return "frame \(index): \(problem): \(context)"
                }
                guard frame.overscroll == .zero, frame.state.zoomScale == before.zoomScale else {
                    return "frame \(index) overscroll \(frame.overscroll) or scale changed: \(context)"
                }
                let expectedTime = index == motion.frames.count - 1 ? Double(steps) : Double(index + 1) * 1000 / fps
                guard frame.time == expectedTime else { return "frame \(index) at \(frame.time) ms: \(context)" }
                // The offset moves against the velocity, never back.
                let dx = frame.state.contentOffset.x - previous.state.contentOffset.x
                let dy = frame.state.contentOffset.y - previous.state.contentOffset.y
                guard dx * v.x <= 0, dy * v.y <= 0 else {
                    return "frame \(index) moved by (\(dx), \(dy)) against velocity \(v): \(context)"
                }
                previous = frame
            }
            return nil
        }
    }

    @Test("with bounce a fling at an edge overshoots, rubber-banded and springing back; the rest state is unchanged")
    func bounceOvershootsAndSpringsBack() {
        var checked = 0
        sweepScenarios("deceleration with bounce", seed: 0xDEC0_0003, cases: 800) { drawn, _, rng in
            let scenario = Self.zoomedIn(drawn, &rng)
            let before = scenario.state
            let limit = before.contentOffsetLimit
            // Fling towards the nearer edge of a scrolling axis, far enough to pass it by 15 to 2000 points.
            let horizontal = limit.x > 0 && (limit.y == 0 || rng.chance(0.5))
            guard horizontal || limit.y > 0 else { return nil }
            let offset = horizontal ? before.contentOffset.x : before.contentOffset.y
            let towardsStart = offset < (horizontal ? limit.x : limit.y) / 2
            let room = towardsStart ? offset : (horizontal ? limit.x : limit.y) - offset
            let speed = (room + rng.uniform(15, 2000)) / 500 + 0.02
            let along = towardsStart ? speed : -speed  // finger right or down moves towards offset 0
            // Across, a velocity that stays inside: the travel is under 500 |v|.
            let acrossOffset = horizontal ? before.contentOffset.y : before.contentOffset.x
            let acrossLimit = horizontal ? limit.y : limit.x
            let across = rng.uniform(-(acrossLimit - acrossOffset) / 600, acrossOffset / 600)
            let velocity = horizontal ? Point(x: along, y: across) : Point(x: across, y: along)
            let fps = rng.pick([30.0, 60, 120])
            let motion = before.decelerationMotion(panningBy: .zero, velocity: velocity, fps: fps, bounce: true)
            let plain = before.decelerationMotion(panningBy: .zero, velocity: velocity, fps: fps, bounce: false)
            var applied = before
            applied.apply(.fling(viewportDelta: .zero, velocity: velocity))
            let context = "pan 0,0 velocity \(velocity.x),\(velocity.y) at \(fps) fps after \(scenario)"
            guard motion.finalState == applied, plain.finalState == applied, motion.frames.last?.overscroll == .zero
            else { return "rest state \(motion.finalState), without bounce \(plain.finalState): \(context)" }
            let steps = ZoomDeceleration.stepCount(velocity: before.decelerationVelocity(velocity))
            guard motion.duration == Double(steps) + 300 else {
                return "duration \(motion.duration) for \(steps) steps and a spring back: \(context)"
            }
            let extent = horizontal ? before.viewportSize.width : before.viewportSize.height
            var overshot = false
            for (index, frame) in motion.frames.enumerated() {
                if let problem = ZoomInvariantLawTests.violation(frame.state) {
                    return "frame \(index): \(problem): \(context)"
                }
                let along = horizontal ? frame.overscroll.x : frame.overscroll.y
                let across = horizontal ? frame.overscroll.y : frame.overscroll.x
                // Pulled past the start edge the content moves forward (positive), past the end edge back.
                guard across == 0, towardsStart ? along >= 0 : along <= 0, abs(along) < extent else {
                    return "frame \(index) overscroll \(frame.overscroll): \(context)"
                }
                if along != 0 { overshot = true }
                let edge = towardsStart ? 0 : (horizontal ? limit.x : limit.y)
                let offset = horizontal ? frame.state.contentOffset.x : frame.state.contentOffset.y
                if along != 0, offset != edge { return "frame \(index) overshoots off the edge: \(context)" }
                let drawn = frame.drawnImageFrame
                let imageFrame = frame.state.imageFrame
                guard drawn.minX == imageFrame.minX + frame.overscroll.x, drawn.size == imageFrame.size else {
                    return "drawn frame \(drawn) for \(imageFrame) and \(frame.overscroll): \(context)"
                }
            }
            guard overshot else { return "no frame overshoots: \(context)" }
            checked += 1
            return nil
        }
        #expect(checked > 400, "only \(checked) cases could fling at an edge")
    }

    @Test("without bounce an axis that reaches its edge stops there while the other goes on for the whole motion")
    func axisStopsAtItsEdge() {
        var state = ZoomState(imageSize: Size(width: 4000, height: 3000), viewportSize: Size(width: 400, height: 300))
        state.zoom(toImageRect: Rect(x: 1800, y: 1350, width: 400, height: 300))
        #expect(state.contentOffset == Point(x: 1800, y: 1350))
        // x would travel about 3000 and stops at 0 after about 1800; y travels its full closed form, about 495.
        let velocity = Point(x: 6, y: -1)
        let motion = state.decelerationMotion(panningBy: .zero, velocity: velocity, fps: 60, bounce: false)
        let travel = ZoomDeceleration.travel(velocity: velocity)
        #expect(motion.finalState.contentOffset.x == 0)
        #expect(abs(motion.finalState.contentOffset.y - (1350 - travel.y)) < 1e-6)
        #expect(abs(travel.y + 500 * (1 - 0.01 / velocity.x.magnitude)) < 0.2, "\(travel)")
        // The finger moves up (vy < 0), so the offset grows on y; it still does after x has stopped.
        let stopped = motion.frames.firstIndex { $0.state.contentOffset.x == 0 }
        #expect(stopped != nil)
        if let index = stopped {
            #expect(motion.frames[index...].allSatisfy { $0.state.contentOffset.x == 0 })
            #expect(motion.frames[index].state.contentOffset.y < motion.finalState.contentOffset.y - 100)
        }
    }

    @Test("the spring back eases the overshoot left at rest to zero over 300 ms with smoothstep")
    func springBackEases() {
        var state = ZoomState(imageSize: Size(width: 4000, height: 3000), viewportSize: Size(width: 400, height: 300))
        state.zoom(toImageRect: Rect(x: 1800, y: 1350, width: 400, height: 300))
        let velocity = Point(x: 8, y: 0)
        let motion = state.decelerationMotion(panningBy: .zero, velocity: velocity, fps: 1000, bounce: true)
        let steps = Double(ZoomDeceleration.stepCount(velocity: velocity))
        let atRest = motion.frames.first { $0.time == steps }
        #expect(atRest != nil)
        let left = atRest?.overscroll.x ?? 0
        let expectedOverscroll = ZoomDeceleration.rubberBand(500 * 8 - 5 - 1800, extent: 400)
        #expect(abs(left - expectedOverscroll) < 1, "left \(left), expected about \(expectedOverscroll)")
        for frame in motion.frames where frame.time > steps {
            let t = (frame.time - steps) / 300
            #expect(abs(frame.overscroll.x - left * (1 - t * t * (3 - 2 * t))) < 1e-9, "at \(frame.time) ms")
            #expect(frame.state == motion.finalState)
        }
        #expect(motion.finalState.contentOffset.x == 0)
    }

    @Test("a centred axis neither scrolls nor bounces, and degenerate velocities end in valid states")
    func centredAxesAndDegenerateVelocities() {
        let fit = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        let motion = fit.decelerationMotion(panningBy: .zero, velocity: Point(x: 30, y: -30), fps: 60, bounce: true)
        #expect(motion.frames == [ZoomMotionFrame(time: 0, state: fit)])
        var zoomed = fit
        zoomed.doubleTap(atViewportPoint: Point(x: 500, y: 400))
        for velocity in [
            Point(x: .nan, y: .infinity), Point(x: -.infinity, y: 3), Point(x: 1e300, y: -1e300),
            Point(x: .nan, y: .nan),
        ] {
            let motion = zoomed.decelerationMotion(panningBy: .zero, velocity: velocity, fps: 120, bounce: true)
            var applied = zoomed
            applied.pan(byViewportDelta: .zero, velocity: velocity)
            #expect(motion.finalState == applied, "velocity \(velocity)")
            #expect(motion.frames.allSatisfy { $0.state.invariantViolations.isEmpty && $0.overscroll.x.isFinite })
        }
        var flung = zoomed
        flung.pan(byViewportDelta: .zero, velocity: Point(x: -.infinity, y: .nan))
        #expect(flung.contentOffset == Point(x: flung.contentOffsetLimit.x, y: zoomed.contentOffset.y))
    }
}
