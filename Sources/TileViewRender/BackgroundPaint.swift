import TileViewCore

/// The background colour as the compositing step uses it: premultiplied Float components on the
/// 0...255 scale, and whether it is opaque (then every composited pixel is opaque too).
struct BackgroundPaint: Sendable {
    /// The colour components multiplied by `alpha / 255`, each 0...255.
    let red: Float
    let green: Float
    let blue: Float
    /// The background's own alpha, 0...255.
    let alpha: Float
    /// `alpha == 255`.
    let isOpaque: Bool
    /// True when each frame pixel's own colour is its background (drawing onto an existing frame): the fields
    /// above are then unused and the compositing reads the pixel it overwrites.
    var isDestination = false

    /// Each frame pixel's own colour as its background.
    static let destination: BackgroundPaint = {
        var paint = BackgroundPaint(RGBA8(r: 0, g: 0, b: 0, a: 0))
        paint.isDestination = true
        return paint
    }()

    init(_ colour: RGBA8) {
        let scale = Float(colour.a) / 255
        red = Float(colour.r) * scale
        green = Float(colour.g) * scale
        blue = Float(colour.b) * scale
        alpha = Float(colour.a)
        isOpaque = colour.a == 255
    }
}
