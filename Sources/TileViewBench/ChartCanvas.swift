import TileView
import TileViewCore

/// A small raster canvas for charts: rectangles, thick lines, dashed lines and 5 x 7 text on an `ImageBuffer`.
/// Everything is clipped to the canvas; coordinates are pixels from the top left.
struct ChartCanvas {
    private(set) var image: ImageBuffer

    init(width: Int, height: Int, background: RGBA8) {
        image = ImageBuffer(width: width, height: height, fill: background)
    }

    mutating func plot(_ x: Int, _ y: Int, _ colour: RGBA8) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        image[x, y] = colour
    }

    mutating func fill(x: Int, y: Int, width: Int, height: Int, _ colour: RGBA8) {
        guard width > 0, height > 0 else { return }
        for py in max(0, y)..<max(max(0, y), min(image.height, y + height)) {
            for px in max(0, x)..<max(max(0, x), min(image.width, x + width)) { image[px, py] = colour }
        }
    }

    /// A line from (x0, y0) to (x1, y1), `thickness` pixels wide (Bresenham, square pen); with `dash` > 0 it
    /// draws `dash` pixels and skips `dash`.
    mutating func line(
        from p0: (x: Int, y: Int), to p1: (x: Int, y: Int), _ colour: RGBA8, thickness: Int = 1, dash: Int = 0
    ) {
        var x = p0.x
        var y = p0.y
        let dx = abs(p1.x - x)
        let dy = -abs(p1.y - y)
        let sx = x < p1.x ? 1 : -1
        let sy = y < p1.y ? 1 : -1
        var error = dx + dy
        var count = 0
        let offset = (thickness - 1) / 2
        while true {
            if dash == 0 || (count / dash) % 2 == 0 {
                fill(x: x - offset, y: y - offset, width: thickness, height: thickness, colour)
            }
            count += 1
            if x == p1.x && y == p1.y { break }
            let e2 = 2 * error
            if e2 >= dy {
                error += dy
                x += sx
            }
            if e2 <= dx {
                error += dx
                y += sy
            }
        }
    }

    /// `text` with its top left at (x, y), each font pixel `scale` x `scale`.
    mutating func text(_ text: String, x: Int, y: Int, _ colour: RGBA8, scale: Int = 1) {
        var left = x
        for character in text.uppercased() {
            for gy in 0..<ChartFont.height {
                for gx in 0..<ChartFont.width where ChartFont.isSet(character, x: gx, y: gy) {
                    fill(x: left + gx * scale, y: y + gy * scale, width: scale, height: scale, colour)
                }
            }
            left += (ChartFont.width + 1) * scale
        }
    }
}
