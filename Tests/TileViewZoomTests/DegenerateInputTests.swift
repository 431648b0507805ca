import Testing
import TileViewCore
import TileViewZoom

/// Degenerate sizes, settings and gesture arguments are clamped to a valid state, as documented on `ZoomState`.
@Suite("Degenerate input")
struct DegenerateInputTests {
    static let odd: [Double] = [0, -1, -0.0, 0.5, .nan, .infinity, -.infinity, 1e300, -1e300, .leastNonzeroMagnitude]

    @Test(
        "a NaN, zero, negative or sub-pixel dimension becomes 1 and a huge one the largest dimension",
        arguments: [
            (0.0, 1.0), (-5, 1), (0.5, 1), (.nan, 1), (-.infinity, 1), (.infinity, ZoomState.largestDimension),
            (1e300, ZoomState.largestDimension), (1, 1), (6000, 6000),
        ])
    func dimensionsAreClamped(given: Double, expected: Double) {
        let state = ZoomState(
            imageSize: Size(width: given, height: 10), viewportSize: Size(width: 20, height: given))
        #expect(state.imageSize == Size(width: expected, height: 10))
        #expect(state.viewportSize == Size(width: 20, height: expected))
        #expect(state.invariantViolations.isEmpty, "\(state.invariantViolations)")
    }

    @Test(
        "a non-finite maximum scale setting becomes 1; others are clamped to [0, largestScaleSetting]",
        arguments: [
            (Double.nan, 1.0), (Double.infinity, 1.0), (-Double.infinity, 1.0), (-3.0, 0.0), (0.0, 0.0), (2.5, 2.5),
            (1e12, ZoomState.largestScaleSetting),
        ])
    func maximumScaleSettingIsClamped(given: Double, expected: Double) {
        let state = ZoomState(
            imageSize: Size(width: 100, height: 100), viewportSize: Size(width: 10, height: 10),
            maximumScaleSetting: given)
        #expect(state.maximumScaleSetting == expected)
        #expect(state.maximumZoomScale == max(expected, 0.1))
    }

    @Test(
        "a NaN double-tap step becomes 1.5; others are clamped to [1, largestScaleSetting]",
        arguments: [
            (Double.nan, 1.5), (0.0, 1.0), (-2.0, 1.0), (0.5, 1.0), (1.0, 1.0), (3.0, 3.0),
            (Double.infinity, ZoomState.largestScaleSetting),
        ])
    func doubleTapStepIsClamped(given: Double, expected: Double) {
        let state = ZoomState(
            imageSize: Size(width: 100, height: 100), viewportSize: Size(width: 10, height: 10), doubleTapStep: given)
        #expect(state.doubleTapStep == expected)
    }

    @Test("pinch by 0 or a negative factor goes to the minimum, by +infinity to the maximum, by NaN changes nothing")
    func degeneratePinchFactors() {
        var base = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        base.pinch(by: 3, aboutViewportPoint: Point(x: 500, y: 400))
        let fingers = Point(x: 300, y: 200)
        for factor: Double in [0.0, -0.0, -1, -.infinity] {
            var state = base
            state.pinch(by: factor, aboutViewportPoint: fingers)
            #expect(state.zoomScale == state.minimumZoomScale, "factor \(factor)")
        }
        var up = base
        up.pinch(by: .infinity, aboutViewportPoint: fingers)
        #expect(up.zoomScale == up.maximumZoomScale)
        var same = base
        same.pinch(by: .nan, aboutViewportPoint: fingers)
        #expect(same == base)
    }

    @Test("a non-finite tap or pinch coordinate is taken as the viewport centre's")
    func nonFinitePointsUseCentre() {
        let base = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        for bad in [Double.nan, .infinity, -.infinity] {
            var tapped = base
            tapped.doubleTap(atViewportPoint: Point(x: bad, y: 100))
            var reference = base
            reference.doubleTap(atViewportPoint: Point(x: 512, y: 100))
            #expect(tapped == reference, "double tap at x \(bad)")
            var pinched = base
            pinched.pinch(by: 2, aboutViewportPoint: Point(x: 700, y: bad))
            var pinchReference = base
            pinchReference.pinch(by: 2, aboutViewportPoint: Point(x: 700, y: 384))
            #expect(pinched == pinchReference, "pinch at y \(bad)")
        }
    }

    @Test("pan by NaN moves nothing on that axis; pan by infinity scrolls to that axis's limit")
    func degeneratePans() {
        var base = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        base.zoom(toImageRect: Rect(x: 2000, y: 1500, width: 1024, height: 768))
        var state = base
        state.pan(byViewportDelta: Point(x: .nan, y: .infinity))
        #expect(state.contentOffset == Point(x: base.contentOffset.x, y: 0))
        state.pan(byViewportDelta: Point(x: -.infinity, y: .nan))
        #expect(state.contentOffset == Point(x: state.contentOffsetLimit.x, y: 0))
        #expect(state.zoomScale == base.zoomScale)
    }

    @Test("zoomToRect ignores non-finite rects, standardises negative sizes and zooms to the maximum for a point")
    func degenerateRects() {
        let base = ZoomState(imageSize: Size(width: 6000, height: 4000), viewportSize: Size(width: 1024, height: 768))
        for bad in [Double.nan, .infinity, -.infinity] {
            var state = base
            state.zoom(toImageRect: Rect(x: 10, y: bad, width: 100, height: 100))
            #expect(state == base, "rect with \(bad)")
        }
        var flipped = base
        flipped.zoom(toImageRect: Rect(x: 3000, y: 2000, width: -1024, height: -768))
        var standard = base
        standard.zoom(toImageRect: Rect(x: 1976, y: 1232, width: 1024, height: 768))
        #expect(flipped == standard)
        var point = base
        point.zoom(toImageRect: Rect(x: 3000, y: 2000, width: 0, height: 0))
        #expect(point.zoomScale == point.maximumZoomScale)
        #expect(point.imagePoint(atViewportPoint: point.viewportCenter) == Point(x: 3000, y: 2000))
    }

    @Test("every combination of degenerate sizes and arguments ends in a valid state with finite numbers")
    func everyDegenerateCombinationIsValid() {
        var checked = 0
        for a in Self.odd {
            for b in Self.odd {
                var state = ZoomState(
                    imageSize: Size(width: a, height: 3), viewportSize: Size(width: b, height: a),
                    maximumScaleSetting: b, doubleTapStep: a)
                let gestures: [ZoomGesture] = [
                    .doubleTap(viewportPoint: Point(x: a, y: b)), .pinch(factor: a, viewportPoint: Point(x: b, y: a)),
                    .pan(viewportDelta: Point(x: a, y: b)), .zoomTo(imageRect: Rect(x: a, y: b, width: a, height: b)),
                    .twoFingerTap, .pinch(factor: b, viewportPoint: Point(x: 1, y: 1)),
                    .zoomTo(imageRect: Rect(x: 1, y: 1, width: b, height: a)),
                ]
                for gesture in gestures {
                    state.apply(gesture)
                    let numbers = [
                        state.zoomScale, state.contentOffset.x, state.contentOffset.y, state.imageFrame.minX,
                        state.imageFrame.minY, state.visibleRect.width, state.visibleRect.height,
                    ]
                    #expect(
                        state.invariantViolations.isEmpty && numbers.allSatisfy(\.isFinite),
                        "sizes \(a), \(b) after \(gesture): \(state) \(state.invariantViolations)")
                    checked += 1
                }
            }
        }
        #expect(checked == Self.odd.count * Self.odd.count * 7)
    }
}
