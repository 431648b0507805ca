import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Pan: the content follows the finger, up to the limits.
@Suite("Pan")
struct PanLawTests {
    @Test("a pan moves the content by exactly the finger's motion unless clamped, and never changes the scale")
    func panFollowsFinger() {
        sweepScenarios("pan follows the finger", seed: 0x9A40_0001) { scenario, state, rng in
            let before = state
            let reach = rng.chance(0.5) ? 10 : 2 * max(state.viewportSize.width, state.viewportSize.height)
            let delta = Point(x: rng.uniform(-reach, reach), y: rng.uniform(-reach, reach))
            let probe = Point(x: rng.uniform(0, state.imageSize.width), y: rng.uniform(0, state.imageSize.height))
            let shownBefore = before.viewportPoint(atImagePoint: probe)
            state.pan(byViewportDelta: delta)
            let context = "pan \(delta.x),\(delta.y) after \(scenario)"
            guard state.zoomScale == before.zoomScale else { return "scale changed: \(context)" }
            let shownAfter = state.viewportPoint(atImagePoint: probe)
            let limit = before.contentOffsetLimit
            let m = state.magnitude
            let axes = [
                (
                    "x", before.contentOffset.x - delta.x, limit.x, state.contentOffset.x, shownBefore.x + delta.x,
                    shownAfter.x
                ),
                (
                    "y", before.contentOffset.y - delta.y, limit.y, state.contentOffset.y, shownBefore.y + delta.y,
                    shownAfter.y
                ),
            ]
            for (axis, wanted, limit, offset, wantedShown, shown) in axes {
                if limit == 0 {
                    // A centred axis does not scroll.
                    if offset != 0 { return "centred axis \(axis) scrolled to \(offset): \(context)" }
                } else if wanted >= 0, wanted <= limit {
                    if !near(offset, wanted, magnitude: m) || !near(shown, wantedShown, magnitude: m) {
                        return "offset.\(axis) \(offset), expected \(wanted) (content shows at \(shown)): \(context)"
                    }
                } else if offset != min(max(wanted, 0), limit) {
                    return "offset.\(axis) \(offset), expected it clamped to the nearer limit of \(wanted): \(context)"
                }
            }
            return nil
        }
    }
}
