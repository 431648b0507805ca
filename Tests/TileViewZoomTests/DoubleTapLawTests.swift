import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Double tap: zoom in by k about the tapped point, which goes to the viewport centre.
@Suite("Double tap")
struct DoubleTapLawTests {
    @Test(
        "double tap: scale min(s*k, max), tapped point at the centre unless the offset is at a limit"
    )
    func tappedPointGoesToCentre() {
        sweepScenarios("double tap centres the tapped point", seed: 0xD7A9_0001) { scenario, state, rng in
            let tap = ZoomScenario.randomViewportPoint(in: state, &rng)
            let tapped = state.imagePoint(atViewportPoint: tap)
            let expectedScale = min(state.zoomScale * state.doubleTapStep, state.maximumZoomScale)
            state.doubleTap(atViewportPoint: tap)
            let context = "double-tap \(tap.x),\(tap.y) after \(scenario)"
            guard near(state.zoomScale, expectedScale) else {
                return "scale \(state.zoomScale), expected \(expectedScale): \(context)"
            }
            return state.mismatch(showing: tapped, at: state.viewportCenter).map { "\($0): \(context)" }
        }
    }

    @Test("a double tap at the maximum scale keeps the scale and only re-centres the tapped point")
    func doubleTapAtMaximumOnlyRecentres() {
        sweep("double tap at max only re-centres", seed: 0xD7A9_0002) { rng in
            var scenario = ZoomScenario.random(&rng)
            // A zero-size rect asks for an infinite scale: the maximum, about a random image point.
            let image = scenario.imageSize
            scenario.gestures.append(
                .zoomTo(
                    imageRect: Rect(
                        x: rng.uniform(0, image.width), y: rng.uniform(0, image.height), width: 0, height: 0)))
            var state = scenario.state
            guard state.zoomScale == state.maximumZoomScale else { return "setup did not reach max: \(scenario)" }
            let before = state.zoomScale
            let tap = ZoomScenario.randomViewportPoint(in: state, &rng)
            let tapped = state.imagePoint(atViewportPoint: tap)
            state.doubleTap(atViewportPoint: tap)
            let context = "double-tap \(tap.x),\(tap.y) after \(scenario)"
            guard state.zoomScale == before else { return "scale changed to \(state.zoomScale): \(context)" }
            return state.mismatch(showing: tapped, at: state.viewportCenter).map { "\($0): \(context)" }
        }
    }

    @Test("repeated double taps from fit multiply the scale by k until they reach the maximum")
    func repeatedTapsMultiplyByStep() {
        sweepScenarios("double tap multiplies by k up to max", seed: 0xD7A9_0003, cases: 1000, maximumGestures: 0) {
            scenario, state, rng in
            var expected = state.minimumZoomScale
            for n in 1...12 {
                state.doubleTap(atViewportPoint: ZoomScenario.randomViewportPoint(in: state, &rng))
                expected = min(expected * state.doubleTapStep, state.maximumZoomScale)
                if state.zoomScale != expected {
                    return "tap \(n): scale \(state.zoomScale), expected \(expected): \(scenario)"
                }
            }
            return nil
        }
    }

    @Test("a double tap is zoomToRect of the rect of size (w/s', h/s') centred on the tapped image point")
    func doubleTapEqualsZoomToRect() {
        sweepScenarios("double tap equals zoomToRect of its rect", seed: 0xD7A9_0004) { scenario, _, rng in
            var tapped = scenario.state
            let tap = ZoomScenario.randomViewportPoint(in: tapped, &rng)
            var zoomed = tapped
            zoomed.zoom(toImageRect: tapped.doubleTapImageRect(atViewportPoint: tap))
            tapped.doubleTap(atViewportPoint: tap)
            return tapped.isNear(zoomed) ? nil : "tap gave \(tapped), zoomToRect gave \(zoomed): \(scenario)"
        }
    }
}
