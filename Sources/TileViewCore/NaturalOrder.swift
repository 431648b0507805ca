/// The order people expect for file names with numbers in them: `img2` before `img10`.
///
/// Names are compared as runs of digits and runs of other characters. Two digit runs compare by their numeric
/// value (any length: leading zeros are ignored, so no overflow); other runs compare by their Unicode scalars,
/// ignoring ASCII letter case. When two names tie that way (`img02` and `img2`, `A.png` and `a.png`), the plain
/// scalar order decides, so the order is total and the same on every machine.
public enum NaturalOrder {
    /// Whether `a` sorts before `b`.
    public static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        precedes(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    /// `names` in natural order. Each name's scalars are taken once, not once a comparison: a folder of 100,000
    /// names makes about 1.7 million comparisons.
    public static func sorted(_ names: [String]) -> [String] {
        let scalars = names.map { Array($0.unicodeScalars) }
        return names.indices.sorted { precedes(scalars[$0], scalars[$1]) }.map { names[$0] }
    }

    /// The order on names' scalars: the natural comparison, then the plain scalar order.
    static func precedes(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Bool {
        switch compare(x, y) {
        case .less: return true
        case .greater: return false
        case .same: return x.lexicographicallyPrecedes(y) { $0.value < $1.value }
        }
    }

    enum Comparison { case less, same, greater }

    /// The natural comparison of two names' scalars, without the final tie-break.
    static func compare(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Comparison {
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                let (xStart, xEnd) = digitRun(x, from: i)
                let (yStart, yEnd) = digitRun(y, from: j)
                // Significant digits: a longer run is a larger number; equal lengths compare digit by digit.
                let xLength = xEnd - xStart
                let yLength = yEnd - yStart
                if xLength != yLength { return xLength < yLength ? .less : .greater }
                for k in 0..<xLength where x[xStart + k] != y[yStart + k] {
                    return x[xStart + k].value < y[yStart + k].value ? .less : .greater
                }
                i = xEnd
                j = yEnd
            } else {
                let p = folded(x[i])
                let q = folded(y[j])
                if p != q { return p < q ? .less : .greater }
                i += 1
                j += 1
            }
        }
        if i < x.count { return .greater }
        if j < y.count { return .less }
        return .same
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    /// The run of digits starting at `start`: where its significant digits begin (after leading zeros, keeping
    /// one digit for an all-zero run) and where the run ends.
    private static func digitRun(_ s: [Unicode.Scalar], from start: Int) -> (Int, Int) {
        var end = start
        while end < s.count && isDigit(s[end]) { end += 1 }
        var first = start
        while first < end - 1 && s[first].value == 0x30 { first += 1 }
        return (first, end)
    }

    /// The scalar value with ASCII capitals folded to small letters.
    private static func folded(_ s: Unicode.Scalar) -> UInt32 {
        (s.value >= 0x41 && s.value <= 0x5A) ? s.value + 0x20 : s.value
    }
}
