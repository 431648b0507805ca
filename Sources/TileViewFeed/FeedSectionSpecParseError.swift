import TileViewCore

/// The forms of a feed SECTION.
public enum FeedSectionGrammar: AlternativesGrammar {
    public static let forms =
        "image:PATH | grid:DIR:COLUMNS | header:HEIGHT[:RRGGBB] (COLUMNS 1 to "
        + "\(FeedSectionSpec.largestColumnCount), HEIGHT 1 to \(FeedSectionSpec.largestHeaderHeight) pixels, "
        + "colour as 6 or 8 hex digits, e.g. header:120:1E90FF)"
    public static let noun = "feed section"
}

/// Why a section's text could not be read.
public typealias FeedSectionSpecParseError = TextParseError<FeedSectionGrammar>
