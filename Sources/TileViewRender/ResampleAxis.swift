/// The precomputed filter taps of one axis of a frame: for each covered frame pixel, its coverage
/// and the contiguous run of level pixels it reads with their normalised weights.
///
/// Taps that fall outside `clampRange` (the level, or the part of it the source holds) are folded
/// onto the nearest pixel inside it: clamp-to-edge sampling. Zero weights at either end of a run are
/// dropped, so an exact 1:1 integer-aligned axis reads one pixel with weight 1.
struct ResampleAxis: Sendable {
    /// Frame pixels with coverage above 0 (empty when the axis shows nothing).
    let outputRange: Range<Int>
    /// Coverage of each pixel of `outputRange`, in (0, 1].
    let coverage: [Float]
    /// Level index of the first tap of each output pixel.
    let tapStart: [Int]
    /// Number of taps of each output pixel (at least 1).
    let tapCount: [Int]
    /// Weights, `stride` per output pixel, the first `tapCount` of each used.
    let weights: [Float]
    let stride: Int
    /// The largest `tapCount`.
    let maxTapCount: Int
    /// Every level index some tap reads (empty when the axis shows nothing).
    let sourceRange: Range<Int>
}

extension ResampleAxis {
    /// Whether every covered frame pixel is exactly one level pixel, the next one each time, with weight 1
    /// and full coverage: a 1:1, integer-aligned axis, whose resampling is a copy.
    var isIdentity: Bool {
        guard maxTapCount == 1, !outputRange.isEmpty else { return false }
        let first = tapStart[0]
        for j in 0..<outputRange.count where coverage[j] != 1 || weights[j * stride] != 1 || tapStart[j] != first + j {
            return false
        }
        return true
    }

    /// An axis that shows nothing.
    static let empty = ResampleAxis(
        outputRange: 0..<0, coverage: [], tapStart: [], tapCount: [], weights: [], stride: 1, maxTapCount: 1,
        sourceRange: 0..<0)

    /// The taps for frame pixels 0..<frameLength, the image of `imageLength` pixels starting at
    /// viewport `origin` at scale `zoomScale`, drawn from a level of `levelLength` pixels.
    init(
        frameLength: Int, origin: Double, zoomScale: Double, imageLength: Int, levelLength: Int,
        filter: ResampleFilter, clampRange: Range<Int>
    ) {
        let levelScale = Double(levelLength) / Double(imageLength)
        let imageEnd = origin + Double(imageLength) * zoomScale
        guard !clampRange.isEmpty,
            let covered = FrameGeometry.coveredRange(origin, imageEnd, frameLength)
        else {
            self = .empty
            return
        }
        // Stretch the kernel when shrinking so it spans every level pixel under a viewport pixel. The
        // cap only matters when the whole image is smaller than one viewport pixel: the kernel then
        // already spans the level.
        let filterScale = min(max(1, levelScale / zoomScale), max(1, Double(levelLength)))
        let support = filter.support * filterScale
        let stride = 2 * Int(support.rounded(.up)) + 2
        let count = covered.count
        var coverage = [Float](repeating: 0, count: count)
        var tapStart = [Int](repeating: 0, count: count)
        var tapCount = [Int](repeating: 0, count: count)
        var weights = [Float](repeating: 0, count: count * stride)
        var folded = [Double](repeating: 0, count: stride)
        var maxTapCount = 1
        var lowest = Int.max
        var highest = Int.min
        for j in 0..<count {
            let v = covered.lowerBound + j
            coverage[j] = Float(FrameGeometry.coverage(Double(v), origin, imageEnd))
            let centre = FrameGeometry.levelCentre(Double(v), origin, zoomScale, levelScale)
            // Taps i with |i - centre| < support, clamped into clampRange.
            let first = Int((centre - support).rounded(.down)) + 1
            let last = Int((centre + support).rounded(.up)) - 1
            let lo = min(max(first, clampRange.lowerBound), clampRange.upperBound - 1)
            // No tap strictly inside the support (a box kernel's centre exactly between two pixels) leaves an
            // empty window: keep one slot, whose zero weight sends the pixel to the nearest-pixel fallback.
            let hi = max(lo, min(max(last, clampRange.lowerBound), clampRange.upperBound - 1))
            for k in 0...(hi - lo) { folded[k] = 0 }
            var sum = 0.0
            if first <= last {
                for i in first...last {
                    let w = filter.weight(at: (Double(i) - centre) / filterScale)
                    let at = min(max(i, clampRange.lowerBound), clampRange.upperBound - 1)
                    folded[at - lo] += w
                    sum += w
                }
            }
            var runStart = 0
            var runEnd = hi - lo + 1
            if sum == 0 || !sum.isFinite {
                // No usable weight (cannot happen for these kernels near a centre): take the nearest pixel.
                let nearest = min(max(Int(centre.rounded()), clampRange.lowerBound), clampRange.upperBound - 1)
                folded[0] = 1
                sum = 1
                runStart = 0
                runEnd = 1
                tapStart[j] = nearest
            } else {
                while runEnd - runStart > 1 && folded[runStart] == 0 { runStart += 1 }
                while runEnd - runStart > 1 && folded[runEnd - 1] == 0 { runEnd -= 1 }
                tapStart[j] = lo + runStart
            }
            let n = runEnd - runStart
            tapCount[j] = n
            maxTapCount = max(maxTapCount, n)
            for k in 0..<n { weights[j * stride + k] = Float(folded[runStart + k] / sum) }
            lowest = min(lowest, tapStart[j])
            highest = max(highest, tapStart[j] + n)
        }
        self = ResampleAxis(
            outputRange: covered, coverage: coverage, tapStart: tapStart, tapCount: tapCount, weights: weights,
            stride: stride, maxTapCount: maxTapCount, sourceRange: lowest..<highest)
    }

}
