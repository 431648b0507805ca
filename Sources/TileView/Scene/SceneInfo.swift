import TileViewCore
import TileViewScene

/// What `tileview info` reports about a scene file: its size in points, its layers, and the images it draws
/// (each as `ImageInfo` reports it, named by the path it resolves to).
public struct SceneInfo: Codable, Equatable, Sendable {
    public var file: String
    /// Always "scene".
    public var format: String
    /// The container, in points.
    public var width: Double
    public var height: Double
    /// The background colour (RRGGBB or RRGGBBAA), absent when transparent.
    public var background: String?
    public var layers: Int
    public var colorLayers: Int
    public var imageLayers: Int
    /// The distinct images, in layer order.
    public var images: [ImageInfo]

    public init(_ scene: SceneImage) {
        file = scene.path
        format = "scene"
        width = scene.scene.size.width
        height = scene.scene.size.height
        background = scene.scene.background?.description
        layers = scene.scene.layers.count
        imageLayers = scene.scene.layers.filter { if case .image = $0 { true } else { false } }.count
        colorLayers = layers - imageLayers
        images = scene.images.map { image in
            var header = image.header
            header.orientation = image.orientation
            return ImageInfo(file: image.path, header: header)
        }
    }

    /// One line for people: `room.json: scene 640x640 points, 4 layers (3 colour, 1 image: chelsea.png PNG 451x300)`.
    public var summary: String {
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        var text = "\(file): scene \(number(width))x\(number(height)) points, \(layers) layers"
        text += " (\(colorLayers) colour, \(imageLayers) image"
        if !images.isEmpty {
            text +=
                ": "
                + images.map { "\($0.file) \($0.format.uppercased()) \($0.orientedWidth)x\($0.orientedHeight)" }
                .joined(separator: ", ")
        }
        return text + ")"
    }
}
