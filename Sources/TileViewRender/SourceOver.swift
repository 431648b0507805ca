import TileViewCore

/// Source-over compositing onto a frame: how scene layers are drawn one over another.
///
/// Pixels are straight-alpha RGBA8. A source of colour c and alpha a, covering a fraction k of a pixel, goes
/// over a destination (d, da) as premultiplied Float arithmetic: A = a k; out alpha = A + da (1 - A); out colour
/// = (c A + d da (1 - A)) / out alpha, rounded to nearest (ties to even). A source with A = 1 replaces the pixel
/// exactly and A = 0 leaves it alone, so an opaque layer drawn over anything shows its own bytes.
extension ImageBuffer {
    /// Fills `rect` (viewport space, fractional) with `colour`; pixels the rect cuts blend by their coverage
    /// (the product of the covered lengths across and down), as `FrameGeometry` blends image edges.
    public mutating func fill(_ rect: Rect, with colour: RGBA8) {
        guard let pixels = PixelCoverage(rect: rect, width: width, height: height) else { return }
        let w = width
        self.pixels.withUnsafeMutableBufferPointer { out in
            for y in pixels.rows {
                let down = pixels.coverage(y: y)
                for x in pixels.columns {
                    Self.over(colour, coverage: Float(down * pixels.coverage(x: x)), into: out, at: (y * w + x) * 4)
                }
            }
        }
    }

    /// Keeps what was drawn since `before` (this frame earlier) only inside `clip` (viewport space, fractional):
    /// pixels outside it get their `before` colour back, pixels it cuts mix the two by their coverage, rounded
    /// to nearest. How a drawing is cut to a rect it overflows (an aspect-fill image layer).
    public mutating func keep(inside clip: Rect, restoring before: ImageBuffer) {
        precondition(before.size == size, "restoring \(size) from \(before.size)")
        let inside = PixelCoverage(rect: clip, width: width, height: height)
        let w = width
        before.pixels.withUnsafeBufferPointer { old in
            self.pixels.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let down = inside.map { $0.rows.contains(y) ? $0.coverage(y: y) : 0 } ?? 0
                    for x in 0..<w {
                        let k = down > 0 ? down * inside!.coverage(x: x) : 0
                        if k >= 1 { continue }
                        let i = (y * w + x) * 4
                        if k <= 0 {
                            (out[i], out[i + 1], out[i + 2], out[i + 3]) = (old[i], old[i + 1], old[i + 2], old[i + 3])
                            continue
                        }
                        for c in i..<(i + 4) {
                            let v = Float(old[c]) + (Float(out[c]) - Float(old[c])) * Float(k)
                            out[c] = UInt8(min(max(v.rounded(.toNearestOrEven), 0), 255))
                        }
                    }
                }
            }
        }
    }

    /// One pixel of source-over at byte offset `i`.
    @inline(__always)
    static func over(_ c: RGBA8, coverage: Float, into out: UnsafeMutableBufferPointer<UInt8>, at i: Int) {
        let a = Float(c.a) / 255 * coverage
        if a <= 0 { return }
        if a >= 1 {
            (out[i], out[i + 1], out[i + 2], out[i + 3]) = (c.r, c.g, c.b, 255)
            return
        }
        let da = Float(out[i + 3]) / 255
        let keep = da * (1 - a)
        let alpha = a + keep
        func channel(_ s: UInt8, _ d: UInt8) -> UInt8 {
            let v = (Float(s) * a + Float(d) * keep) / alpha
            return UInt8(min(max(v.rounded(.toNearestOrEven), 0), 255))
        }
        out[i] = channel(c.r, out[i])
        out[i + 1] = channel(c.g, out[i + 1])
        out[i + 2] = channel(c.b, out[i + 2])
        out[i + 3] = UInt8(min(max((alpha * 255).rounded(.toNearestOrEven), 0), 255))
    }
}

extension FrameGeometry {
    /// The pixels of a frame of `size` that a fractional `rect` covers with a positive area, or nil when none.
    public static func coveredPixels(of rect: Rect, in size: PixelSize) -> PixelRect? {
        guard let xs = coveredRange(rect.minX, rect.maxX, size.width),
            let ys = coveredRange(rect.minY, rect.maxY, size.height)
        else { return nil }
        return PixelRect(x: xs.lowerBound, y: ys.lowerBound, width: xs.count, height: ys.count)
    }
}

/// The frame pixels a fractional rect touches and how much of each it covers, per axis.
struct PixelCoverage {
    let rect: Rect
    let columns: Range<Int>
    let rows: Range<Int>

    init?(rect: Rect, width: Int, height: Int) {
        guard let columns = FrameGeometry.coveredRange(rect.minX, rect.maxX, width),
            let rows = FrameGeometry.coveredRange(rect.minY, rect.maxY, height)
        else { return nil }
        self.rect = rect
        self.columns = columns
        self.rows = rows
    }

    func coverage(x: Int) -> Double { FrameGeometry.coverage(Double(x), rect.minX, rect.maxX) }
    func coverage(y: Int) -> Double { FrameGeometry.coverage(Double(y), rect.minY, rect.maxY) }
}
