import TileViewCore

/// The form of `--offsets`.
public enum OffsetRangeGrammar: TextGrammar {
    /// The accepted form, for messages.
    public static let form =
        "FROM:TO:STEP, whole numbers of container pixels, FROM and TO from 0, STEP from 1 "
        + "(e.g. 0:3000:250; FROM above TO scrolls up)"
    public static let noun = "offsets"
    public static var expectation: String { "expected \(form)" }
}

/// Why `--offsets` text could not be read.
public typealias OffsetRangeParseError = TextParseError<OffsetRangeGrammar>
