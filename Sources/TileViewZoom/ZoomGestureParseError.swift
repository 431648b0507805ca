/// Why a gesture's text could not be read: the input, what was wrong, and the forms that are accepted.
public struct ZoomGestureParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let input: String
    /// What was wrong, e.g. `the factor "x" is not a number`.
    public let problem: String

    public init(input: String, problem: String) {
        self.input = input
        self.problem = problem
    }

    /// The accepted forms, for messages.
    public static let forms =
        "double-tap X,Y | two-finger-tap | pinch F X,Y | pan DX,DY | zoom-to X,Y,W,H "
        + "(X,Y and DX,DY in viewport pixels, zoom-to in image pixels; numbers like 120, -3.5 or 0.25)"

    public var description: String {
        "invalid gesture \"\(input)\": \(problem); expected one of: \(Self.forms)"
    }
}
