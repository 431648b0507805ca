/// Why `--offsets` text could not be read: the input, what was wrong, and the accepted form.
public struct OffsetRangeParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let input: String
    /// What was wrong, e.g. `the step must be at least 1`.
    public let problem: String

    public init(input: String, problem: String) {
        self.input = input
        self.problem = problem
    }

    /// The accepted form, for messages.
    public static let form =
        "FROM:TO:STEP, whole numbers of container pixels, FROM and TO from 0, STEP from 1 "
        + "(e.g. 0:3000:250; FROM above TO scrolls up)"

    public var description: String {
        "invalid offsets \"\(input)\": \(problem); expected \(Self.form)"
    }
}
