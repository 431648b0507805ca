/// The EXIF orientation of a stored image: how its stored pixels must be turned to stand upright.
///
/// Two spaces meet here. *Stored space* is the pixel grid as the file holds it (W x H);
/// *oriented space* is the upright image a viewer shows (docs/design.md section 2 calls it image space),
/// which is H x W when the orientation swaps the axes (5 to 8). Each case names the operation
/// that turns the stored image into the oriented one, with the EXIF value as its raw value.
public enum ImageOrientation: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// 1: stored upright.
    case up = 1
    /// 2: mirror horizontally.
    case upMirrored = 2
    /// 3: rotate 180 degrees.
    case down = 3
    /// 4: mirror vertically.
    case downMirrored = 4
    /// 5: transpose (mirror across the main diagonal).
    case leftMirrored = 5
    /// 6: rotate 90 degrees clockwise.
    case right = 6
    /// 7: transverse (mirror across the anti-diagonal).
    case rightMirrored = 7
    /// 8: rotate 90 degrees counter-clockwise.
    case left = 8

    /// The orientation for an EXIF Orientation value; values outside 1...8 count as 1.
    public init(exifValue: Int) {
        self = ImageOrientation(rawValue: exifValue) ?? .up
    }

    /// The EXIF Orientation value.
    public var exifValue: Int { rawValue }

    /// True when the oriented image is the stored one turned on its side (5 to 8).
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The orientation that turns the oriented image back into the stored one.
    public var inverse: ImageOrientation {
        switch self {
        case .right: return .left
        case .left: return .right
        default: return self
        }
    }

    /// The size of the oriented image for a stored size.
    public func orientedSize(forStoredSize stored: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: stored.height, height: stored.width) : stored
    }

    /// The size of the stored image for an oriented size.
    public func storedSize(forOrientedSize oriented: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: oriented.height, height: oriented.width) : oriented
    }

    /// The stored pixel that oriented pixel (x, y) shows, for an image stored as `stored`.
    public func storedPixel(atOrientedX x: Int, y: Int, storedSize stored: PixelSize) -> (x: Int, y: Int) {
        let w = stored.width
        let h = stored.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    /// The stored rect whose pixels an oriented rect shows (the region to decode for a rotated image).
    public func storedRect(forOrientedRect r: PixelRect, storedSize stored: PixelSize) -> PixelRect {
        let w = stored.width
        let h = stored.height
        switch self {
        case .up: return r
        case .upMirrored: return PixelRect(x: w - r.maxX, y: r.y, width: r.width, height: r.height)
        case .down: return PixelRect(x: w - r.maxX, y: h - r.maxY, width: r.width, height: r.height)
        case .downMirrored: return PixelRect(x: r.x, y: h - r.maxY, width: r.width, height: r.height)
        case .leftMirrored: return PixelRect(x: r.y, y: r.x, width: r.height, height: r.width)
        case .right: return PixelRect(x: r.y, y: h - r.maxX, width: r.height, height: r.width)
        case .rightMirrored: return PixelRect(x: w - r.maxY, y: h - r.maxX, width: r.height, height: r.width)
        case .left: return PixelRect(x: w - r.maxY, y: r.x, width: r.height, height: r.width)
        }
    }

    /// The oriented rect that shows the pixels of a stored rect.
    public func orientedRect(forStoredRect r: PixelRect, storedSize stored: PixelSize) -> PixelRect {
        inverse.storedRect(forOrientedRect: r, storedSize: orientedSize(forStoredSize: stored))
    }

    public var description: String {
        switch self {
        case .up: return "1 (upright)"
        case .upMirrored: return "2 (mirrored horizontally)"
        case .down: return "3 (rotated 180)"
        case .downMirrored: return "4 (mirrored vertically)"
        case .leftMirrored: return "5 (transposed)"
        case .right: return "6 (rotated 90 clockwise)"
        case .rightMirrored: return "7 (transversed)"
        case .left: return "8 (rotated 90 counter-clockwise)"
        }
    }
}

// MARK: - Applying an orientation to pixels

extension ImageBuffer {
    /// The upright image for a buffer stored with `orientation`: oriented pixel (x, y) is stored
    /// pixel `orientation.storedPixel(atOrientedX: x, y: y, storedSize: size)`.
    ///
    /// Pixels move as whole 32-bit words. Orientations that swap the axes walk the output in
    /// 32 x 32 blocks so that the strided reads stay in cache. O(width * height).
    public func applying(_ orientation: ImageOrientation) -> ImageBuffer {
        if orientation == .up { return self }
        let w = width
        let h = height
        let out = orientation.orientedSize(forStoredSize: size)
        // Oriented pixel (x, y) reads stored word `origin + y * rowStep + x * columnStep`.
        let origin: Int
        let rowStep: Int
        let columnStep: Int
        switch orientation {
        case .up: (origin, rowStep, columnStep) = (0, w, 1)
        case .upMirrored: (origin, rowStep, columnStep) = (w - 1, w, -1)
        case .down: (origin, rowStep, columnStep) = ((h - 1) * w + w - 1, -w, -1)
        case .downMirrored: (origin, rowStep, columnStep) = ((h - 1) * w, -w, 1)
        case .leftMirrored: (origin, rowStep, columnStep) = (0, 1, w)
        case .right: (origin, rowStep, columnStep) = ((h - 1) * w, 1, -w)
        case .rightMirrored: (origin, rowStep, columnStep) = ((h - 1) * w + w - 1, -1, -w)
        case .left: (origin, rowStep, columnStep) = (w - 1, -1, w)
        }
        let count = w * h
        let result = [UInt8](unsafeUninitializedCapacity: count * 4) { bytes, initialized in
            pixels.withUnsafeBytes { source in
                guard let s = source.baseAddress, let d = UnsafeMutableRawPointer(bytes.baseAddress), count > 0 else {
                    return
                }
                let block = orientation.swapsAxes ? 32 : max(out.width, 1)
                var y0 = 0
                while y0 < out.height {
                    let y1 = min(y0 + block, out.height)
                    var x0 = 0
                    while x0 < out.width {
                        let x1 = min(x0 + block, out.width)
                        for y in y0..<y1 {
                            var from = (origin + y * rowStep + x0 * columnStep) * 4
                            var to = (y * out.width + x0) * 4
                            let fromStep = columnStep * 4
                            for _ in x0..<x1 {
                                let word = s.load(fromByteOffset: from, as: UInt32.self)
                                d.storeBytes(of: word, toByteOffset: to, as: UInt32.self)
                                from += fromStep
                                to += 4
                            }
                        }
                        x0 = x1
                    }
                    y0 = y1
                }
            }
            initialized = count * 4
        }
        return ImageBuffer(width: out.width, height: out.height, pixels: result)
    }
}
