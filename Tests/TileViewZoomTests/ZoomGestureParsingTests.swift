import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// The `--gesture` text forms: every form read, printed back, and malformed text rejected with a useful message.
@Suite("Gesture parsing")
struct ZoomGestureParsingTests {
    @Test(
        "every text form parses to its gesture",
        arguments: [
            ("double-tap 120,80", ZoomGesture.doubleTap(viewportPoint: Point(x: 120, y: 80))),
            ("double-tap -3.5,.25", .doubleTap(viewportPoint: Point(x: -3.5, y: 0.25))),
            ("two-finger-tap", .twoFingerTap),
            ("  two-finger-tap\t", .twoFingerTap),
            ("pinch 2 512,384", .pinch(factor: 2, viewportPoint: Point(x: 512, y: 384))),
            ("pinch 0.5   -10,+20.75", .pinch(factor: 0.5, viewportPoint: Point(x: -10, y: 20.75))),
            ("pinch 1e-05 1.,2", .pinch(factor: 0.00001, viewportPoint: Point(x: 1, y: 2))),
            ("pan 30,-40", .pan(viewportDelta: Point(x: 30, y: -40))),
            ("pan -0.5,0", .pan(viewportDelta: Point(x: -0.5, y: 0))),
            ("zoom-to 10,20,300,400", .zoomTo(imageRect: Rect(x: 10, y: 20, width: 300, height: 400))),
            ("zoom-to -5.5,0,0,2E3", .zoomTo(imageRect: Rect(x: -5.5, y: 0, width: 0, height: 2000))),
        ])
    func parsesEveryForm(text: String, expected: ZoomGesture) throws {
        #expect(try ZoomGesture(parsing: text) == expected)
    }

    @Test(
        "description prints the text form",
        arguments: [
            (ZoomGesture.doubleTap(viewportPoint: Point(x: 120, y: 80)), "double-tap 120,80"),
            (.twoFingerTap, "two-finger-tap"),
            (.pinch(factor: 1.5, viewportPoint: Point(x: -0.25, y: 3)), "pinch 1.5 -0.25,3"),
            (.pan(viewportDelta: Point(x: -7, y: 0.125)), "pan -7,0.125"),
            (.zoomTo(imageRect: Rect(x: 0, y: 1, width: 2.5, height: 3)), "zoom-to 0,1,2.5,3"),
        ])
    func describesTextForm(gesture: ZoomGesture, expected: String) {
        #expect(gesture.description == expected)
    }

    @Test("parsing the description of any gesture gives the same gesture back")
    func descriptionRoundTrips() {
        sweepScenarios("description round-trips through the parser", seed: 0x9A25_0001, cases: 2000, maximumGestures: 0)
        { scenario, state, rng in
            var gesture = ZoomScenario.randomGesture(for: state, &rng)
            if rng.chance(0.3) {
                // Whole numbers print without a fraction; cover them too.
                switch gesture {
                case .pan(let d): gesture = .pan(viewportDelta: Point(x: d.x.rounded(), y: d.y.rounded()))
                case .doubleTap(let p): gesture = .doubleTap(viewportPoint: Point(x: p.x.rounded(), y: p.y.rounded()))
                default: break
                }
            }
            return Self.roundTripProblem(gesture)
        }
    }

    /// Nil when `gesture`'s text form parses back to it, else what went wrong.
    static func roundTripProblem(_ gesture: ZoomGesture) -> String? {
        textRoundTripProblem(gesture, ZoomGesture.init(parsing:))
    }

    @Test(
        "malformed text is rejected with a message naming the problem and listing the forms",
        arguments: [
            ("", "empty"),
            ("   ", "empty"),
            ("tap 1,2", "unknown gesture name \"tap\""),
            ("Double-Tap 1,2", "unknown gesture name"),
            ("double-tap", "double-tap takes 1 argument"),
            ("double-tap 1,2 3,4", "got 2"),
            ("double-tap 1", "needs 2 comma-separated numbers"),
            ("double-tap 1,2,3", "needs 2 comma-separated numbers"),
            ("double-tap 1,", "empty number"),
            ("double-tap ,2", "empty number"),
            ("double-tap 1, 2", "takes 1 argument"),
            ("double-tap 1,2x", "\"2x\", which is not a finite decimal number"),
            ("double-tap nan,2", "\"nan\""),
            ("double-tap 1,inf", "\"inf\""),
            ("double-tap 1,-infinity", "\"-infinity\""),
            ("double-tap 0x10,2", "\"0x10\""),
            ("double-tap 1e,2", "\"1e\""),
            ("double-tap .,2", "\".\""),
            ("double-tap --1,2", "\"--1\""),
            ("double-tap 1e999,2", "\"1e999\""),
            ("double-tap 1;2", "needs 2 comma-separated numbers"),
            ("two-finger-tap 1,2", "two-finger-tap takes 0 arguments"),
            ("pinch 2", "pinch takes 2 arguments"),
            ("pinch 1,2 3,4", "factor F needs 1 comma-separated number"),
            ("pinch 0 1,2", "greater than 0"),
            ("pinch -2 1,2", "greater than 0"),
            ("pinch x 1,2", "the factor F has \"x\""),
            ("pan", "pan takes 1 argument"),
            ("pan 1,2,3", "motion DX,DY needs 2"),
            ("zoom-to 1,2,3", "rect X,Y,W,H needs 4"),
            ("zoom-to 1,2,-3,4", "must not be negative"),
            ("zoom-to 1,2,3,4 extra", "got 2"),
        ])
    func rejectsMalformedText(text: String, fragment: String) {
        #expect(throws: ZoomGestureParseError.self) { try ZoomGesture(parsing: text) }
        Self.expectRejected(text, naming: fragment)
    }

    /// Expects `text` to be refused with a message that quotes it, contains `fragment` and lists the forms.
    static func expectRejected(
        _ text: String, naming fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectTextRejected(
            text, naming: fragment, accepted: ZoomGestureGrammar.forms, "message lists the forms",
            by: ZoomGesture.init(parsing:), sourceLocation: sourceLocation)
    }
}
