import Testing
import TileViewCore

/// Nil when `value`'s text form (its `description`) parses back to it with `parse`, else what went wrong: the
/// round trip of the text forms (gestures, feed sections, gallery steps).
public func textRoundTripProblem<Value: Equatable & CustomStringConvertible, Grammar: TextGrammar>(
    _ value: Value, _ parse: (String) throws(TextParseError<Grammar>) -> Value
) -> String? {
    do {
        let parsed = try parse(value.description)
        return parsed == value ? nil : "\(value.description) parsed as \(parsed)"
    } catch {
        return "\(value.description) rejected: \(error)"
    }
}

/// Expects `parse` to refuse `text` with an error that quotes it, whose message contains `fragment` (the problem)
/// and `accepted` (what the grammar accepts; `acceptedComment` says so when it is missing).
public func expectTextRejected<Value, Grammar: TextGrammar>(
    _ text: String, naming fragment: String, accepted: String, _ acceptedComment: Comment,
    by parse: (String) throws(TextParseError<Grammar>) -> Value, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let value = try parse(text)
        Issue.record("\"\(text)\" parsed as \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.input == text, sourceLocation: sourceLocation)
        #expect(
            error.description.contains(fragment), "message for \"\(text)\": \(error.description)",
            sourceLocation: sourceLocation)
        #expect(error.description.contains(accepted), acceptedComment, sourceLocation: sourceLocation)
    }
}
