import Testing
import TileViewCore
import TileViewFeed
import TileViewTestSupport

/// The `SECTION` text forms of `tileview feed`: read, printed back, and malformed text rejected clearly.
@Suite("Feed section parsing")
struct FeedSectionSpecParsingTests {
    @Test(
        "every text form parses to its kind and path",
        arguments: [
            ("image:photo.jpg", FeedSectionSpec(kind: .image, path: "photo.jpg")),
            ("image:/tmp/a b/c:d.png", FeedSectionSpec(kind: .image, path: "/tmp/a b/c:d.png")),
            ("grid:thumbs:3", FeedSectionSpec(kind: .grid(columns: 3), path: "thumbs")),
            ("grid:a:b:12", FeedSectionSpec(kind: .grid(columns: 12), path: "a:b")),
            ("grid:dir:007", FeedSectionSpec(kind: .grid(columns: 7), path: "dir")),
            (
                "header:120",
                FeedSectionSpec(kind: .header(height: 120, colour: FeedSectionSpec.defaultHeaderColour), path: nil)
            ),
            (
                "header:44:1E90FF",
                FeedSectionSpec(kind: .header(height: 44, colour: RGBA8(r: 0x1E, g: 0x90, b: 0xFF)), path: nil)
            ),
            (
                "header:1:#ff000080",
                FeedSectionSpec(kind: .header(height: 1, colour: RGBA8(r: 255, g: 0, b: 0, a: 0x80)), path: nil)
            ),
        ])
    func parsesEveryForm(text: String, expected: FeedSectionSpec) throws {
        #expect(try FeedSectionSpec(parsing: text) == expected)
    }

    @Test("a spec becomes its section once the caller supplies the image size or the folder's item count")
    func resolvesToSections() throws {
        let image = try FeedSectionSpec(parsing: "image:p.png")
        #expect(
            image.section(imagePixelSize: PixelSize(width: 40, height: 30))
                == .image(pixelSize: PixelSize(width: 40, height: 30)))
        #expect(
            try FeedSectionSpec(parsing: "grid:d:4").section(gridItemCount: 300) == .grid(itemCount: 300, columns: 4))
        #expect(try FeedSectionSpec(parsing: "header:9:000000").section() == .header(height: 9, colour: .black))
    }

    @Test("parsing the description of any spec gives the same spec back")
    func descriptionRoundTrips() {
        sweep("description round-trips through the parser", seed: 0xFEED_0501, cases: 2000) { rng in
            let pathCharacters = Array("abz09_./:- #")
            let path = String((0..<rng.int(1...12)).map { _ in rng.pick(pathCharacters) })
            let spec: FeedSectionSpec
            switch rng.int(0...2) {
            case 0: spec = FeedSectionSpec(kind: .image, path: path)
            case 1:
                spec = FeedSectionSpec(
                    kind: .grid(columns: rng.int(1...FeedSectionSpec.largestColumnCount)), path: path)
            default:
                let colour = RGBA8(
                    r: UInt8(rng.int(0...255)), g: UInt8(rng.int(0...255)), b: UInt8(rng.int(0...255)),
                    a: rng.chance(0.5) ? 255 : UInt8(rng.int(0...255)))
                spec = FeedSectionSpec(
                    kind: .header(height: rng.int(1...FeedSectionSpec.largestHeaderHeight), colour: colour), path: nil)
            }
            return textRoundTripProblem(spec, FeedSectionSpec.init(parsing:))
        }
    }

    @Test(
        "malformed text is rejected with a message naming the problem and listing the forms",
        arguments: [
            ("", "empty"),
            ("photo.jpg", "no \":\" after the kind"),
            ("video:clip.mp4", "unknown section kind \"video\""),
            ("Image:a.png", "unknown section kind \"Image\""),
            ("image:", "needs the image file's path"),
            ("grid:thumbs", "grid:DIR:COLUMNS"),
            ("grid::3", "needs the folder's path"),
            ("grid:thumbs:", "column count is missing"),
            ("grid:thumbs:0", "\"0\" must be from 1 to 10000"),
            ("grid:thumbs:10001", "must be from 1"),
            ("grid:thumbs:-2", "\"-2\" is not a whole number"),
            ("grid:thumbs:+2", "\"+2\" is not a whole number"),
            ("grid:thumbs: 3", "\" 3\" is not a whole number"),
            ("grid:thumbs:3x", "\"3x\" is not a whole number"),
            ("grid:thumbs:99999999999999999999999", "must be from 1"),
            ("header:", "header height is missing"),
            ("header:0", "\"0\" must be from 1 to 1000000"),
            ("header:tall", "\"tall\" is not a whole number"),
            ("header:1.5", "\"1.5\" is not a whole number"),
            ("header:10:", "colour \"\" is not RRGGBB"),
            ("header:10:FFF", "colour \"FFF\" is not RRGGBB"),
            ("header:10:GG0000", "colour \"GG0000\""),
            ("header:10:+FFFFF", "colour \"+FFFFF\""),
            ("header:10:FF0000:x", "takes a height and an optional colour"),
        ])
    func rejectsMalformedText(text: String, fragment: String) {
        expectTextRejected(
            text, naming: fragment, accepted: FeedSectionGrammar.forms, "message lists the forms",
            by: FeedSectionSpec.init(parsing:))
    }
}
