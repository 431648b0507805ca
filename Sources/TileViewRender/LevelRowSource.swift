import TileViewCore

/// Level pixels delivered one row at a time, top to bottom, as the renderer asks for them.
///
/// This lets a frame be rendered straight from a decoder's scanlines (demand-driven, as libvips
/// does) without holding the level region in memory: the renderer asks for the rows of its
/// `sourceRect` in non-decreasing order, each at least once, and keeps its own ring of filtered
/// rows. A row is RGBA8 straight alpha and starts at level column `sourceRect.x`, holding at
/// least `sourceRect.width` pixels. The pointer must stay valid until the next call.
public protocol LevelRowSource {
    mutating func row(_ levelY: Int) -> UnsafePointer<UInt8>
}

/// Rows of an `ImageBuffer` that holds level pixels from `origin` (the ordinary, in-memory source).
struct BufferRowSource: LevelRowSource {
    let base: UnsafePointer<UInt8>
    let width: Int
    let origin: (x: Int, y: Int)
    /// The level column rows must start at.
    let firstColumn: Int

    func row(_ levelY: Int) -> UnsafePointer<UInt8> {
        base + ((levelY - origin.y) * width + (firstColumn - origin.x)) * 4
    }
}

extension FrameRenderer {
    /// The frame, from level rows delivered on demand (see `LevelRowSource`): the same bytes as
    /// `render(source:sourceOrigin:)` with a source holding `sourceRect`.
    public func render<Rows: LevelRowSource>(rows: inout Rows) -> ImageBuffer {
        renderFrame(xAxis: xAxis, yAxis: yAxis) { x, y, paint, out, width in
            Self.resample(rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width)
        }
    }

    /// The frame drawn into `out` (`geometry.frameSize` pixels, RGBA8, rows `4 * width` bytes apart) from level
    /// rows delivered on demand, the bytes `render(rows:)` gives. `rowsDone(n)` is called each time rows `0..<n`
    /// of the frame are final, with growing n and last with the frame's height: another thread may read those
    /// rows from then on (an encoder compressing the top of the frame while the rest is drawn).
    public func render<Rows: LevelRowSource>(
        rows: inout Rows, into out: UnsafeMutablePointer<UInt8>, rowsDone: (Int) -> Void
    ) {
        renderFrame(into: out, xAxis: xAxis, yAxis: yAxis) { x, y, paint, out, width in
            rowsDone(y.outputRange.lowerBound)  // the rows above the covered ones hold the background
            Self.resample(
                rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width, rowsDone: rowsDone)
        }
        rowsDone(max(0, geometry.frameSize.height))
    }

    /// `draw(source:sourceOrigin:onto:)` from level rows delivered on demand.
    public func draw<Rows: LevelRowSource>(rows: inout Rows, onto frame: inout ImageBuffer) {
        drawFrame(onto: &frame, xAxis: xAxis, yAxis: yAxis) { x, y, paint, out, width in
            Self.resample(rows: &rows, xAxis: x, yAxis: y, background: paint, into: out, frameWidth: width)
        }
    }
}
