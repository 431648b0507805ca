/// The natural order of file names, as a photo browser lists a folder: `img2` before `img10`.
///
/// Names are compared as runs of ASCII digits and runs of anything else, left to right:
/// - two digit runs compare by their numeric value (leading zeros ignored, any length, no overflow);
/// - two other runs compare byte by byte with ASCII letters folded to lower case;
/// - a digit run sorts before any other run (as `0`-`9` sort before letters in ASCII).
/// Names that are equal under these rules (`a01` and `a1`, `A` and `a`) are ordered by their plain bytes, so the
/// order is total and the same on every machine.
public enum FeedNaturalOrder {
    /// Whether `a` comes before `b` in natural order.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        switch compareRuns(x, y) {
        case .some(let less): return less
        case .none: return x.lexicographicallyPrecedes(y)
        }
    }

    /// `names` in natural order.
    public static func sorted(_ names: [String]) -> [String] {
        names.sorted(by: areInIncreasingOrder)
    }

    /// true: a before b, false: b before a, nil: equal under the natural rules.
    private static func compareRuns(_ a: [UInt8], _ b: [UInt8]) -> Bool? {
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            let aDigit = isDigit(a[i])
            let bDigit = isDigit(b[j])
            if aDigit != bDigit { return aDigit }
            if aDigit {
                let aEnd = runEnd(a, from: i)
                let bEnd = runEnd(b, from: j)
                // Drop leading zeros, then the longer number is larger; equal lengths compare digit by digit.
                var p = i
                while p < aEnd - 1 && a[p] == UInt8(ascii: "0") { p += 1 }
                var q = j
                while q < bEnd - 1 && b[q] == UInt8(ascii: "0") { q += 1 }
                if aEnd - p != bEnd - q { return aEnd - p < bEnd - q }
                while p < aEnd {
                    if a[p] != b[q] { return a[p] < b[q] }
                    p += 1
                    q += 1
                }
                i = aEnd
                j = bEnd
            } else {
                let x = folded(a[i])
                let y = folded(b[j])
                if x != y { return x < y }
                i += 1
                j += 1
            }
        }
        if i < a.count || j < b.count { return i == a.count }
        return nil
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }

    private static func runEnd(_ s: [UInt8], from start: Int) -> Int {
        var end = start
        while end < s.count && isDigit(s[end]) { end += 1 }
        return end
    }

    private static func folded(_ c: UInt8) -> UInt8 {
        c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") ? c + 32 : c
    }
}
