import TileViewCore

extension ScenePlacement {
    /// Where an image of `imageSize` pixels lies in the scene (points) and the part of the scene it may draw in:
    /// - `center(c)`: its own size centred on c; clip = frame.
    /// - `rect(r, fill)`: r itself (stretched); clip = r.
    /// - `rect(r, aspect-fit)`: the largest frame of the image's aspect inside r, centred; clip = frame.
    /// - `rect(r, aspect-fill)`: the smallest frame of the image's aspect covering r, centred; clip = r.
    public func layout(imageSize: Size) -> (frame: Rect, clip: Rect) {
        switch self {
        case .center(let c):
            let frame = Rect(center: c, size: imageSize)
            return (frame, frame)
        case .rect(let r, .fill):
            return (r, r)
        case .rect(let r, let mode):
            guard imageSize.width > 0, imageSize.height > 0 else { return (r, r) }
            let sx = r.width / imageSize.width
            let sy = r.height / imageSize.height
            let s = mode == .aspectFit ? min(sx, sy) : max(sx, sy)
            let frame = Rect(center: r.center, size: Size(width: imageSize.width * s, height: imageSize.height * s))
            return (frame, mode == .aspectFit ? frame : r)
        }
    }
}

/// What a frame of a scene draws, in viewport pixels, in order: the plain numbers of one render of a scene
/// at a zoom scale, with no I/O behind them.
///
/// A scene point p shows at viewport point `origin + p * scale` (origin: the zoom state's image frame origin).
public struct SceneDrawPlan: Hashable, Sendable {
    public enum Draw: Hashable, Sendable {
        /// Fill `rect` (viewport space, fractional: cut pixels blend by coverage) with a colour.
        case fill(RGBA8, rect: Rect)
        /// Draw image layer `layer` (an index into the scene's layers) with its whole image at `frame` (viewport
        /// space), showing only what lies inside `clip`.
        case image(layer: Int, frame: Rect, clip: Rect)
    }

    public let draws: [Draw]

    /// The draws of `scene` at `scale` with the scene's top left at viewport point `origin`, for a frame of
    /// `frameSize`; `imageSize(i)` is the size of layer i's image (nil when unknown: the layer is skipped).
    /// Draws that fall wholly outside the frame, or have no area, are left out.
    public init(
        scene: Scene, scale: Double, origin: Point, frameSize: PixelSize, imageSize: (Int) -> Size?
    ) {
        let bounds = PixelRect(size: frameSize).asRect
        func toViewport(_ r: Rect) -> Rect {
            Rect(
                x: origin.x + r.minX * scale, y: origin.y + r.minY * scale, width: r.width * scale,
                height: r.height * scale)
        }
        func visible(_ r: Rect) -> Bool { !r.isEmpty && r.intersection(bounds).map { !$0.isEmpty } == true }
        var draws: [Draw] = []
        if let background = scene.background {
            let rect = toViewport(Rect(origin: .zero, size: scene.size))
            if visible(rect) { draws.append(.fill(background, rect: rect)) }
        }
        for (index, layer) in scene.layers.enumerated() {
            switch layer {
            case .color(let colour, let rect):
                let r = toViewport(rect)
                if colour.a > 0, visible(r) { draws.append(.fill(colour, rect: r)) }
            case .image(_, let placement):
                guard let size = imageSize(index) else { continue }
                let (frame, clip) = placement.layout(imageSize: size)
                let f = toViewport(frame)
                let c = toViewport(clip)
                if visible(f), visible(c) { draws.append(.image(layer: index, frame: f, clip: c)) }
            }
        }
        self.draws = draws
    }
}
