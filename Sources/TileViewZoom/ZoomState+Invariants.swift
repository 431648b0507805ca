import TileViewCore

/// The invariants every state satisfies after every gesture.
extension ZoomState {
    /// A description of each broken invariant; empty for a valid state.
    ///
    /// Checked: sizes finite and at least 1; 0 < min <= max; scale in [min, max]; on a centred axis (content
    /// no larger than the viewport, s <= w/W) the offset is exactly 0 and the frame origin (w - W*s)/2 >= 0;
    /// otherwise the offset lies in [0, W*s - w] and the frame origin is -offset (likewise y).
    public var invariantViolations: [String] {
        var problems: [String] = []
        for (name, value) in [
            ("image width", imageSize.width), ("image height", imageSize.height),
            ("viewport width", viewportSize.width), ("viewport height", viewportSize.height),
        ] where !(value.isFinite && value >= 1) {
            problems.append("\(name) \(value) is not a finite value >= 1")
        }
        let minimum = minimumZoomScale
        let maximum = maximumZoomScale
        if !(minimum > 0 && minimum.isFinite && minimum <= maximum && maximum.isFinite) {
            problems.append("scale range [\(minimum), \(maximum)] is not a finite positive range")
        }
        if !(zoomScale >= minimum && zoomScale <= maximum) {
            problems.append("zoomScale \(zoomScale) outside [\(minimum), \(maximum)]")
        }
        let content = contentSize
        let frame = imageFrame
        let axes = [
            ("x", isCentredHorizontally, contentOffset.x, content.width, viewportSize.width, frame.minX),
            ("y", isCentredVertically, contentOffset.y, content.height, viewportSize.height, frame.minY),
        ]
        for (axis, centred, offset, contentLength, viewportLength, frameOrigin) in axes {
            if centred {
                if offset != 0 { problems.append("offset.\(axis) \(offset) is not 0 on a centred axis") }
                if !(frameOrigin >= 0) { problems.append("frame.\(axis) \(frameOrigin) < 0 on a centred axis") }
            } else {
                if !(offset >= 0 && offset <= contentLength - viewportLength) {
                    problems.append("offset.\(axis) \(offset) outside [0, \(contentLength - viewportLength)]")
                }
                if frameOrigin != -offset { problems.append("frame.\(axis) \(frameOrigin) is not -offset") }
            }
        }
        return problems
    }

    /// Traps in debug builds when an invariant is broken; does nothing in release builds.
    public func checkInvariants() {
        #if DEBUG
            let problems = invariantViolations
            precondition(
                problems.isEmpty, "ZoomState invariants broken: \(problems.joined(separator: "; ")) in \(self)")
        #endif
    }
}
