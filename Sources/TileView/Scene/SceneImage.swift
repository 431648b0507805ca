import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewScene
import TileViewTiling
import TileViewZoom

/// A scene file opened for zooming (docs/design.md section 12): the parsed `Scene` and its images, each a `TiledImage`
/// opened by its header alone.
///
/// A frame is drawn in layer order over the viewport background: the scene's background fills the container,
/// colour layers fill their rects (cut pixels blend by coverage), and each image layer is one `FrameRenderer`
/// render of its image at the scale the layer gives it, on the frame pixels the layer covers, at the level that
/// scale picks (docs/design.md section 7). So an image layer decodes only the part and level the frame needs, through
/// the same tiled model as `tileview zoom` of the image itself, and shows the same pixels that zoom shows at the same
/// scale and position. An image used by several layers is opened once. Not thread-safe, like `TiledImage`.
public final class SceneImage: ZoomContent {
    public let path: String
    public let scene: Scene
    /// The image of each layer (nil for colour layers); layers naming the same file share one.
    let layerImages: [TiledImage?]
    /// Each distinct image once, in layer order.
    public let images: [TiledImage]

    /// How a scene's image layers are opened: the layer's index and its name as the scene gives it (relative to
    /// the scene's folder) to the image, or an error whose `path` names the file that was tried and whose `reason`
    /// says why.
    public typealias LayerOpener = (_ layer: Int, _ name: String) throws(TileViewError) -> TiledImage

    /// Opens the scene file at `path`: reads and parses it, then opens every image it names (paths relative to the
    /// scene's folder, or absolute). Errors name the scene file and the layer. `notImage` is the error to report
    /// when the file is not a scene either (what the image header reader said).
    public convenience init(
        path: String, cacheBudgetBytes: Int = TiledImage.defaultCacheBudgetBytes,
        options: DecodeOptions = DecodeOptions(),
        notImage: CodecError? = nil
    ) throws(TileViewError) {
        let folder = AtomicFile.split(path).folder
        try self.init(
            name: path, bytes: try TextFile.readBytes(path, limit: Scene.largestFileBytes), notImage: notImage
        ) { (_, name) throws(TileViewError) in
            let file = name.hasPrefix("/") || folder == "." ? name : Paths.join(folder, name)
            return try TiledImage(path: file, cacheBudgetBytes: cacheBudgetBytes, options: options)
        }
    }

    /// The scene `bytes` hold (the file `name` names: errors name it), its image layers opened by `open`, each
    /// distinct name once, in layer order; refused before any is opened when it has more than `mostLayers` layers.
    /// `notImage` as for `init(path:)`.
    public init(
        name: String, bytes: [UInt8], mostLayers: Int = Scene.mostLayers, notImage: CodecError? = nil,
        open: LayerOpener
    ) throws(TileViewError) {
        guard Scene.sniff(bytes.prefix(64)) else {
            throw TileViewError(
                notImage ?? CodecError(.unknownFormat, "not a scene (a scene is a JSON object)"), path: name)
        }
        do {
            scene = try Scene(parsing: bytes)
        } catch {
            throw TileViewError(.input, path: name, reason: "scene: \(error)")
        }
        guard scene.layers.count <= mostLayers else {
            throw TileViewError(
                .input, path: name, reason: "scene: \(scene.layers.count) layers, over the \(mostLayers) allowed here")
        }
        self.path = name
        var opened: [String: TiledImage] = [:]
        var images: [TiledImage] = []
        var layerImages: [TiledImage?] = []
        for (index, layer) in scene.layers.enumerated() {
            guard case .image(let imageName, _) = layer else {
                layerImages.append(nil)
                continue
            }
            if let image = opened[imageName] {
                layerImages.append(image)
                continue
            }
            let image: TiledImage
            do {
                image = try open(index, imageName)
            } catch {
                throw TileViewError(
                    error.kind, path: name,
                    reason: "scene: layers[\(index)]: image \"\(imageName)\" (\(error.path)): \(error.reason)")
            }
            opened[imageName] = image
            images.append(image)
            layerImages.append(image)
        }
        self.images = images
        self.layerImages = layerImages
    }

    public var contentSize: Size { scene.size }

    /// The scene turned clockwise by quarter turns (`Scene.rotated`), its images turned with it (each reopened
    /// from its header with the turn composed into its orientation).
    public func rotated(clockwiseQuarterTurns turns: Int) throws(TileViewError) -> any ZoomContent {
        let quarter = normalizedQuarterTurns(turns)
        guard quarter != 0 else { return self }
        var turnedImages: [ObjectIdentifier: TiledImage] = [:]
        var layers: [TiledImage?] = []
        for image in layerImages {
            guard let image else {
                layers.append(nil)
                continue
            }
            if let done = turnedImages[ObjectIdentifier(image)] {
                layers.append(done)
                continue
            }
            let turned = try image.turned(by: quarter)
            turnedImages[ObjectIdentifier(image)] = turned
            layers.append(turned)
        }
        return SceneImage(path: path, scene: scene.rotated(clockwiseQuarterTurns: quarter), layerImages: layers)
    }

