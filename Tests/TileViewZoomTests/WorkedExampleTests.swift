import Foundation
import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// The worked example of docs/design.md section 3: a 6000x4000 photo in a 1024x768 viewport, double-tapped at (120,
/// 80).
@Suite("Worked example")
struct WorkedExampleTests {
    static let image = Size(width: 6000, height: 4000)
    static let viewport = Size(width: 1024, height: 768)
    static let tap = Point(x: 120, y: 80)

    static var fitted: ZoomState { ZoomState(imageSize: image, viewportSize: viewport) }

    static var tapped: ZoomState {
        var state = fitted
        state.doubleTap(atViewportPoint: tap)
        return state
    }

    /// The `--json` example printed in docs/design.md section 3, verbatim.
    static let designJSON = """
        {"image": {"width": 6000, "height": 4000}, "viewport": {"width": 1024, "height": 768},
         "zoomScale": 0.256, "minimumZoomScale": 0.170667, "maximumZoomScale": 1.0,
         "contentOffset": {"x": 0, "y": 0}, "contentSize": {"width": 1536, "height": 1024},
         "imageFrame": {"x": 0, "y": 0, "width": 1536, "height": 1024},
         "visibleRect": {"x": 0, "y": 0, "width": 4000, "height": 3000}}
        """

    /// Rounds to `places` decimals, as the design text prints numbers.
    static func rounded(_ value: Double, places: Int) -> Double {
        let factor = pow(10, Double(places))
        return (value * factor).rounded() / factor
    }

    @Test("the fit state is scale 0.170667 with the image frame at (0, 42.67), 1024x682.67")
    func fitState() {
        let state = Self.fitted
        #expect(Self.rounded(state.zoomScale, places: 6) == 0.170667)
        #expect(Self.rounded(state.minimumZoomScale, places: 6) == 0.170667)
        #expect(state.maximumZoomScale == 1.0)
        #expect(state.contentOffset == .zero)
        let frame = state.imageFrame
        #expect(frame.minX == 0)
        #expect(Self.rounded(frame.minY, places: 2) == 42.67)
        #expect(frame.width == 1024)
        #expect(Self.rounded(frame.height, places: 2) == 682.67)
        #expect(state.visibleRect == Rect(x: 0, y: 0, width: 6000, height: 4000))
    }

    @Test("the double tap at (120, 80) is on image point (703.125, 218.75)")
    func tappedImagePoint() {
        let q = Self.fitted.imagePoint(atViewportPoint: Self.tap)
        #expect(abs(q.x - 703.125) < 1e-9, "x \(q.x)")
        #expect(abs(q.y - 218.75) < 1e-9, "y \(q.y)")
    }

    @Test("after the double tap the scale is 0.256, the offset is clamped to (0, 0) and (0, 0) 4000x3000 is visible")
    func tappedState() {
        let state = Self.tapped
        #expect(abs(state.zoomScale - 0.256) < 1e-12, "scale \(state.zoomScale)")
        #expect(state.contentOffset == .zero)
        #expect(abs(state.contentSize.width - 1536) < 1e-9 && abs(state.contentSize.height - 1024) < 1e-9)
        let frame = state.imageFrame
        #expect(frame.minX == 0 && frame.minY == 0)
        let visible = state.visibleRect
        #expect(visible.minX == 0 && visible.minY == 0)
        #expect(abs(visible.width - 4000) < 1e-9, "visible width \(visible.width)")
        #expect(abs(visible.height - 3000) < 1e-9, "visible height \(visible.height)")
    }

    @Test("the snapshot after the double tap equals the --json example of docs/design.md section 3")
    func snapshotMatchesDesignText() throws {
        let design = try JSONDecoder().decode(ZoomSnapshot.self, from: Data(Self.designJSON.utf8))
        #expect(Self.tapped.snapshot == design)
    }

    @Test("the snapshot after the double tap matches the golden Tests/Goldens/zoom/worked-example.json")
    func snapshotMatchesGolden() throws {
        try Golden.assertJSON(Self.tapped.snapshot, "zoom/worked-example.json")
    }
}
