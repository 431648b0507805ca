import TileViewCore

/// Reading a gesture from its command-line text form.
extension ZoomGesture {
    /// Parses `double-tap X,Y`, `two-finger-tap`, `pinch F X,Y`, `pan DX,DY`, `pan DX,DY velocity VX,VY`,
    /// `zoom-to X,Y,W,H` or `rotate D`.
    ///
    /// Strict: the name (and the word `velocity`) is lowercase and exact; words are separated by spaces or tabs
    /// (leading and trailing ones are ignored); a coordinate list has no spaces and exactly the right number of
    /// parts; a number is decimal (`12`, `-3.5`, `.5`, `1e-05`), never empty, `nan`, `inf` or hex. A pinch factor
    /// must be greater than 0, a zoom-to width and height must not be negative, and a rotation is 90, 180, 270 or
    /// -90 degrees.
    public init(parsing text: String) throws(ZoomGestureParseError) {
        func fail(_ problem: String) -> ZoomGestureParseError {
            ZoomGestureParseError(input: text, problem: problem)
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard let name = words.first else { throw fail("the gesture is empty") }
        let arguments = Array(words.dropFirst())

        func expectArguments(_ count: Int, _ form: String) throws(ZoomGestureParseError) {
            guard arguments.count == count else {
                let given = arguments.isEmpty ? "none" : "\(arguments.count) (\(arguments.joined(separator: " ")))"
                throw fail("\(name) takes \(count == 1 ? "1 argument" : "\(count) arguments"), \(form); got \(given)")
            }
        }

        func point(_ text: Substring, _ role: String) throws(ZoomGestureParseError) -> Point {
            let p = try Self.numbers(text, count: 2, role: role, fail)
            return Point(x: p[0], y: p[1])
        }

        switch name {
        case "double-tap":
            try expectArguments(1, "the viewport point X,Y")
            self = .doubleTap(viewportPoint: try point(arguments[0], "point X,Y"))
        case "two-finger-tap":
            try expectArguments(0, "nothing")
            self = .twoFingerTap
        case "pinch":
            try expectArguments(2, "the factor F and the viewport point X,Y")
            let factor = try Self.numbers(arguments[0], count: 1, role: "factor F", fail)[0]
            guard factor > 0 else { throw fail("the pinch factor must be greater than 0, got \(arguments[0])") }
            self = .pinch(factor: factor, viewportPoint: try point(arguments[1], "point X,Y"))
        case "pan":
            if arguments.count == 3 {
                guard arguments[1] == "velocity" else {
                    throw fail(
                        "pan's second word must be \"velocity\" (pan DX,DY velocity VX,VY), got \"\(arguments[1])\"")
                }
                self = .fling(
                    viewportDelta: try point(arguments[0], "motion DX,DY"),
                    velocity: try point(arguments[2], "velocity VX,VY"))
            } else {
                try expectArguments(1, "the finger's motion DX,DY, or 3, DX,DY velocity VX,VY")
                self = .pan(viewportDelta: try point(arguments[0], "motion DX,DY"))
            }
        case "zoom-to":
            try expectArguments(1, "the image rect X,Y,W,H")
            let r = try Self.numbers(arguments[0], count: 4, role: "rect X,Y,W,H", fail)
            guard r[2] >= 0, r[3] >= 0 else {
                throw fail("the zoom-to width and height must not be negative, got \(arguments[0])")
            }
            self = .zoomTo(imageRect: Rect(x: r[0], y: r[1], width: r[2], height: r[3]))
        case "rotate":
            try expectArguments(1, "the clockwise angle in degrees, 90, 180, 270 or -90")
            let degrees = try Self.numbers(arguments[0], count: 1, role: "angle", fail)[0]
            guard let quarterTurns = [90: 1, 180: 2, 270: 3, -90: -1][degrees] else {
                throw fail("rotate turns by quarter turns only, 90, 180, 270 or -90 degrees, got \(arguments[0])")
            }
            self = .rotate(quarterTurns: quarterTurns)
        default:
            throw fail("unknown gesture name \"\(name)\"")
        }
    }

    /// `count` comma-separated numbers, each checked by `number(_:)`.
    private static func numbers(
        _ word: Substring, count: Int, role: String, _ fail: (String) -> ZoomGestureParseError
    ) throws(ZoomGestureParseError) -> [Double] {
        let parts = word.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == count else {
            throw fail("the \(role) needs \(count) comma-separated number\(count == 1 ? "" : "s"), got \"\(word)\"")
        }
        var values: [Double] = []
        for part in parts {
            guard !part.isEmpty else { throw fail("the \(role) has an empty number in \"\(word)\"") }
            guard let value = number(part) else {
                throw fail("the \(role) has \"\(part)\", which is not a finite decimal number")
            }
            values.append(value)
        }
        return values
    }

    /// A decimal number: optional sign, digits with an optional fraction (at least one digit), optional
    /// exponent; finite after conversion. nil otherwise.
    static func number(_ text: Substring) -> Double? {
        var chars = text.utf8[...]
        if let sign = chars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { chars = chars.dropFirst() }
        func digitCount() -> Int {
            let n = chars.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            chars = chars.dropFirst(n)
            return n
        }
        var mantissaDigits = digitCount()
        if chars.first == UInt8(ascii: ".") {
            chars = chars.dropFirst()
            mantissaDigits += digitCount()
        }
        guard mantissaDigits > 0 else { return nil }
        if let e = chars.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            chars = chars.dropFirst()
            if let sign = chars.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                chars = chars.dropFirst()
            }
            guard digitCount() > 0 else { return nil }
        }
        guard chars.isEmpty, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }
}
