import Testing
import TileViewFeed
import TileViewTestSupport

/// `--offsets FROM:TO:STEP`: the offsets it yields, and malformed text rejected clearly.
@Suite("Offset ranges")
struct OffsetRangeTests {
    @Test(
        "the offsets run from FROM towards TO in steps of STEP, TO included when a step lands on it",
        arguments: [
            ("0:3000:250", Array(stride(from: 0, through: 3000, by: 250))),
            ("0:1000:300", [0, 300, 600, 900]),
            ("5:5:1", [5]),
            ("7:8:100", [7]),
            ("3000:0:1000", [3000, 2000, 1000, 0]),
            ("1000:0:300", [1000, 700, 400, 100]),
            ("00:10:05", [0, 5, 10]),
        ])
    func offsets(text: String, expected: [Int]) throws {
        let range = try OffsetRange(parsing: text)
        #expect(Array(range) == expected)
        #expect(range.count == expected.count)
        #expect(range.description == text.split(separator: ":").map { String(Int($0)!) }.joined(separator: ":"))
    }

    @Test("the range's direction is down when FROM < TO, up when FROM > TO, stationary otherwise")
    func direction() throws {
        #expect(try OffsetRange(parsing: "0:10:1").scrollDirection == .down)
        #expect(try OffsetRange(parsing: "10:0:1").scrollDirection == .up)
        #expect(try OffsetRange(parsing: "4:4:1").scrollDirection == .stationary)
    }

    @Test("every offset lies between FROM and TO, steps are STEP apart, and no further step fits")
    func rangeLaws() {
        sweep("offsets lie between the ends, STEP apart, and stop within a step of TO", seed: 0xFEED_0601, cases: 2000)
        {
            rng in
            let from = rng.int(0...5000)
            let to = rng.chance(0.1) ? from : rng.int(0...5000)
            let step = rng.int(1...700)
            let range = OffsetRange(from: from, to: to, step: step)
            let offsets = Array(range)
            guard offsets.first == from, let last = offsets.last else {
                return "\(range): starts at \(offsets.first ?? -1)"
            }
            for (a, b) in zip(offsets, offsets.dropFirst()) where abs(b - a) != step {
                return "\(range): \(a) then \(b)"
            }
            if offsets.contains(where: { $0 < min(from, to) || $0 > max(from, to) }) {
                return "\(range) leaves the ends"
            }
            if abs(to - last) >= step { return "\(range): stops at \(last), another step fits" }
            return nil
        }
    }

    @Test(
        "malformed text is rejected with a message naming the part and the form",
        arguments: [
            ("", "expected 3 parts"),
            ("0:100", "expected 3 parts separated by \":\", got 2"),
            ("0:100:10:5", "got 4"),
            (":100:10", "FROM is missing"),
            ("0::10", "TO is missing"),
            ("0:100:", "STEP is missing"),
            ("0:100:0", "STEP must be at least 1"),
            ("0:100:-10", "STEP \"-10\" is negative"),
            ("-5:100:10", "FROM \"-5\" is negative"),
            ("0:-100:10", "TO \"-100\" is negative"),
            ("0:1e3:10", "TO \"1e3\" is not a whole number"),
            ("0:100:ten", "STEP \"ten\" is not a whole number"),
            (" 0:100:10", "FROM \" 0\" is not a whole number"),
            ("0:100:+10", "STEP \"+10\" is not a whole number"),
            ("0:100:2.5", "STEP \"2.5\" is not a whole number"),
            ("0:99999999999999999999:10", "TO \"99999999999999999999\" is larger than"),
        ])
    func rejectsMalformedText(text: String, fragment: String) {
        expectTextRejected(
            text, naming: fragment, accepted: OffsetRangeGrammar.form, "message gives the form",
            by: OffsetRange.init(parsing:))
    }
}
