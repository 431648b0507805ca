import TileViewCore

extension Scene {
    /// Parses a scene file's bytes: strict JSON, known keys only, every number finite, sizes positive (rect sizes
    /// may be 0), colours RRGGBB or RRGGBBAA. The first problem found is the error.
    public init(parsing bytes: [UInt8]) throws(SceneError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: bytes)
        } catch {
            throw SceneError("not valid JSON: \(error)")
        }
        guard case .object(let members) = document else {
            throw SceneError("a scene is a JSON object, not \(document.kindName)")
        }
        let fields = try Fields(members, allowed: ["width", "height", "background", "layers"], layer: nil)
        let width = try fields.number("width", required: true)!
        let height = try fields.number("height", required: true)!
        for (name, value) in [("width", width), ("height", height)] where !(value > 0 && value <= Scene.largestSide) {
            throw SceneError("\"\(name)\" must be above 0 and at most \(Int(Scene.largestSide)) points, not \(value)")
        }
        let background = try fields.color("background")
        guard let layersValue = fields["layers"] else { throw SceneError("missing \"layers\" (an array of layers)") }
        guard case .array(let layerValues) = layersValue else {
            throw SceneError("\"layers\" must be an array, not \(layersValue.kindName)")
        }
        guard layerValues.count <= Scene.mostLayers else {
            throw SceneError("\(layerValues.count) layers, over the limit of \(Scene.mostLayers)")
        }
        var layers: [SceneLayer] = []
        for (index, value) in layerValues.enumerated() {
            layers.append(try SceneLayer(parsing: value, index: index))
        }
        self.init(size: Size(width: width, height: height), background: background, layers: layers)
    }
}

extension SceneLayer {
    static let colorKeys: Set<String> = ["color", "rect"]
    static let imageKeys: Set<String> = ["image", "rect", "center", "mode"]

    init(parsing value: JSONValue, index: Int) throws(SceneError) {
        guard case .object(let members) = value else {
            throw SceneError(layer: index, "a layer is an object, not \(value.kindName)")
        }
        let keys = Set(members.map(\.key))
        if keys.contains("color") && keys.contains("image") {
            throw SceneError(layer: index, "a layer has \"color\" or \"image\", not both")
        }
        if keys.contains("image") {
            let fields = try Fields(members, allowed: Self.imageKeys, layer: index)
            guard case .string(let path) = fields["image"]!, !path.isEmpty else {
                throw SceneError(layer: index, "\"image\" must be a file name (a non-empty string)")
            }
            let hasRect = fields["rect"] != nil
            let hasCenter = fields["center"] != nil
            guard hasRect != hasCenter else {
                throw SceneError(
                    layer: index,
                    hasRect
                        ? "an image layer has \"rect\" or \"center\", not both"
                        : "an image layer needs \"rect\" or \"center\"")
            }
            if hasCenter {
                guard fields["mode"] == nil else {
                    throw SceneError(
                        layer: index, "\"mode\" goes with \"rect\" (\"center\" draws the image at its own size)")
                }
                let c = try fields.numbers("center", count: 2)
                self = .image(path: path, placement: .center(Point(x: c[0], y: c[1])))
            } else {
                let mode = try fields.mode()
                self = .image(path: path, placement: .rect(try fields.rect(), mode: mode))
            }
        } else if keys.contains("color") {
            let fields = try Fields(members, allowed: Self.colorKeys, layer: index)
            guard fields["rect"] != nil else { throw SceneError(layer: index, "a colour layer needs \"rect\"") }
            self = .color(try fields.color("color")!, rect: try fields.rect())
        } else {
            if let unknown = members.first(where: { !Self.imageKeys.union(Self.colorKeys).contains($0.key) }) {
                throw SceneError(layer: index, Fields.unknownKeyReason(unknown.key, allowed: ["color", "image"]))
            }
            throw SceneError(layer: index, "a layer needs \"color\" (a rectangle) or \"image\" (a file)")
        }
    }
}

/// The members of one JSON object, checked against the keys it may have.
struct Fields {
    let members: [String: JSONValue]
    let layer: Int?

    init(_ list: [(key: String, value: JSONValue)], allowed: Set<String>, layer: Int?) throws(SceneError) {
        for (key, _) in list where !allowed.contains(key) {
            throw SceneError(layer: layer, Self.unknownKeyReason(key, allowed: allowed))
        }
        var members: [String: JSONValue] = [:]
        for (key, value) in list { members[key] = value }
        self.members = members
        self.layer = layer
    }

    static func unknownKeyReason(_ key: String, allowed: Set<String>) -> String {
        "unknown key \"\(key)\" (known here: \(allowed.sorted().map { "\"\($0)\"" }.joined(separator: ", ")))"
    }

    subscript(key: String) -> JSONValue? { members[key] }

    func fail(_ reason: String) -> SceneError { SceneError(layer: layer, reason) }

    func number(_ key: String, required: Bool) throws(SceneError) -> Double? {
        guard let value = members[key] else {
            if required { throw fail("missing \"\(key)\" (a number)") }
            return nil
        }
        guard case .number(let n) = value else { throw fail("\"\(key)\" must be a number, not \(value.kindName)") }
        return n
    }

    func numbers(_ key: String, count: Int) throws(SceneError) -> [Double] {
        guard case .array(let values) = members[key] ?? .null, values.count == count else {
            throw fail("\"\(key)\" must be an array of \(count) numbers")
        }
        var numbers: [Double] = []
        for value in values {
            guard case .number(let n) = value, abs(n) <= Scene.largestSide * 4 else {
                throw fail(
                    "\"\(key)\" must be an array of \(count) numbers, each within ±\(Int(Scene.largestSide) * 4)")
            }
            numbers.append(n)
        }
        return numbers
    }

    /// `rect` as [x, y, width, height], width and height not negative.
    func rect() throws(SceneError) -> Rect {
        let r = try numbers("rect", count: 4)
        guard r[2] >= 0, r[3] >= 0 else {
            throw fail("\"rect\" has a negative size (\(r[2]) x \(r[3])): it is [x, y, width, height]")
        }
        return Rect(x: r[0], y: r[1], width: r[2], height: r[3])
    }

    func color(_ key: String) throws(SceneError) -> RGBA8? {
        guard let value = members[key] else { return nil }
        guard case .string(let text) = value, text.utf8.count == 6 || text.utf8.count == 8,
            text.utf8.allSatisfy({ isHexDigit($0) }), let colour = RGBA8(hex: text)
        else {
            throw fail("\"\(key)\" must be a colour RRGGBB or RRGGBBAA in hexadecimal, not \(Self.show(value))")
        }
        return colour
    }

    func mode() throws(SceneError) -> SceneFitMode {
        guard let value = members["mode"] else { return .fill }
        guard case .string(let text) = value, let mode = SceneFitMode(rawValue: text) else {
            let known = SceneFitMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw fail("\"mode\" must be one of \(known), not \(Self.show(value))")
        }
        return mode
    }

    func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    static func show(_ value: JSONValue) -> String {
        if case .string(let s) = value { return "\"\(s)\"" }
        return value.kindName
    }
}
