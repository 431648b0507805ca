import Foundation
import Testing
import TileViewCore
import TileViewZoom

/// The `--json` record: key names and number rounding.
@Suite("Zoom snapshot")
struct ZoomSnapshotTests {
    @Test(
        "numbers are rounded to 6 decimals, -0 and tiny negatives become 0, non-finite becomes 0",
        arguments: [
            (1024.0 / 6000.0, 0.170667), (-0.0, 0.0), (-1e-9, 0.0), (42.666_666_666, 42.666667), (0.256, 0.256),
            (2.000_000_6, 2.000001), (-2.000_000_6, -2.000001), (1e20, 1e20), (Double.nan, 0.0),
            (-Double.infinity, 0.0),
        ])
    func rounding(value: Double, expected: Double) {
        let rounded = ZoomSnapshot.rounded(value)
        #expect(rounded == expected, "\(value) rounded to \(rounded)")
        #expect(rounded.sign == expected.sign, "\(value) rounded to \(rounded), sign")
    }

    @Test("the JSON has exactly the design's key names, nested as documented")
    func keyNames() throws {
        let state = ZoomState(imageSize: Size(width: 300, height: 200), viewportSize: Size(width: 100, height: 100))
        let data = try JSONEncoder().encode(state.snapshot)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "image", "viewport", "zoomScale", "minimumZoomScale", "maximumZoomScale", "contentOffset",
                "contentSize", "imageFrame", "visibleRect",
            ])
        let nested: [(String, Set<String>)] = [
            ("image", ["width", "height"]), ("viewport", ["width", "height"]), ("contentOffset", ["x", "y"]),
            ("contentSize", ["width", "height"]), ("imageFrame", ["x", "y", "width", "height"]),
            ("visibleRect", ["x", "y", "width", "height"]),
        ]
        for (key, keys) in nested {
            let inner = try #require(object[key] as? [String: Any], "\(key) is not an object")
            #expect(Set(inner.keys) == keys, "\(key)")
        }
        #expect((object["minimumZoomScale"] as? Double) == 0.333333)
    }

    @Test("a snapshot survives a JSON round trip unchanged")
    func jsonRoundTrip() throws {
        var state = ZoomState(imageSize: Size(width: 4032, height: 3024), viewportSize: Size(width: 390, height: 844))
        state.pinch(by: 3.7, aboutViewportPoint: Point(x: 100, y: 500))
        state.pan(byViewportDelta: Point(x: -33.3, y: 12))
        let data = try JSONEncoder().encode(state.snapshot)
        #expect(try JSONDecoder().decode(ZoomSnapshot.self, from: data) == state.snapshot)
    }
}
