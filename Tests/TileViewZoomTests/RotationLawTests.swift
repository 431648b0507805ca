import Foundation
import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Rotation: quarter turns about the viewport centre, the engine on the rotated image, and the mapping back to the
/// unrotated image.
@Suite("Rotation")
struct RotationLawTests {
    /// Offsets and scale equal within rounding of the state's magnitude; everything else exactly.
    static func same(_ a: ZoomState, _ b: ZoomState) -> Bool {
        let m = max(a.magnitude, b.magnitude)
        return a.unrotatedImageSize == b.unrotatedImageSize && a.rotation == b.rotation
            && a.viewportSize == b.viewportSize && near(a.zoomScale, b.zoomScale)
            && abs(a.contentOffset.x - b.contentOffset.x) <= 1e-9 * max(1, m)
            && abs(a.contentOffset.y - b.contentOffset.y) <= 1e-9 * max(1, m)
    }

    /// A random scenario with a square viewport, rotated by 0 to 3 quarter turns somewhere in its gestures.
    static func squareScenario(_ rng: inout SplitMix64) -> ZoomScenario {
        var scenario = ZoomScenario.random(&rng)
        let side = rng.chance(0.2) ? 1 : min(4096, rng.logUniform(1, 4097).rounded(.down))
        scenario.viewportSize = Size(width: side, height: side)
        scenario.gestures.insert(.rotate(quarterTurns: rng.int(0...3)), at: rng.int(below: scenario.gestures.count + 1))
        return scenario
    }

