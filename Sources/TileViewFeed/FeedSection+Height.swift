import TileViewCore

/// How tall each kind of section is when laid out at a viewport width.
extension FeedSection {
    /// The section's height in viewport pixels at viewport width `width`, after the layout's clamping.
    ///
    /// - header: `height` clamped to `[0, FeedLayout.largestSectionHeight]`.
    /// - grid: the height of its `FeedGridGeometry`, `floor(rows * w / columns)`.
    /// - image W x H (each side clamped to `[1, FeedLayout.largestImageDimension]`): `round(w * H / W)` with
    ///   halves rounded up, computed exactly in integers as `(2 * w * H + W) / (2 * W)`, then capped at
    ///   `FeedLayout.largestSectionHeight`. It is 0 when the image is so wide that less than half a pixel of height
    ///   remains (a 1000x1 image at width 100).
    ///
    /// `width` is clamped to `[1, FeedLayout.largestViewportLength]` first.
    public func height(atViewportWidth width: Int) -> Int {
        let w = FeedLayout.guardedViewportLength(width)
        switch self {
        case .header(let height, _):
            return min(max(height, 0), FeedLayout.largestSectionHeight)
        case .grid:
            return gridGeometry(atViewportWidth: w)?.height ?? 0
        case .image(let pixelSize):
            let imageWidth = FeedLayout.guardedImageDimension(pixelSize.width)
            let imageHeight = FeedLayout.guardedImageDimension(pixelSize.height)
            // w <= 2^20 and H <= 2^32: 2 * w * H stays below 2^53, far inside Int.
            let rounded = (2 * w * imageHeight + imageWidth) / (2 * imageWidth)
            return min(rounded, FeedLayout.largestSectionHeight)
        }
    }

    /// The cell geometry of a grid section at viewport width `width`; nil for headers and images.
    public func gridGeometry(atViewportWidth width: Int) -> FeedGridGeometry? {
        guard case .grid(let itemCount, let columns) = self else { return nil }
        return FeedGridGeometry(itemCount: itemCount, columns: columns, viewportWidth: width)
    }
}
