import TileViewCore

/// Reading a section from its command-line text form.
extension FeedSectionSpec {
    /// The most columns a grid may ask for (the layout further limits them to the viewport width).
    public static let largestColumnCount = 10_000
    /// The tallest header that may be asked for.
    public static let largestHeaderHeight = 1_000_000

    /// Parses `image:PATH`, `grid:DIR:COLUMNS` or `header:HEIGHT[:RRGGBB]`.
    ///
    /// Strict: the kind is lowercase and exact and ends at the first `:`. An image path is everything after
    /// `image:` (it may hold colons); a grid folder is everything between `grid:` and the last `:`; neither may
    /// be empty. COLUMNS (1 to `largestColumnCount`) and HEIGHT (1 to `largestHeaderHeight`) are whole numbers
    /// of ASCII digits, no sign or spaces. The colour is `RRGGBB` or `RRGGBBAA` in hex, either case, with an
    /// optional leading `#`, as `--background` takes it; without it the header is `defaultHeaderColour`.
    public init(parsing text: String) throws(FeedSectionSpecParseError) {
        func fail(_ problem: String) -> FeedSectionSpecParseError {
            FeedSectionSpecParseError(input: text, problem: problem)
        }
        guard !text.isEmpty else { throw fail("the section is empty") }
        guard let colon = text.firstIndex(of: ":") else {
            throw fail("no \":\" after the kind; a section starts with image:, grid: or header:")
        }
        let kind = text[..<colon]
        let rest = text[text.index(after: colon)...]
        switch kind {
        case "image":
            guard !rest.isEmpty else { throw fail("image: needs the image file's path after the colon") }
            self.init(kind: .image, path: String(rest))
        case "grid":
            guard let last = rest.lastIndex(of: ":") else {
                throw fail("grid: needs a folder and a column count, grid:DIR:COLUMNS")
            }
            let folder = rest[..<last]
            let columnsText = rest[rest.index(after: last)...]
            guard !folder.isEmpty else { throw fail("grid: needs the folder's path before the column count") }
            let columns = try Self.wholeNumber(
                columnsText, role: "column count", range: 1...Self.largestColumnCount, fail)
            self.init(kind: .grid(columns: columns), path: String(folder))
        case "header":
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else {
                throw fail("header: takes a height and an optional colour, header:HEIGHT[:RRGGBB]; got \"\(rest)\"")
            }
            let height = try Self.wholeNumber(
                parts[0], role: "header height", range: 1...Self.largestHeaderHeight, fail)
            var colour = Self.defaultHeaderColour
            if parts.count == 2 {
                colour = try Self.colour(parts[1], fail)
            }
            self.init(kind: .header(height: height, colour: colour), path: nil)
        default:
            throw fail("unknown section kind \"\(kind)\"")
        }
    }

    /// A whole number of ASCII digits inside `range`.
    private static func wholeNumber(
        _ word: Substring, role: String, range: ClosedRange<Int>, _ fail: (String) -> FeedSectionSpecParseError
    ) throws(FeedSectionSpecParseError) -> Int {
        guard !word.isEmpty else { throw fail("the \(role) is missing") }
        guard word.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw fail("the \(role) \"\(word)\" is not a whole number")
        }
        guard let value = Int(word), range.contains(value) else {
            throw fail("the \(role) \"\(word)\" must be from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// `RRGGBB` or `RRGGBBAA`, hex digits only, with an optional leading `#`.
    private static func colour(_ word: Substring, _ fail: (String) -> FeedSectionSpecParseError)
        throws(FeedSectionSpecParseError) -> RGBA8
    {
        let digits = word.hasPrefix("#") ? word.dropFirst() : word
        let isHex = digits.utf8.allSatisfy { c in
            (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
                || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F"))
        }
        guard isHex, digits.count == 6 || digits.count == 8, let colour = RGBA8(hex: String(digits)) else {
            throw fail("the header colour \"\(word)\" is not RRGGBB or RRGGBBAA in hex")
        }
        return colour
    }
}
