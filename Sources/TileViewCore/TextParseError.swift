/// What a kind of command-line text is called in messages and what it accepts (a gesture, a feed section, a
/// gallery step, an offset range).
public protocol TextGrammar: Sendable {
    /// The noun in messages: `gesture` gives `invalid gesture "…"`.
    static var noun: String { get }
    /// What follows the problem in messages: `expected one of: …`.
    static var expectation: String { get }
}

/// A grammar of several forms: its messages end `expected one of: FORMS`.
public protocol AlternativesGrammar: TextGrammar {
    /// The accepted forms, for messages.
    static var forms: String { get }
}

extension AlternativesGrammar {
    public static var expectation: String { "expected one of: \(forms)" }
}

/// Why a text could not be read: the input, what was wrong, and what the grammar accepts. The one parse error
/// of the text forms; each form names its grammar (`ZoomGestureParseError` is `TextParseError<ZoomGestureGrammar>`).
public struct TextParseError<Grammar: TextGrammar>: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public let input: String
    /// What was wrong, e.g. `the factor "x" is not a number`.
    public let problem: String

    public init(input: String, problem: String) { (self.input, self.problem) = (input, problem) }

    /// `invalid NOUN "INPUT": PROBLEM; EXPECTATION`.
    public var description: String { "invalid \(Grammar.noun) \"\(input)\": \(problem); \(Grammar.expectation)" }
}
