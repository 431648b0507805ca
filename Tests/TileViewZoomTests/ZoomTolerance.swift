import TileViewCore
import TileViewTestSupport
import TileViewZoom

/// Equal within rounding: 1e-10 relative to the largest magnitude involved (at least 1).
func near(_ a: Double, _ b: Double, magnitude: Double = 1) -> Bool {
    abs(a - b) <= 1e-10 * max(1, magnitude, abs(a), abs(b))
}

extension ZoomState {
    /// The largest length in play in viewport/content space, the scale for rounding tolerances.
    var magnitude: Double {
        max(contentSize.width, contentSize.height, viewportSize.width, viewportSize.height)
    }

    /// Whether `other` has this state's scale and offset, within rounding at this state's magnitude.
    func isNear(_ other: ZoomState) -> Bool {
        near(zoomScale, other.zoomScale) && near(contentOffset.x, other.contentOffset.x, magnitude: magnitude)
            && near(contentOffset.y, other.contentOffset.y, magnitude: magnitude)
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
