import TileViewCore

/// `rotated(clockwiseQuarterTurns:)` turns the scene about its container: width and height swap for odd turns, every
/// rect and centre moves with the container, and image layers keep their placement kind and mode (their images
/// must be drawn turned by as many quarter turns, which swaps their sizes the same way, so `center` and the aspect
/// modes lay them out as the turned picture of the upright scene).
extension Scene: QuarterTurnable {
    /// The scene turned clockwise once: a W x H container's point (x, y) goes to (H - y, x).
    public var turnedClockwise: Scene {
        let height = size.height
        func point(_ p: Point) -> Point { Point(x: height - p.y, y: p.x) }
        func rect(_ r: Rect) -> Rect { Rect(x: height - r.maxY, y: r.minX, width: r.height, height: r.width) }
        return Scene(
            size: Size(width: size.height, height: size.width), background: background,
            layers: layers.map { layer in
                switch layer {
                case .color(let colour, let r): .color(colour, rect: rect(r))
                case .image(let path, .center(let c)): .image(path: path, placement: .center(point(c)))
                case .image(let path, .rect(let r, let mode)): .image(path: path, placement: .rect(rect(r), mode: mode))
                }
            })
    }
}
