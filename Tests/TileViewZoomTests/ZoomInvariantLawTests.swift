import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// The invariants that hold after every gesture of any sequence.
@Suite("Zoom state invariants")
struct ZoomInvariantLawTests {
    /// Checks the three invariants from first principles (not through `invariantViolations`).
    static func violation(_ state: ZoomState) -> String? {
        let image = state.imageSize
        let viewport = state.viewportSize
        let s = state.zoomScale
        let fit = min(viewport.width / image.width, viewport.height / image.height)
        if state.minimumZoomScale != fit { return "minimum \(state.minimumZoomScale) is not fit \(fit)" }
        if state.maximumZoomScale != max(state.maximumScaleSetting, fit) { return "maximum is not max(M, fit)" }
        if !(s >= fit && s <= state.maximumZoomScale) { return "scale \(s) outside [min, max]" }
        let axes = [
            ("x", state.contentOffset.x, image.width, viewport.width, state.imageFrame.minX),
            ("y", state.contentOffset.y, image.height, viewport.height, state.imageFrame.minY),
        ]
        for (axis, offset, imageLength, length, frameOrigin) in axes {
            let content = imageLength * s
            // Content no larger than the viewport, decided on scales (s <= w/W) so that rounding in W*s does
            // not make the fitting axis scroll by a hair.
            if s <= length / imageLength {
                if offset != 0 { return "offset.\(axis) \(offset) not 0 on a centred axis" }
                if frameOrigin != max(0, (length - content) / 2) { return "frame.\(axis) \(frameOrigin) not centred" }
                if !(content <= length * (1 + 1e-15)) { return "content \(content) > viewport \(length) yet centred" }
            } else {
                if !(offset >= 0 && offset <= content - length) { return "offset.\(axis) \(offset) out of range" }
                if frameOrigin != -offset { return "frame.\(axis) \(frameOrigin) is not -offset" }
            }
        }
        if !state.invariantViolations.isEmpty { return state.invariantViolations.joined(separator: "; ") }
        return nil
    }

    @Test("after every gesture the scale stays in [min, max], the offset in [0, W*s - w] and small content is centred")
    func invariantsHoldAfterEveryGesture() {
        sweep("invariants after every gesture", seed: 0x5EED_0001, cases: 2000) { rng in
            var scenario = ZoomScenario.random(&rng, maximumGestures: 0)
            var state = scenario.state
            if let problem = Self.violation(state) { return "initial state: \(problem) in \(scenario)" }
            for _ in 0..<20 {
                let gesture = ZoomScenario.randomGesture(for: state, &rng)
                state.apply(gesture)
                scenario.gestures.append(gesture)
                if let problem = Self.violation(state) { return "\(problem) in \(scenario)" }
            }
            return nil
        }
    }

    @Test("a new state is at the fit scale, shows the whole image and touches two opposite viewport edges")
    func newStateFits() {
        sweepScenarios("initial state fits", seed: 0x5EED_0002, maximumGestures: 0) { scenario, state, rng in
            let frame = state.imageFrame
            let m = state.magnitude
            guard state.zoomScale == state.minimumZoomScale, state.contentOffset == .zero else {
                return "not at fit or offset not zero: \(state)"
            }
            let fillsWidth = near(frame.width, state.viewportSize.width, magnitude: m)
            let fillsHeight = near(frame.height, state.viewportSize.height, magnitude: m)
            guard fillsWidth || fillsHeight, state.visibleRect == Rect(origin: .zero, size: state.imageSize) else {
                return "fit frame \(frame), visible \(state.visibleRect): \(state)"
            }
            return nil
        }
    }

    @Test("the state and its snapshot are finite for every random sequence")
    func snapshotIsFinite() {
        sweepScenarios("snapshot numbers are finite", seed: 0x5EED_0003, cases: 1000, maximumGestures: 12) {
            scenario, _, rng in
            let s = scenario.state.snapshot
            let numbers = [
                s.zoomScale, s.minimumZoomScale, s.maximumZoomScale, s.contentOffset.x, s.contentOffset.y,
                s.contentSize.width, s.contentSize.height, s.imageFrame.x, s.imageFrame.y, s.imageFrame.width,
                s.imageFrame.height, s.visibleRect.x, s.visibleRect.y, s.visibleRect.width, s.visibleRect.height,
            ]
            return numbers.allSatisfy(\.isFinite) ? nil : "non-finite snapshot \(s) for \(scenario)"
        }
    }
}
