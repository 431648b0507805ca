import TileViewCore
import TileViewFeed

/// Drawing one feed frame from what is resident.
extension FeedRenderer {
    /// The frame of `step`: background, then every visible section in its frame, then the visible cells.
    func draw(_ step: FeedScrollStep) throws(TileViewError) -> ImageBuffer {
        let size = layout.viewportSize
        var frame = ImageBuffer(width: size.width, height: size.height, fill: background)
        for sectionFrame in step.frames where sectionFrame.isVisible {
            switch sources[sectionFrame.index] {
            case .header(_, let colour):
                Self.fill(
                    &frame, rows: sectionFrame.frame.y..<sectionFrame.frame.maxY,
                    with: colour.composited(over: background))
            case .image(let image):
                if let pixels = try image.render(sectionFrame, background: background) {
                    frame.copy(PixelRect(size: pixels.size), of: pixels, to: (0, sectionFrame.frame.y))
                }
            case .grid:
                break  // drawn from the resident cells below
            }
        }
        let viewport = PixelRect(size: size)
        for cell in step.cells.resident {
            guard let visible = cell.viewportRect.intersection(viewport), let thumbnail = cells[cell.id] else {
                continue
            }
            let inCell = PixelRect(
                x: visible.x - cell.viewportRect.x, y: visible.y - cell.viewportRect.y, width: visible.width,
                height: visible.height)
            frame.copy(inCell, of: thumbnail, to: (visible.x, visible.y))
        }
        return frame
    }

    /// Fills whole rows of `frame` with one colour.
    static func fill(_ frame: inout ImageBuffer, rows: Range<Int>, with colour: RGBA8) {
        let word = UInt32(colour.r) | UInt32(colour.g) << 8 | UInt32(colour.b) << 16 | UInt32(colour.a) << 24
        let width = frame.width
        frame.pixels.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            let start = max(rows.lowerBound, 0) * width
            let end = min(rows.upperBound, frame.height) * width
            if start < end { words[start..<end].update(repeating: word.littleEndian) }
        }
    }
}

extension RGBA8 {
    /// This colour composited over `below` (source over, straight alpha in and out, rounded to nearest).
    public func composited(over below: RGBA8) -> RGBA8 {
        if a == 255 || below.a == 0 { return self }
        if a == 0 { return below }
        // In units of 1/255^2: out alpha = a + b (1 - a); out colour premultiplied = c a + d b (1 - a).
        let sa = Int(a)
        let ba = Int(below.a) * (255 - sa)
        let outA = sa * 255 + ba
        func channel(_ c: UInt8, _ d: UInt8) -> UInt8 {
            let premultiplied = Int(c) * sa * 255 + Int(d) * ba
            return UInt8((premultiplied * 2 + outA) / (2 * outA))
        }
        return RGBA8(
            r: channel(r, below.r), g: channel(g, below.g), b: channel(b, below.b),
            a: UInt8((outA * 2 + 255) / (2 * 255)))
    }
}
