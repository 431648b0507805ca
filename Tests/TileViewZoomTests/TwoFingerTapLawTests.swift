import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Two-finger tap: zoom out by k about the viewport centre.
@Suite("Two-finger tap")
struct TwoFingerTapLawTests {
    @Test(
        "two-finger tap: scale max(s/k, min), the centre point stays unless the offset is at a limit"
    )
    func twoFingerTapKeepsCentre() {
        sweepScenarios("two-finger tap keeps the centre", seed: 0x2F7A_0001, maximumGestures: 8) {
            scenario, state, rng in
            let center = state.viewportCenter
            let atCenter = state.imagePoint(atViewportPoint: center)
            let expected = max(state.zoomScale / state.doubleTapStep, state.minimumZoomScale)
            state.twoFingerTap()
            guard state.zoomScale == expected else {
                return "scale \(state.zoomScale), expected \(expected): two-finger-tap after \(scenario)"
            }
            return state.mismatch(showing: atCenter, at: center).map { "\($0): two-finger-tap after \(scenario)" }
        }
    }

    @Test("enough two-finger taps always return to the fit scale showing the whole image")
    func twoFingerTapsReturnToFit() {
        sweepScenarios("two-finger taps return to fit", seed: 0x2F7A_0002, cases: 1000, maximumGestures: 8) {
            scenario, state, rng in
            guard state.doubleTapStep > 1 else { return nil }
            var taps = 0
            while state.zoomScale > state.minimumZoomScale, taps < 10_000 {
                state.twoFingerTap()
                taps += 1
            }
            let whole = Rect(origin: .zero, size: state.imageSize)
            return state.zoomScale == state.minimumZoomScale && state.visibleRect == whole
                ? nil : "after \(taps) taps: \(state), visible \(state.visibleRect): \(scenario)"
        }
    }
}
