import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Mapping points between viewport and image space, and what part of the image is visible.
@Suite("Coordinate spaces")
struct CoordinateSpaceLawTests {
    @Test("imagePoint(atViewportPoint:) and viewportPoint(atImagePoint:) are inverse")
    func pointMappingRoundTrips() {
        sweepScenarios("image and viewport points round-trip", seed: 0xC005_0001) { scenario, state, rng in
            let p = ZoomScenario.randomViewportPoint(in: state, &rng)
            let back = state.viewportPoint(atImagePoint: state.imagePoint(atViewportPoint: p))
            let m = state.magnitude
            guard near(back.x, p.x, magnitude: m), near(back.y, p.y, magnitude: m) else {
                return "viewport \(p) came back as \(back): \(state)"
            }
            let q = Point(x: rng.uniform(0, state.imageSize.width), y: rng.uniform(0, state.imageSize.height))
            let qBack = state.imagePoint(atViewportPoint: state.viewportPoint(atImagePoint: q))
            let imageMagnitude = m / state.zoomScale
            guard near(qBack.x, q.x, magnitude: imageMagnitude), near(qBack.y, q.y, magnitude: imageMagnitude) else {
                return "image \(q) came back as \(qBack): \(state)"
            }
            return nil
        }
    }

    @Test("the visible rect lies inside the image and is the viewport's part of the image frame, mapped to image space")
    func visibleRectMatchesImageFrame() {
        sweepScenarios("visible rect inside the image and matching the frame", seed: 0xC005_0002) {
            scenario, state, rng in
            let visible = state.visibleRect
            let image = state.imageSize
            let s = state.zoomScale
            let imageMagnitude = max(1, image.width, image.height)
            let tolerance = 1e-10 * imageMagnitude
            guard visible.minX >= 0, visible.minY >= 0, visible.maxX <= image.width + tolerance,
                visible.maxY <= image.height + tolerance, visible.width > 0, visible.height > 0
            else { return "visible \(visible) not inside the image: \(state)" }
            // Intersect the frame with the viewport in viewport space, then map to image space.
            let frame = state.imageFrame
            let v = state.viewportSize
            let x0 = max(frame.minX, 0)
            let y0 = max(frame.minY, 0)
            let x1 = min(frame.maxX, v.width)
            let y1 = min(frame.maxY, v.height)
            let expected = Rect(
                x: (x0 - frame.minX) / s, y: (y0 - frame.minY) / s, width: (x1 - x0) / s, height: (y1 - y0) / s)
            let same =
                near(visible.minX, expected.minX, magnitude: imageMagnitude)
                && near(visible.minY, expected.minY, magnitude: imageMagnitude)
                && near(visible.width, expected.width, magnitude: imageMagnitude)
                && near(visible.height, expected.height, magnitude: imageMagnitude)
            return same ? nil : "visible \(visible), frame says \(expected): \(state)"
        }
    }

    @Test("on a centred axis the whole image is visible; on a scrolling axis the visible part fills the viewport")
    func visibleRectCoversViewportOrImage() {
        sweepScenarios("visible rect covers the viewport or the image", seed: 0xC005_0003) { scenario, state, rng in
            let visible = state.visibleRect
            let v = state.viewportSize
            let m = state.magnitude
            let axes = [
                (state.isCentredHorizontally, visible.minX, visible.width, state.imageSize.width, v.width),
                (state.isCentredVertically, visible.minY, visible.height, state.imageSize.height, v.height),
            ]
            for (centred, origin, length, imageLength, viewportLength) in axes {
                let ok =
                    centred
                    ? origin == 0 && length == imageLength
                    : near(length * state.zoomScale, viewportLength, magnitude: m)
                if !ok { return "visible \(visible) wrong for \(state)" }
            }
            return nil
        }
    }
}
