import TileViewCore

/// What rendering one frame holds in memory, worked out from its geometry alone, before anything is allocated:
/// the frame, the filter taps of both axes, and the rows of the two filter passes. A server checks it against its
/// budget before it opens a decoder (docs/design.md section 18, admission); every figure is an upper bound of what
/// `FrameRenderer` allocates for that geometry (its init, then `render`), and none is the product of the frame's
/// size and the level's.
public struct FramePlan: Hashable, Sendable {
    /// The frame, RGBA8.
    public let frameBytes: Int
    /// The taps of both axes (`ResampleAxis`: coverage, first tap, tap count and weights of each covered pixel).
    public let tapBytes: Int
    /// The passes' rows: a premultiplied level row, the horizontal weights in four lanes, and the filtered rows
    /// the vertical pass holds (the ring, or the open sums, whichever is smaller).
    public let passBytes: Int
    /// An upper bound of the level pixels the frame reads (nil when it shows no image pixel).
    public let sourceRect: PixelRect?

    /// Everything the renderer allocates (saturating).
    public var bytes: Int { Self.sum([frameBytes, tapBytes, passBytes]) }

    /// Saturating sum of byte counts.
    public static func sum(_ parts: [Int]) -> Int {
        parts.reduce(0) { total, part in
            let (s, overflow) = total.addingReportingOverflow(max(0, part))
            return overflow ? .max : s
        }
    }

    /// Saturating product of byte counts and factors.
    public static func product(_ factors: Int...) -> Int {
        factors.reduce(1) { total, factor in
            let (p, overflow) = total.multipliedReportingOverflow(by: max(0, factor))
            return overflow ? .max : p
        }
    }
}

extension FrameRenderer {
    /// The plan of a render of `geometry` with `filter` (see `FramePlan`), from the geometry's numbers only.
    public static func plan(_ geometry: FrameGeometry, filter: ResampleFilter = .automatic) -> FramePlan {
        let frame = FramePlan.product(max(0, geometry.frameSize.width), max(0, geometry.frameSize.height), 4)
        let resolved = filter.resolved(shrinking: geometry.isShrinking)
        guard geometry.isDrawable,
            let x = AxisPlan(
                frameLength: geometry.frameSize.width, origin: geometry.imageFrameOrigin.x,
                zoomScale: geometry.zoomScale, imageLength: geometry.imageSize.width,
                levelLength: geometry.levelSize.width, filter: resolved),
            let y = AxisPlan(
                frameLength: geometry.frameSize.height, origin: geometry.imageFrameOrigin.y,
                zoomScale: geometry.zoomScaleY, imageLength: geometry.imageSize.height,
                levelLength: geometry.levelSize.height, filter: resolved)
        else {
            return FramePlan(frameBytes: frame, tapBytes: 0, passBytes: 0, sourceRect: nil)
        }
        let vector = MemoryLayout<SIMD4<Float>>.stride
        // AcrossPass: a premultiplied level row, the weights in four lanes, each column's first tap.
        let across = FramePlan.sum([
            FramePlan.product(x.source.count, vector), FramePlan.product(x.count, x.stride, vector),
            FramePlan.product(x.count, MemoryLayout<Int>.stride),
        ])
        // The vertical pass: the ring (at most `stride` rows) or the open sums and two rows, and one more row.
        let held = min(y.stride, y.openSpan + 2) + 1
        let passes = FramePlan.sum([across, FramePlan.product(held, x.count, vector)])
        return FramePlan(
            frameBytes: frame, tapBytes: FramePlan.sum([x.tapBytes, y.tapBytes]), passBytes: passes,
            sourceRect: PixelRect(
                x: x.source.lowerBound, y: y.source.lowerBound, width: x.source.count, height: y.source.count))
    }
}

/// One axis of a `FramePlan`: the covered frame pixels, the taps' stride, the level pixels read and how many frame
/// pixels' filters can be open at once, as `ResampleAxis` would make them, without making them.
struct AxisPlan {
    let count: Int
    let stride: Int
    let source: Range<Int>
    let openSpan: Int

    init?(
        frameLength: Int, origin: Double, zoomScale: Double, imageLength: Int, levelLength: Int, filter: ResampleFilter
    ) {
        guard levelLength > 0, imageLength > 0 else { return nil }
        let levelScale = Double(levelLength) / Double(imageLength)
        let imageEnd = origin + Double(imageLength) * zoomScale
        guard let covered = FrameGeometry.coveredRange(origin, imageEnd, frameLength) else { return nil }
        // As `ResampleAxis.init` computes them.
        let filterScale = min(max(1, levelScale / zoomScale), max(1, Double(levelLength)))
        let support = filter.support * filterScale
        stride = 2 * Int(support.rounded(.up)) + 2
        count = covered.count
        let low = FrameGeometry.levelCentre(Double(covered.lowerBound), origin, zoomScale, levelScale) - support
        let high = FrameGeometry.levelCentre(Double(covered.upperBound - 1), origin, zoomScale, levelScale) + support
        let first = min(max(Int(low.rounded(.down)), 0), levelLength - 1)
        let last = min(max(Int(high.rounded(.up)), 0), levelLength - 1)
        source = first..<(max(first, last) + 1)
        // Frame pixels whose filters hold one level pixel lie within 2 * support + 2 level pixels of each other.
        let perLevelPixel = zoomScale / levelScale
        let span = ((2 * support + 2) * perLevelPixel).rounded(.up) + 2
        openSpan = span >= Double(count) ? count : Int(span)
    }

    /// `ResampleAxis`'s arrays: coverage (Float), first tap and tap count (Int), `stride` weights (Float) a pixel,
    /// and the folding scratch of one window (Double).
    var tapBytes: Int {
        FramePlan.sum([
            FramePlan.product(count, 4 + 2 * MemoryLayout<Int>.stride), FramePlan.product(count, stride, 4),
            FramePlan.product(stride, 8),
        ])
    }
}
