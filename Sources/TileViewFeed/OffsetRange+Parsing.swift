/// Reading `--offsets FROM:TO:STEP`.
extension OffsetRange {
    /// Parses `FROM:TO:STEP`: exactly three whole numbers of ASCII digits separated by `:`, no signs or spaces.
    /// FROM and TO are from 0 to `largestOffset`; STEP is from 1 to `largestOffset`. A negative number, a step of
    /// 0, a missing part or anything that is not a whole number is an error that says which part is wrong.
    public init(parsing text: String) throws(OffsetRangeParseError) {
        func fail(_ problem: String) -> OffsetRangeParseError {
            OffsetRangeParseError(input: text, problem: problem)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw fail("expected 3 parts separated by \":\", got \(parts.count)")
        }
        var values: [Int] = []
        for (part, role) in zip(parts, ["FROM", "TO", "STEP"]) {
            guard !part.isEmpty else { throw fail("\(role) is missing") }
            if part.first == "-" {
                throw fail("\(role) \"\(part)\" is negative; offsets and steps are 0 or more")
            }
            guard part.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw fail("\(role) \"\(part)\" is not a whole number")
            }
            guard let value = Int(part), value <= Self.largestOffset else {
                throw fail("\(role) \"\(part)\" is larger than \(Self.largestOffset)")
            }
            values.append(value)
        }
        guard values[2] >= 1 else {
            throw fail("STEP must be at least 1; to scroll up, give a FROM larger than TO")
        }
        self.init(from: values[0], to: values[1], step: values[2])
    }
}
