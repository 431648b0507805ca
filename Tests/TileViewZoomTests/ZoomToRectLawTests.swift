import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// zoomToRect: show an image rect as large as the limits allow, centred.
@Suite("Zoom to rect")
struct ZoomToRectLawTests {
    @Test(
        "zoomToRect: scale clamp(min(w/r.w, h/r.h)), rect centre at the centre unless the offset is at a limit"
    )
    func rectCentreGoesToViewportCentre() {
        sweepScenarios("zoomToRect centres the rect", seed: 0x2007_0001) { scenario, state, rng in
            let rect = ZoomScenario.randomImageRect(in: state, &rng)
            let wanted = min(state.viewportSize.width / rect.width, state.viewportSize.height / rect.height)
            let expected = min(max(wanted, state.minimumZoomScale), state.maximumZoomScale)
            state.zoom(toImageRect: rect)
            let context = "zoom-to \(rect) after \(scenario)"
            guard near(state.zoomScale, expected) else {
                return "scale \(state.zoomScale), expected \(expected): \(context)"
            }
            return state.mismatch(showing: rect.center, at: state.viewportCenter).map { "\($0): \(context)" }
        }
    }

    @Test(
        "zoomToRect shows a rect inside the image whole unless raised to min, filling one axis when unclamped"
    )
    func rectInsideImageIsShown() {
        sweepScenarios("zoomToRect shows the rect", seed: 0x2007_0002) { scenario, state, rng in
            let image = state.imageSize
            let width = image.width * rng.logUniform(0.001, 1)
            let height = image.height * rng.logUniform(0.001, 1)
            let rect = Rect(
                x: rng.uniform(0, image.width - width), y: rng.uniform(0, image.height - height),
                width: width, height: height)
            let wanted = min(state.viewportSize.width / rect.width, state.viewportSize.height / rect.height)
            state.zoom(toImageRect: rect)
            let context = "zoom-to \(rect) after \(scenario)"
            guard wanted >= state.minimumZoomScale else { return nil }
            let m = state.magnitude
            let topLeft = state.viewportPoint(atImagePoint: rect.origin)
            let bottomRight = state.viewportPoint(atImagePoint: Point(x: rect.maxX, y: rect.maxY))
            let inside =
                topLeft.x >= -1e-10 * m && topLeft.y >= -1e-10 * m
                && bottomRight.x <= state.viewportSize.width + 1e-10 * m
                && bottomRight.y <= state.viewportSize.height + 1e-10 * m
            guard inside else { return "rect shows at \(topLeft)-\(bottomRight): \(context); \(state)" }
            if wanted <= state.maximumZoomScale {
                let fills =
                    near(rect.width * state.zoomScale, state.viewportSize.width, magnitude: m)
                    || near(rect.height * state.zoomScale, state.viewportSize.height, magnitude: m)
                if !fills { return "unclamped rect does not fill the view on either axis: \(context); \(state)" }
            }
            return nil
        }
    }
}
