import TileViewCore

/// Shrinks RGBA8 pixels by a whole factor with a box filter: each output pixel is the
/// alpha-weighted mean of a `factor` x `factor` block of source pixels.
///
/// This makes the levels of detail that a decoder cannot make itself (every PNG level, JPEG
/// levels past libjpeg's 1/8): level L is ceil(W / 2^L) wide, so the last block of a row or
/// column may be narrower and averages only the pixels it has. Colour is weighted by alpha
/// (premultiplied averaging) and returned straight; integer arithmetic, rounded to nearest, so the
/// bytes are the same everywhere. Work is O(source pixels); the streaming form keeps one band of
/// at most `factor` source rows.
public enum BoxReducer {
    /// The reduced size: ceil(W / factor) x ceil(H / factor).
    public static func reducedSize(of size: PixelSize, factor: Int) -> PixelSize {
        precondition(factor >= 1, "box factor must be at least 1")
        return PixelSize(width: (size.width + factor - 1) / factor, height: (size.height + factor - 1) / factor)
    }

    /// The whole image shrunk by `factor`.
    public static func reduce(_ image: ImageBuffer, factor: Int) -> ImageBuffer {
        if factor == 1 { return image }
        let size = reducedSize(of: image.size, factor: factor)
        var out = [UInt8](repeating: 0, count: size.width * size.height * 4)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<size.height {
                    let y0 = row * factor
                    let rows = min(factor, image.height - y0)
                    reduceBand(
                        src.baseAddress! + y0 * image.width * 4, rowBytes: image.width * 4, rows: rows,
                        columns: 0..<image.width, factor: factor,
                        into: dst.baseAddress! + row * size.width * 4)
                }
            }
        }
        return ImageBuffer(width: size.width, height: size.height, pixels: out)
    }

    /// Reduces one band of `rows` (1...factor) source rows, `rowBytes` apart, to one output row:
    /// the source columns `columns` become ceil(columns.count / factor) pixels written at `output`.
    public static func reduceBand(
        _ band: UnsafePointer<UInt8>, rowBytes: Int, rows: Int, columns: Range<Int>, factor: Int,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        precondition(rows >= 1 && rows <= factor, "a band holds 1 to factor rows")
        let outWidth = (columns.count + factor - 1) / factor
        for ox in 0..<outWidth {
            let x0 = columns.lowerBound + ox * factor
            let x1 = min(x0 + factor, columns.upperBound)
            var totals = BoxLevels.Sums()
            for r in 0..<rows {
                var p = band + r * rowBytes + x0 * 4
                for _ in x0..<x1 {
                    let a = UInt64(p[3])
                    totals.alpha &+= a
                    totals.red &+= UInt64(p[0]) &* a
                    totals.green &+= UInt64(p[1]) &* a
                    totals.blue &+= UInt64(p[2]) &* a
                    totals.rawRed &+= UInt64(p[0])
                    totals.rawGreen &+= UInt64(p[1])
                    totals.rawBlue &+= UInt64(p[2])
                    p += 4
                }
            }
            totals.store(pixels: UInt64((x1 - x0) * rows), at: output + ox * 4)
        }
    }
}