    @Test("the mapping between unrotated and rotated image points is inverse and turns corners clockwise")
    func mappingRoundTrips() {
        let size = Size(width: 600, height: 400)
        #expect(ZoomRotation.clockwise90.rotatedPoint(.zero, inUnrotatedSize: size) == Point(x: 400, y: 0))
        #expect(ZoomRotation.clockwise180.rotatedPoint(.zero, inUnrotatedSize: size) == Point(x: 600, y: 400))
        #expect(ZoomRotation.clockwise270.rotatedPoint(.zero, inUnrotatedSize: size) == Point(x: 0, y: 600))
        #expect(ZoomRotation.clockwise90.rotatedSize(size) == Size(width: 400, height: 600))
        #expect(ZoomRotation.clockwise180.rotatedSize(size) == size)
        #expect(
            ZoomRotation.clockwise90.rotatedRect(Rect(x: 0, y: 0, width: 100, height: 50), inUnrotatedSize: size)
                == Rect(x: 350, y: 0, width: 50, height: 100))
        #expect(ZoomRotation(quarterTurns: -1) == .clockwise270 && ZoomRotation(quarterTurns: 9) == .clockwise90)
        #expect(
            ZoomRotation(quarterTurns: Int.min) == .upright && ZoomRotation.clockwise270.turned(by: 2) == .clockwise90)
        sweep("rotation mapping round-trips", seed: 0x2074_0001, cases: 2000) { rng in
            let size = Size(width: rng.logUniform(1, 20000), height: rng.logUniform(1, 20000))
            let rotation = rng.pick(ZoomRotation.allCases)
            let p = Point(x: rng.uniform(0, size.width), y: rng.uniform(0, size.height))
            let rotated = rotation.rotatedPoint(p, inUnrotatedSize: size)
            let back = rotation.unrotatedPoint(rotated, inUnrotatedSize: size)
            let r = rotation.rotatedSize(size)
            guard rotated.x >= 0, rotated.y >= 0, rotated.x <= r.width, rotated.y <= r.height else {
                return "\(p) rotated \(rotation) to \(rotated), outside \(r)"
            }
            let m = max(size.width, size.height)
            return near(back.x, p.x, magnitude: m) && near(back.y, p.y, magnitude: m)
                ? nil : "\(p) came back as \(back)"
        }
    }

    @Test("four quarter turns in a square viewport give back the state; so do a turn and its opposite")
    func fullTurnsInSquareViewport() {
        sweep("turns in a square viewport undo", seed: 0x2074_0002, cases: 3000) { rng in
            let scenario = Self.squareScenario(&rng)
            let start = scenario.state
            let direction = rng.chance(0.5) ? 1 : -1
            var state = start
            for turn in 1...4 {
                state.rotate(quarterTurns: direction)
                // A square viewport never clamps a turn: the scale is kept exactly.
                guard state.zoomScale == start.zoomScale else {
                    return "turn \(turn) changed the scale to \(state.zoomScale): \(scenario)"
                }
            }
            guard Self.same(state, start) else { return "four turns gave \(state), from \(start): \(scenario)" }
            let turns = rng.pick([1, 2, 3, -1])
            var back = start
            back.rotate(quarterTurns: turns)
            back.rotate(quarterTurns: -turns)
            return Self.same(back, start) ? nil : "rotate \(turns) and back gave \(back), from \(start): \(scenario)"
        }
    }

    @Test("from fit, in any viewport, four turns or a turn and its opposite give back the state exactly")
    func fullTurnsAtFit() {
        sweepScenarios("turns at fit undo exactly", seed: 0x2074_0003, maximumGestures: 0) { scenario, start, rng in
            var state = start
            for _ in 1...4 {
                state.rotate(quarterTurns: 1)
                guard state.zoomScale == state.minimumZoomScale, state.contentOffset == .zero else {
                    return "a turn left fit: \(state), \(scenario)"
                }
            }
            guard state == start else { return "four turns gave \(state), from \(start): \(scenario)" }
            let turns = rng.pick([1, 2, 3, -1])
            var back = start
            back.rotate(quarterTurns: turns)
            back.rotate(quarterTurns: -turns)
            return back == start ? nil : "rotate \(turns) and back gave \(back): \(scenario)"
        }
    }

    @Test("a turn swaps the size and recomputes the limits: fit stays fit, another scale is kept within the limits")
    func turnRecomputesLimits() {
        sweepScenarios("a turn recomputes the limits", seed: 0x2074_0004) { scenario, state, rng in
            let before = state
            let turns = rng.pick([1, 2, 3, -1])
            state.rotate(quarterTurns: turns)
            let context = "rotate \(turns * 90) after \(scenario)"
            let w = state.viewportSize.width
            let h = state.viewportSize.height
            let old = before.imageSize
            let size = turns % 2 == 0 ? old : Size(width: old.height, height: old.width)
            let fit = min(w / size.width, h / size.height)
            guard state.imageSize == size, state.unrotatedImageSize == before.unrotatedImageSize,
                state.rotation == before.rotation.turned(by: turns), state.minimumZoomScale == fit,
                state.maximumZoomScale == max(state.maximumScaleSetting, fit)
            else {
                return
                    "size \(state.imageSize), limits [\(state.minimumZoomScale), \(state.maximumZoomScale)]: \(context)"
            }
            let expectedScale =
                before.zoomScale == before.minimumZoomScale
                ? fit : min(max(before.zoomScale, fit), state.maximumZoomScale)
            guard state.zoomScale == expectedScale else {
                return "scale \(state.zoomScale), expected \(expectedScale): \(context)"
            }
            return ZoomInvariantLawTests.violation(state).map { "\($0): \(context)" }
        }
    }

    @Test("the image point at the viewport centre stays at the centre unless the offset is clamped")
    func centrePointStays() {
        sweepScenarios("a turn keeps the centre point", seed: 0x2074_0005) { scenario, state, rng in
            let center = state.viewportCenter
            let atCenter = state.unrotatedImagePoint(atViewportPoint: center)
            let turns = rng.pick([1, 2, 3, -1])
            state.rotate(quarterTurns: turns)
            return state.mismatch(showing: state.imagePoint(atUnrotatedImagePoint: atCenter), at: center).map {
                "\($0): rotate \(turns * 90) after \(scenario)"
            }
        }
    }

    @Test("the invariants hold after any sequence of gestures with turns and flings, on the rotated image")
    func invariantsHoldWithTurns() {
        sweepScenarios("invariants with turns", seed: 0x2074_0006, cases: 1500, maximumGestures: 2) {
            drawn, state, rng in
            var scenario = drawn
            for _ in 0..<12 {
                let gesture =
                    switch rng.next() % 4 {
                    case 0: ZoomGesture.rotate(quarterTurns: rng.pick([1, 2, 3, -1]))
                    case 1: DecelerationLawTests.randomFling(for: state, &rng, maximumSpeed: 5)
                    default: ZoomScenario.randomGesture(for: state, &rng)
                    }
                state.apply(gesture)
                scenario.gestures.append(gesture)
                if let problem = ZoomInvariantLawTests.violation(state) { return "\(problem) in \(scenario)" }
                // The unrotated visible rect lies in the unrotated image and maps back to the visible rect.
                let unrotated = state.unrotatedVisibleRect
                let image = state.unrotatedImageSize
                let tolerance = 1e-9 * max(image.width, image.height)
                let back = state.imageRect(forUnrotatedImageRect: unrotated)
                let visible = state.visibleRect
                guard unrotated.minX >= -tolerance, unrotated.minY >= -tolerance,
                    unrotated.maxX <= image.width + tolerance, unrotated.maxY <= image.height + tolerance,
                    abs(back.minX - visible.minX) <= tolerance, abs(back.minY - visible.minY) <= tolerance,
                    abs(back.width - visible.width) <= tolerance, abs(back.height - visible.height) <= tolerance
                else { return "unrotated visible \(unrotated) for visible \(visible) in \(scenario)" }
            }
            return nil
        }
    }

    @Test("double taps on a rotated state zoom the rotated image: the tapped point goes to the centre")
    func doubleTapOnRotatedImage() {
        sweepScenarios("double tap on a turned image", seed: 0x2074_0007) { scenario, state, rng in
            let turns = rng.pick([1, 2, 3, -1])
            state.rotate(quarterTurns: turns)
            let tap = ZoomScenario.randomViewportPoint(in: state, &rng)
            let tapped = state.unrotatedImagePoint(atViewportPoint: tap)
            state.doubleTap(atViewportPoint: tap)
            return state.mismatch(showing: state.imagePoint(atUnrotatedImagePoint: tapped), at: state.viewportCenter)
                .map { "\($0): rotate \(turns * 90); double-tap \(tap) after \(scenario)" }
        }
    }

    @Test("the worked example turned 90 degrees: 4000x6000 at fit 0.128, the frame 512x768 at x 256")
    func workedExampleTurned() {
        var state = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        state.apply(.rotate(quarterTurns: 1))
        #expect(state.imageSize == Size(width: 4000, height: 6000))
        #expect(state.unrotatedImageSize == Size(width: 6000, height: 4000))
        #expect(state.zoomScale == 0.128 && state.minimumZoomScale == 0.128)
        #expect(state.imageFrame == Rect(x: 256, y: 0, width: 512, height: 768))
        #expect(state.unrotatedVisibleRect == Rect(x: 0, y: 0, width: 6000, height: 4000))
        let made = ZoomState(
            unrotatedImageSize: Size(width: 6000, height: 4000), rotation: .clockwise90,
            viewportSize: Size(width: 1024, height: 768))
        #expect(made == state)
        // The top-left unrotated pixel shows at the top right of the frame.
        let corner = state.viewportPoint(atImagePoint: state.imagePoint(atUnrotatedImagePoint: .zero))
        #expect(corner == Point(x: 768, y: 0))
        // Zoomed in, the visible part maps back to a rect of the unrotated image.
        state.zoom(toImageRect: Rect(x: 1000, y: 2000, width: 1024, height: 768))
        let visible = state.visibleRect
        #expect(
            state.unrotatedVisibleRect
                == Rect(x: visible.minY, y: 4000 - visible.maxX, width: visible.height, height: visible.width))
    }

    @Test("the snapshot of a turned state has the rotated image size and a rotation key; upright ones have none")
    func snapshotRotation() throws {
        var state = ZoomState(imageSize: Size(width: 300, height: 200), viewportSize: Size(width: 100, height: 100))
        #expect(state.snapshot.rotation == nil)
        let upright = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(state.snapshot)) as? [String: Any]
        #expect(upright?["rotation"] == nil)
        state.rotate(quarterTurns: -1)
        let snapshot = state.snapshot
        #expect(snapshot.rotation == 270)
        #expect(snapshot.image == Size(width: 200, height: 300))
        let data = try JSONEncoder().encode(snapshot)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((object["rotation"] as? Int) == 270)
        #expect(try JSONDecoder().decode(ZoomSnapshot.self, from: data) == snapshot)
        // A record from before rotation existed decodes as upright.
        let old = try JSONDecoder().decode(ZoomSnapshot.self, from: Data(WorkedExampleTests.designJSON.utf8))
        #expect(old.rotation == nil)
        #expect(old == WorkedExampleTests.tapped.snapshot)
    }
}
