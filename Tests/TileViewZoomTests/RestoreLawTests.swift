import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// A state written down as its place and read back (a server's view token) is the same state; a place no state can
/// have is refused.
@Suite("Zoom state restoring")
struct RestoreLawTests {
    @Test("the fit state moved to any reached state's place is that state, turned or not")
    func restoredEqualsTheState() {
        sweepScenarios("restored == state", seed: 0x8E57_0001) { scenario, state, rng in
            if rng.chance(0.5) { state.apply(.rotate(quarterTurns: Int(rng.next() % 4))) }
            guard let restored = scenario.initialState.restored(state.place) else { return "refused its own place" }
            return restored == state ? nil : "restored \(restored) is not \(state)"
        }
    }

    @Test("a scale outside [min, max], a non-finite value or an unsettled offset is refused")
    func impossiblePlacesAreRefused() {
        sweepScenarios("impossible places", seed: 0x8E57_0002, cases: 1000) { scenario, state, rng in
            let fit = scenario.initialState
            var places: [ZoomPlace] = []
            var place = state.place
            place.zoomScale = state.minimumZoomScale * rng.uniform(0.01, 0.999)
            places.append(place)
            place = state.place
            place.zoomScale = state.maximumZoomScale * rng.uniform(1.001, 100)
            places.append(place)
            for bad in [Double.nan, .infinity, -.infinity] {
                place = state.place
                place.contentOffset.x = bad
                places.append(place)
                place = state.place
                place.zoomScale = bad
                places.append(place)
            }
            place = state.place
            place.contentOffset.y = -1 - rng.uniform(0, 100)
            places.append(place)
            place = state.place
            place.contentOffset.x = state.contentOffsetLimit.x + 1 + rng.uniform(0, 100)
            places.append(place)
            for place in places where fit.restored(place) != nil {
                return "restored \(place)"
            }
            return nil
        }
    }
}
