import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// The text forms of the motion and rotation gestures: `pan DX,DY velocity VX,VY` and `rotate D`.
@Suite("Motion gesture parsing")
struct MotionGestureParsingTests {
    @Test(
        "the fling and rotate forms parse to their gestures",
        arguments: [
            (
                "pan 30,-40 velocity 1.5,-2",
                ZoomGesture.fling(viewportDelta: Point(x: 30, y: -40), velocity: Point(x: 1.5, y: -2))
            ),
            ("  pan 0,0\tvelocity  .25,1e-3 ", .fling(viewportDelta: .zero, velocity: Point(x: 0.25, y: 0.001))),
            ("rotate 90", .rotate(quarterTurns: 1)),
            ("rotate 180", .rotate(quarterTurns: 2)),
            ("rotate 270", .rotate(quarterTurns: 3)),
            ("rotate -90", .rotate(quarterTurns: -1)),
            ("rotate 90.0", .rotate(quarterTurns: 1)),
        ])
    func parses(text: String, expected: ZoomGesture) throws {
        #expect(try ZoomGesture(parsing: text) == expected)
    }

    @Test(
        "description prints the fling and rotate forms",
        arguments: [
            (
                ZoomGesture.fling(viewportDelta: Point(x: -7, y: 0.125), velocity: Point(x: 3, y: -0.5)),
                "pan -7,0.125 velocity 3,-0.5"
            ),
            (.rotate(quarterTurns: 1), "rotate 90"),
            (.rotate(quarterTurns: 2), "rotate 180"),
            (.rotate(quarterTurns: 3), "rotate 270"),
            (.rotate(quarterTurns: -1), "rotate -90"),
        ])
    func describes(gesture: ZoomGesture, expected: String) {
        #expect(gesture.description == expected)
    }

    @Test("parsing the description of any fling or rotation gives it back")
    func roundTrips() {
        sweepScenarios("motion gestures round-trip", seed: 0x9A25_0101, cases: 2000, maximumGestures: 0) {
            scenario, state, rng in
            var gesture =
                rng.chance(0.3)
                ? ZoomGesture.rotate(quarterTurns: rng.pick([1, 2, 3, -1]))
                : DecelerationLawTests.randomFling(for: state, &rng)
            if rng.chance(0.3), case .fling(let d, let v) = gesture {
                gesture = .fling(
                    viewportDelta: Point(x: d.x.rounded(), y: d.y.rounded()), velocity: Point(x: v.x.rounded(), y: v.y))
            }
            return ZoomGestureParsingTests.roundTripProblem(gesture)
        }
    }

    @Test(
        "malformed fling and rotate forms are rejected with a message naming the problem",
        arguments: [
            ("rotate 45", "quarter turns only, 90, 180, 270 or -90 degrees, got 45"),
            ("rotate 0", "quarter turns only"),
            ("rotate 360", "quarter turns only"),
            ("rotate -180", "quarter turns only"),
            ("rotate", "rotate takes 1 argument"),
            ("rotate 90 90", "got 2"),
            ("rotate x", "the angle has \"x\", which is not a finite decimal number"),
            ("rotate 90,0", "angle needs 1 comma-separated number"),
            ("Rotate 90", "unknown gesture name"),
            ("pan 1,2 velocity x", "the velocity VX,VY needs 2 comma-separated numbers, got \"x\""),
            ("pan 1,2 velocity 1,y", "the velocity VX,VY has \"y\""),
            ("pan 1,2 velocity 1,nan", "\"nan\""),
            ("pan 1,2 velocity", "pan takes 1 argument"),
            ("pan 1,2 speed 3,4", "must be \"velocity\""),
            ("pan 1,2 Velocity 3,4", "must be \"velocity\""),
            ("pan x,2 velocity 3,4", "the motion DX,DY has \"x\""),
            ("pan 1,2 velocity 3,4 5", "pan takes 1 argument"),
        ])
    func rejects(text: String, fragment: String) {
        ZoomGestureParsingTests.expectRejected(text, naming: fragment)
    }

    @Test("apply performs the fling and the rotation")
    func applyPerformsThem() {
        var state = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        state.doubleTap(atViewportPoint: Point(x: 512, y: 384))
        var applied = state
        applied.apply([.fling(viewportDelta: Point(x: 5, y: 6), velocity: Point(x: 1, y: 1)), .rotate(quarterTurns: 3)])
        var direct = state
        direct.pan(byViewportDelta: Point(x: 5, y: 6), velocity: Point(x: 1, y: 1))
        direct.rotate(quarterTurns: -1)
        #expect(applied == direct)
    }
}