    /// A scene whose images are open already.
    init(path: String, scene: Scene, layerImages: [TiledImage?]) {
        self.path = path
        self.scene = scene
        self.layerImages = layerImages
        var seen = Set<ObjectIdentifier>()
        images = layerImages.compactMap { $0 }.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    public func level(forZoomScale zoomScale: Double) -> Int { 0 }
    public func levelSize(ofLevel level: Int) -> PixelSize {
        PixelSize(width: Int(scene.size.width.rounded(.up)), height: Int(scene.size.height.rounded(.up)))
    }

    /// The frame of `state` (whose content is the scene's size): the layers in order over `background`.
    public func render(
        _ state: ZoomState, displacedBy overscroll: Point = .zero, background: RGBA8 = .black,
        filter: ResampleFilter = .automatic
    ) throws(TileViewError) -> RenderedFrame {
        let frameSize = PixelSize(truncating: state.viewportSize)
        var frame = ImageBuffer(width: frameSize.width, height: frameSize.height, fill: background)
        for draw in drawPlan(state, displacedBy: overscroll).draws {
            switch draw {
            case .fill(let colour, let rect):
                frame.fill(rect, with: colour)
            case .image(let layer, let imageFrame, let clip):
                guard let image = layerImages[layer] else { continue }
                try drawImage(image, frame: imageFrame, clip: clip, onto: &frame, filter: filter)
            }
        }
        return RenderedFrame(image: frame, level: 0, sourceRect: nil)
    }

    /// The fills and layer draws of the frame of `state`, in order.
    func drawPlan(_ state: ZoomState, displacedBy overscroll: Point) -> SceneDrawPlan {
        let origin = state.imageFrame.origin
        return SceneDrawPlan(
            scene: scene, scale: state.zoomScale, origin: Point(x: origin.x + overscroll.x, y: origin.y + overscroll.y),
            frameSize: PixelSize(truncating: state.viewportSize),
            imageSize: { self.layerImages[$0]?.imageSize.asSize })
    }

    /// The frame geometry and level that draw `image` whole at `imageFrame` (viewport space) in a frame of
    /// `frameSize`.
    static func layerGeometry(_ image: TiledImage, frame imageFrame: Rect, frameSize: PixelSize) -> (
        FrameGeometry, level: Int
    ) {
        let size = image.imageSize
        return image.pyramid.frameGeometry(
            frameSize: frameSize, zoomScale: imageFrame.width / Double(size.width),
            zoomScaleY: imageFrame.height / Double(size.height), imageFrameOrigin: imageFrame.origin)
    }

    /// Each image layer the frame of `state` draws: its image, and the geometry and level it is drawn with.
    func layerDraws(_ state: ZoomState) -> [(image: TiledImage, geometry: FrameGeometry, level: Int)] {
        let frameSize = PixelSize(truncating: state.viewportSize)
        return drawPlan(state, displacedBy: .zero).draws.compactMap { draw in
            guard case .image(let layer, let imageFrame, _) = draw, let image = layerImages[layer] else { return nil }
            let (geometry, level) = Self.layerGeometry(image, frame: imageFrame, frameSize: frameSize)
            return (image, geometry, level)
        }
    }

    /// What decoding for the frame of `state` holds at its peak: the layers are drawn one at a time, each a frame
    /// of its image (`TiledImage.decodePeakBytes(level:source:)`: a turned image reads the stored block under every
    /// row of tiles its draw touches), and never less than `decodePeakBytes`.
    public func decodePeakBytes(for state: ZoomState) -> Int {
        layerDraws(state).reduce(decodePeakBytes) { peak, draw in
            guard let source = FrameRenderer.plan(draw.geometry).sourceRect else { return peak }
            return max(peak, draw.image.decodePeakBytes(level: draw.level, source: source))
        }
    }

    /// The largest region of level pixels a layer's draw reads (the layers are drawn one at a time).
    public func frameSourceBytes(for state: ZoomState) -> Int? {
        layerDraws(state).map { TiledImage.sourceBytes(of: $0.geometry) }.max() ?? 0
    }

    /// Draws `image` whole at `imageFrame` (viewport space) onto `frame`, cut to `clip`.
    ///
    /// The geometry is that of a zoom frame of the whole viewport with the image frame where the layer puts it,
    /// and each pixel composites the image over the colour beneath exactly as a zoom frame composites it over its
    /// background (`FrameRenderer.draw`): so the pixels are those `tileview zoom` gives at the same scale and
    /// position over the same colour. A clip inside the image frame (aspect-fill) then cuts the drawing.
    func drawImage(
        _ image: TiledImage, frame imageFrame: Rect, clip: Rect, onto frame: inout ImageBuffer, filter: ResampleFilter
    ) throws(TileViewError) {
        let (geometry, level) = Self.layerGeometry(image, frame: imageFrame, frameSize: frame.size)
        guard clip != imageFrame else {
            try image.draw(geometry, level: level, onto: &frame, filter: filter)
            return
        }
        let before = frame
        try image.draw(geometry, level: level, onto: &frame, filter: filter)
        frame.keep(inside: clip, restoring: before)
    }

    public var statistics: TileCacheStatistics { images.reduce(TileCacheStatistics()) { $0 + $1.statistics } }
    public func setCacheBudget(bytes: Int) { for image in images { image.setCacheBudget(bytes: bytes) } }
    public func releaseAll() { for image in images { image.releaseAll() } }
    public var bytesDecoded: Int { images.reduce(0) { $0 + $1.bytesDecoded } }
    public var streamedBytes: Int { images.reduce(0) { $0 + $1.streamedBytes } }
    public var decodePasses: Int { images.reduce(0) { $0 + $1.decodePasses } }
    public var residentBytes: Int { images.reduce(0) { $0 + $1.residentBytes } }
    public var decodePeakBytes: Int { images.map(\.decodePeakBytes).max() ?? 0 }
    public var warnings: [String] { images.flatMap { image in image.warnings.map { "\(image.path): \($0)" } } }
    public var keptColor: ColorDescription? { ColorDescription.shared(images.map(\.keptColor)) }
}
