/// What is wrong with a scene file: where (the JSON position or the layer) and why.
public struct SceneError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The layer concerned (0-based, as `layers[i]` in the file), nil for the scene as a whole.
    public let layer: Int?
    public let reason: String

    public init(layer: Int? = nil, _ reason: String) {
        self.layer = layer
        self.reason = reason
    }

    /// `layers[2]: unknown key "colour" ...`, or the reason alone for the whole scene.
    public var description: String { layer.map { "layers[\($0)]: \(reason)" } ?? reason }
}
