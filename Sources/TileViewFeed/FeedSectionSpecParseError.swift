/// Why a section's text could not be read: the input, what was wrong, and the forms that are accepted.
public struct FeedSectionSpecParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let input: String
    /// What was wrong, e.g. `the column count "0" must be at least 1`.
    public let problem: String

    public init(input: String, problem: String) {
        self.input = input
        self.problem = problem
    }

    /// The accepted forms, for messages.
    public static let forms =
        "image:PATH | grid:DIR:COLUMNS | header:HEIGHT[:RRGGBB] (COLUMNS 1 to "
        + "\(FeedSectionSpec.largestColumnCount), HEIGHT 1 to \(FeedSectionSpec.largestHeaderHeight) pixels, "
        + "colour as 6 or 8 hex digits, e.g. header:120:1E90FF)"

    public var description: String {
        "invalid feed section \"\(input)\": \(problem); expected one of: \(Self.forms)"
    }
}
