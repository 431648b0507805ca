import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Pinch: scale by a factor about the fingers.
@Suite("Pinch")
struct PinchLawTests {
    @Test(
        "pinch: scale clamp(s*f), the point under the fingers stays unless the offset is at a limit"
    )
    func pinchKeepsPointUnderFingers() {
        sweepScenarios("pinch keeps the point under the fingers", seed: 0x919C_0001) { scenario, state, rng in
            let factor = rng.logUniform(0.05, 20)
            let fingers = ZoomScenario.randomViewportPoint(in: state, &rng, margin: 0)
            let under = state.imagePoint(atViewportPoint: fingers)
            let expected = min(max(state.zoomScale * factor, state.minimumZoomScale), state.maximumZoomScale)
            state.pinch(by: factor, aboutViewportPoint: fingers)
            let context = "pinch \(factor) \(fingers.x),\(fingers.y) after \(scenario)"
            guard state.zoomScale == expected else {
                return "scale \(state.zoomScale), expected \(expected): \(context)"
            }
            return state.mismatch(showing: under, at: fingers).map { "\($0): \(context)" }
        }
    }

    @Test("pinching by f and then by 1/f about the same point returns to the same state when nothing was clamped")
    func pinchIsReversibleWhenUnclamped() {
        sweepScenarios("pinch f then 1/f is the identity when unclamped", seed: 0x919C_0002) { scenario, _, rng in
            let start = scenario.state
            var state = start
            let factor = rng.logUniform(0.5, 2)
            let fingers = ZoomScenario.randomViewportPoint(in: state, &rng, margin: 0)
            state.pinch(by: factor, aboutViewportPoint: fingers)
            let unclamped =
                near(state.zoomScale, start.zoomScale * factor) && !state.isOffsetAtLimitX && !state.isOffsetAtLimitY
            guard unclamped else { return nil }
            state.pinch(by: 1 / factor, aboutViewportPoint: fingers)
            return state.isNear(start)
                ? nil : "got \(state), started at \(start): pinch \(factor) \(fingers) after \(scenario)"
        }
    }
}
