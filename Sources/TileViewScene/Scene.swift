import TileViewCore

/// A scene: a container of `size` points holding coloured rectangles and images, drawn in order over its
/// background, which zooms exactly like an image of that size (docs/design.md section 12; UIKit's "zooming a view
/// hierarchy"). The zoom engine sees only `size`; what is drawn inside comes from the layers.
///
/// A scene is a JSON file:
///
///     {"width": 640, "height": 640, "background": "FFFFFF",
///      "layers": [{"color": "FF0000", "rect": [0, 0, 640, 80]},
///                 {"image": "photo.jpg", "center": [320, 320]},
///                 {"image": "photo.jpg", "rect": [20, 100, 200, 150], "mode": "aspect-fit"}]}
///
/// Image paths are relative to the scene file (resolving them is the caller's I/O). Without `background`
/// the container is transparent: the viewport's background shows through.
public struct Scene: Hashable, Sendable {
    /// The container, in points (content space at zoom scale 1).
    public var size: Size
    /// The container's colour, or nil for none (transparent).
    public var background: RGBA8?
    /// Drawn in order: later layers cover earlier ones.
    public var layers: [SceneLayer]

    public init(size: Size, background: RGBA8? = nil, layers: [SceneLayer] = []) {
        self.size = size
        self.background = background
        self.layers = layers
    }

    /// The largest width or height a scene may have, in points.
    public static let largestSide: Double = 1_000_000
    /// The most layers a scene may have.
    public static let mostLayers = 10_000
    /// The largest scene file read, in bytes.
    public static let largestFileBytes = 4 << 20

    /// The image files the scene names, in layer order, each once.
    public var imagePaths: [String] {
        var seen = Set<String>()
        return layers.compactMap { layer in
            guard case .image(let path, _) = layer, seen.insert(path).inserted else { return nil }
            return path
        }
    }

    /// True when `prefix` (the first bytes of a file) can start a scene: a JSON object, after an optional byte
    /// order mark and whitespace. No image format tileview reads starts so.
    public static func sniff(_ prefix: some Collection<UInt8>) -> Bool {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "{")
    }
}

/// One layer of a scene.
public enum SceneLayer: Hashable, Sendable {
    /// A rectangle of one colour (RRGGBB or RRGGBBAA), in scene points.
    case color(RGBA8, rect: Rect)
    /// An image file (path as written, relative to the scene file), placed in the scene.
    case image(path: String, placement: ScenePlacement)
}

/// Where an image layer goes.
public enum ScenePlacement: Hashable, Sendable {
    /// At its own size (one image pixel per scene point), centred on a point.
    case center(Point)
    /// Scaled into a rect.
    case rect(Rect, mode: SceneFitMode)
}

/// How an image fills its rect (UIKit's content modes).
public enum SceneFitMode: String, Hashable, Sendable, CaseIterable {
    /// Stretched to the rect (`scaleToFill`); the default.
    case fill
    /// As large as fits inside the rect, aspect kept, centred (`scaleAspectFit`).
    case aspectFit = "aspect-fit"
    /// As small as covers the rect, aspect kept, centred, cut to the rect (`scaleAspectFill` with clipping).
    case aspectFill = "aspect-fill"
}
