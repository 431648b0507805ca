import TileViewCore

/// Clamping of degenerate input: sizes, settings, factors and points that would make the model undefined.
extension ZoomState {
    /// The largest image or viewport dimension the model accepts (2^32 pixels); larger values are clamped to it.
    public static let largestDimension: Double = 4_294_967_296

    /// The largest `maximumScaleSetting` and `doubleTapStep` accepted; larger values are clamped to it.
    public static let largestScaleSetting: Double = 1_000_000

    /// One dimension made finite and in `[1, largestDimension]`: NaN, zero and negatives become 1.
    static func guardedDimension(_ value: Double) -> Double {
        guard value >= 1 else { return 1 }  // also catches NaN
        return min(value, largestDimension)
    }

    static func guardedSize(_ size: Size) -> Size {
        Size(width: guardedDimension(size.width), height: guardedDimension(size.height))
    }

    static func guardedMaximumScaleSetting(_ value: Double) -> Double {
        guard value.isFinite else { return 1 }
        return min(max(value, 0), largestScaleSetting)
    }

    static func guardedDoubleTapStep(_ value: Double) -> Double {
        guard !value.isNaN else { return 1.5 }
        return min(max(value, 1), largestScaleSetting)
    }

    /// A viewport point with every non-finite coordinate replaced by the viewport centre's on that axis.
    func guardedViewportPoint(_ point: Point) -> Point {
        Point(
            x: point.x.isFinite ? point.x : viewportSize.width / 2,
            y: point.y.isFinite ? point.y : viewportSize.height / 2)
    }
}
