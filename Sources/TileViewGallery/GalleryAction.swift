import TileViewCore
import TileViewPaging
import TileViewZoom

/// One step of a gallery walk: a page move, a zoom gesture on the current page, or a finger drag between pages.
///
/// Text forms, one per script line: a move (`next`, `prev`, `left`, `right`, `up`, `down`, `goto N`, any letter case);
/// a zoom gesture as `tileview zoom --gesture` takes it (`double-tap X,Y`, `two-finger-tap`, `pinch F X,Y`,
/// `pan DX,DY`, `zoom-to X,Y,W,H`); or `drag DX,DY velocity VX,VY` (the finger's motion in viewport pixels, then
/// the content offset's velocity at release in points per millisecond, UIKit's convention; `velocity VX,VY` may
/// be left out for a release at rest). `description` prints the same forms, which the parser reads back.
public enum GalleryAction: Hashable, Sendable, CustomStringConvertible {
    case move(PageMove)
    case gesture(ZoomGesture)
    case drag(translation: Point, velocity: Point)

    /// Reads one step; the error says what was wrong and lists the accepted forms.
    public init(parsing text: String) throws(GalleryActionParseError) {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let first = words.first else { throw GalleryActionParseError(input: text, problem: "the step is empty") }
        if first.lowercased() == "goto" || (words.count == 1 && PageMove.validWords.contains(first.lowercased())) {
            do throws(PageMoveError) {
                self = .move(try PageMove(parsing: text))
            } catch {
                throw GalleryActionParseError(input: text, problem: error.description)
            }
            return
        }
        if first == "drag" {
            self = try Self.parseDrag(text, Array(words.dropFirst()))
            return
        }
        do {
            self = .gesture(try ZoomGesture(parsing: text))
        } catch {
            guard ["double-tap", "two-finger-tap", "pinch", "pan", "zoom-to", "rotate"].contains(first) else {
                throw GalleryActionParseError(input: text, problem: "unknown step \"\(first)\"")
            }
            throw GalleryActionParseError(input: text, problem: error.problem)
        }
    }

    public var description: String {
        switch self {
        case .move(let move): return move.description
        case .gesture(let gesture): return gesture.description
        case .drag(let t, let v):
            let f = Self.formatNumber
            return "drag \(f(t.x)),\(f(t.y)) velocity \(f(v.x)),\(f(v.y))"
        }
    }

    private static func parseDrag(_ text: String, _ arguments: [Substring]) throws(GalleryActionParseError)
        -> GalleryAction
    {
        func fail(_ problem: String) -> GalleryActionParseError {
            GalleryActionParseError(input: text, problem: problem)
        }
        guard arguments.count == 1 || (arguments.count == 3 && arguments[1] == "velocity") else {
            throw fail("a drag is written \"drag DX,DY\" or \"drag DX,DY velocity VX,VY\"")
        }
        guard let t = pair(arguments[0]) else {
            throw fail("the drag motion DX,DY needs two finite decimal numbers, got \"\(arguments[0])\"")
        }
        var v = Point.zero
        if arguments.count == 3 {
            guard let velocity = pair(arguments[2]) else {
                throw fail("the velocity VX,VY needs two finite decimal numbers, got \"\(arguments[2])\"")
            }
            v = velocity
        }
        return .drag(translation: t, velocity: v)
    }

    /// `X,Y` as two finite decimal numbers (digits, sign, point and exponent only: no `nan`, `inf` or hex).
    private static func pair(_ word: Substring) -> Point? {
        let parts = word.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        var values: [Double] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ "0123456789+-.eE".contains($0) }),
                let value = Double(String(part)), value.isFinite
            else { return nil }
            values.append(value)
        }
        return Point(x: values[0], y: values[1])
    }

    /// Whole numbers without a fraction, others in Swift's shortest round-trip form.
    static func formatNumber(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
