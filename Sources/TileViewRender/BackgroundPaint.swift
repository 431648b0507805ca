import TileViewCore

/// The background colour as the compositing step uses it: premultiplied Float components on the
/// 0...255 scale, and whether it is opaque (then every composited pixel is opaque too).
struct BackgroundPaint: Sendable {
    let red: Float
    let green: Float
    let blue: Float
    let alpha: Float
    let isOpaque: Bool

    init(_ colour: RGBA8) {
        let scale = Float(colour.a) / 255
        red = Float(colour.r) * scale
        green = Float(colour.g) * scale
        blue = Float(colour.b) * scale
        alpha = Float(colour.a)
        isOpaque = colour.a == 255
    }
}
