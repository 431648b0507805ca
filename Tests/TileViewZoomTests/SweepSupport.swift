import Testing
import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Runs `cases` seeded cases of a law; a case returns nil when the law holds or a description of what broke.
///
/// Case `i` draws from `SplitMix64(seed: seed &+ i)`, so a failure is replayed from the seed and case printed.
func sweep(
    _ law: String, seed: UInt64, cases: Int = 3000,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: (inout SplitMix64) -> String?
) {
    var failures: [String] = []
    var failureCount = 0
    for i in 0..<cases {
        var rng = SplitMix64(seed: seed &+ UInt64(i))
        if let failure = body(&rng) {
            failureCount += 1
            if failures.count < 5 { failures.append("case \(i): \(failure)") }
        }
    }
    #expect(
        failureCount == 0,
        Comment(
            rawValue:
                "\(law): \(failureCount) of \(cases) cases failed "
                + "(seed 0x\(String(seed, radix: 16)), case i draws from seed &+ i)\n"
                + failures.joined(separator: "\n")),
        sourceLocation: sourceLocation)
}

/// Equal within rounding: 1e-10 relative to the largest magnitude involved (at least 1).
func near(_ a: Double, _ b: Double, magnitude: Double = 1) -> Bool {
    abs(a - b) <= 1e-10 * max(1, magnitude, abs(a), abs(b))
}

extension ZoomState {
    /// The largest length in play in viewport/content space, the scale for rounding tolerances.
    var magnitude: Double {
        max(contentSize.width, contentSize.height, viewportSize.width, viewportSize.height)
    }

    /// Whether the offset is at 0 or at its upper limit on the x axis (always true on a centred axis).
    var isOffsetAtLimitX: Bool {
        contentOffset.x == 0 || near(contentOffset.x, contentOffsetLimit.x, magnitude: magnitude)
    }

    var isOffsetAtLimitY: Bool {
        contentOffset.y == 0 || near(contentOffset.y, contentOffsetLimit.y, magnitude: magnitude)
    }

    /// The viewport-space distance between where an image point is shown and a viewport point, per axis, when
    /// the axis is free (not at an offset limit); nil when every free axis matches.
    func mismatch(showing imagePoint: Point, at target: Point) -> String? {
        let shown = viewportPoint(atImagePoint: imagePoint)
        let xOK = isOffsetAtLimitX || near(shown.x, target.x, magnitude: magnitude)
        let yOK = isOffsetAtLimitY || near(shown.y, target.y, magnitude: magnitude)
        return xOK && yOK ? nil : "image point \(imagePoint) shows at \(shown), expected \(target); \(self)"
    }
}
