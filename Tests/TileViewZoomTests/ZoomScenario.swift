import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// A reproducible random situation: an image, a viewport, the settings and the gestures that led to the state.
///
/// Its description is what a failure prints: sizes, settings and gestures in the command line's text form.
struct ZoomScenario: CustomStringConvertible {
    var imageSize: Size
    var viewportSize: Size
    var maximumScaleSetting: Double
    var doubleTapStep: Double
    var gestures: [ZoomGesture] = []

    var initialState: ZoomState {
        ZoomState(
            imageSize: imageSize, viewportSize: viewportSize, maximumScaleSetting: maximumScaleSetting,
            doubleTapStep: doubleTapStep)
    }

    var state: ZoomState {
        var state = initialState
        state.apply(gestures)
        return state
    }

    var description: String {
        "image \(imageSize) viewport \(viewportSize) M \(maximumScaleSetting) k \(doubleTapStep) gestures ["
            + gestures.map(\.description).joined(separator: "; ") + "]"
    }

    /// Images from 1x1 to 20000x20000 with any aspect ratio, viewports from 1x1 to 4096x4096, settings around the
    /// defaults, and up to `maximumGestures` random gestures.
    static func random(_ rng: inout SplitMix64, maximumGestures: Int = 6) -> ZoomScenario {
        func dimension(_ limit: Double) -> Double {
            min(limit, rng.logUniform(1, limit + 1).rounded(.down))
        }
        let imageSize =
            rng.chance(0.1)
            ? rng.pick([
                Size(width: 1, height: 1), Size(width: 20000, height: 1), Size(width: 1, height: 20000),
                Size(width: 20000, height: 20000), Size(width: 6000, height: 4000), Size(width: 1024, height: 768),
            ])
            : Size(width: dimension(20000), height: dimension(20000))
        let viewportSize =
            rng.chance(0.2)
            ? rng.pick([
                Size(width: 1, height: 1), Size(width: 1024, height: 768), Size(width: 390, height: 844),
                Size(width: 4096, height: 1), Size(width: 1, height: 4096),
            ])
            : Size(width: dimension(4096), height: dimension(4096))
        let maximum = rng.pick([1, 1, 1, 0.5, 2, 4, 0.01, 50, rng.logUniform(0.01, 50)])
        let step = rng.pick([1.5, 1.5, 1.5, 2, 1, rng.logUniform(1, 4)])
        var scenario = ZoomScenario(
            imageSize: imageSize, viewportSize: viewportSize, maximumScaleSetting: maximum, doubleTapStep: step)
        var state = scenario.initialState
        for _ in 0..<Int(rng.next() % UInt64(maximumGestures + 1)) {
            let gesture = randomGesture(for: state, &rng)
            state.apply(gesture)
            scenario.gestures.append(gesture)
        }
        return scenario
    }

    /// A viewport point, mostly inside the viewport, sometimes in a band around it.
    static func randomViewportPoint(in state: ZoomState, _ rng: inout SplitMix64, margin: Double = 0.25) -> Point {
        let v = state.viewportSize
        return Point(
            x: rng.uniform(-margin * v.width, (1 + margin) * v.width),
            y: rng.uniform(-margin * v.height, (1 + margin) * v.height))
    }

    /// An image rect: centre around the image, each side from 1/1000 of the image to twice the image, sometimes 0.
    static func randomImageRect(in state: ZoomState, _ rng: inout SplitMix64) -> Rect {
        let image = state.imageSize
        let width = rng.chance(0.05) ? 0 : image.width * rng.logUniform(0.001, 2)
        let height = rng.chance(0.05) ? 0 : image.height * rng.logUniform(0.001, 2)
        let center = Point(
            x: rng.uniform(-0.1 * image.width, 1.1 * image.width),
            y: rng.uniform(-0.1 * image.height, 1.1 * image.height))
        return Rect(center: center, size: Size(width: width, height: height))
    }

    static func randomGesture(for state: ZoomState, _ rng: inout SplitMix64) -> ZoomGesture {
        let v = state.viewportSize
        switch rng.next() % 5 {
        case 0:
            return .doubleTap(viewportPoint: randomViewportPoint(in: state, &rng))
        case 1:
            return .twoFingerTap
        case 2:
            return .pinch(factor: rng.logUniform(0.05, 20), viewportPoint: randomViewportPoint(in: state, &rng))
        case 3:
            let reach = rng.chance(0.5) ? 10 : 2 * max(v.width, v.height)
            return .pan(viewportDelta: Point(x: rng.uniform(-reach, reach), y: rng.uniform(-reach, reach)))
        default:
            return .zoomTo(imageRect: randomImageRect(in: state, &rng))
        }
    }
}

/// Sweeps a law over random zoom scenarios: each case draws a scenario (`ZoomScenario.random` with up to
/// `maximumGestures` gestures) from its generator, then `body` checks it, drawing anything else from the same
/// generator; see `sweep`. `body` gets the scenario and a copy of its state to change.
func sweepScenarios(
    _ law: String, seed: UInt64, cases: Int = 3000, maximumGestures: Int = 6,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (ZoomScenario, inout ZoomState, inout SplitMix64) -> String?
) {
    sweep(law, seed: seed, cases: cases, sourceLocation: sourceLocation) { rng in
        let scenario = ZoomScenario.random(&rng, maximumGestures: maximumGestures)
        var state = scenario.state
        return body(scenario, &state, &rng)
    }
}
