/// An 8-bit RGBA image in memory: straight alpha, row-major, rows `width * 4` bytes apart.
///
/// This is the one pixel format that flows between decoders, tiles, the renderer and the
/// encoder. It is a value type backed by a copy-on-write array.
public struct ImageBuffer: Hashable, Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public var pixels: [UInt8]

    /// Bytes per pixel.
    public static let channels = 4

    /// A buffer filled with one colour (default transparent black).
    public init(width: Int, height: Int, fill: RGBA8 = RGBA8(r: 0, g: 0, b: 0, a: 0)) {
        precondition(width >= 0 && height >= 0, "negative image size")
        self.width = width
        self.height = height
        if fill == RGBA8(r: 0, g: 0, b: 0, a: 0) {
            pixels = [UInt8](repeating: 0, count: width * height * 4)
        } else {
            var p = [UInt8](repeating: 0, count: width * height * 4)
            var i = 0
            while i < p.count {
                p[i] = fill.r
                p[i + 1] = fill.g
                p[i + 2] = fill.b
                p[i + 3] = fill.a
                i += 4
            }
            pixels = p
        }
    }

    /// Wraps existing pixels; `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size")
        precondition(pixels.count == width * height * 4, "pixel count does not match \(width)x\(height) RGBA")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent black buffer whose pixels are made in `storage`'s memory when its capacity holds them (a block
    /// kept from an earlier buffer: no new allocation), else in new memory.
    public init(width: Int, height: Int, reusing storage: consuming [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size")
        let count = width * height * 4
        let reused = count > 0 && storage.capacity >= count
        var pixels = Self.pixelStorage(count: count, reusing: consume storage)
        if reused { pixels.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }  // new memory is zeros
        self.init(width: width, height: height, pixels: pixels)
    }

    /// `count` bytes in `storage`'s memory when its capacity holds them, else new; what they hold is unspecified
    /// (whatever `storage` held, zeros where it was shorter), for a caller that writes every byte.
    public static func pixelStorage(count: Int, reusing storage: consuming [UInt8]) -> [UInt8] {
        guard count > 0, storage.capacity >= count else { return [UInt8](repeating: 0, count: count) }
        if storage.count > count {
            storage.removeLast(storage.count - count)
        } else if storage.count < count {
            storage.append(contentsOf: repeatElement(0, count: count - storage.count))
        }
        return storage
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    public var rowBytes: Int { width * 4 }
    /// Bytes held by the pixels.
    public var byteCount: Int { pixels.count }

    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            let i = (y * width + x) * 4
            return RGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r
            pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b
            pixels[i + 3] = newValue.a
        }
    }

    /// True when every alpha value is 255. Two pixels are checked at once: their alpha bytes are bytes 3 and 7 of
    /// eight read as one little-endian word.
    public var isOpaque: Bool {
        pixels.withUnsafeBytes { raw in
            let alphas: UInt64 = 0xFF00_0000_FF00_0000
            var i = 0
            while i + 8 <= raw.count {
                let pair = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                if pair & alphas != alphas { return false }
                i += 8
            }
            i += 3
            while i < raw.count {
                if raw[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    /// A copy of the pixels in `rect`, which must lie inside the buffer (the buffer itself when `rect` is all of it).
    public func cropped(to rect: PixelRect) -> ImageBuffer {
        precondition(PixelRect(size: size).contains(rect), "crop \(rect) outside \(size)")
        if rect == PixelRect(size: size) { return self }
        // Every byte of the crop is copied: no zero fill first.
        let rowBytes = rect.width * 4
        let count = rowBytes * rect.height
        let sourceWidth = width
        let pixels = self.pixels.withUnsafeBufferPointer { from in
            [UInt8](unsafeUninitializedCapacity: count) { to, initialized in
                for row in 0..<rect.height {
                    let s = ((rect.y + row) * sourceWidth + rect.x) * 4
                    (to.baseAddress! + row * rowBytes).initialize(from: from.baseAddress! + s, count: rowBytes)
                }
                initialized = count
            }
        }
        return ImageBuffer(width: rect.width, height: rect.height, pixels: pixels)
    }

    /// The pixels `rect` of an RGBA image `width` pixels wide whose rows start at `base` (row after row, no
    /// padding), copied: a crop of pixels held elsewhere (a mapped file). `rect` must lie inside that image.
    public init(copying rect: PixelRect, from base: UnsafeRawBufferPointer, width: Int) {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.maxX <= width && rect.maxY * width * 4 <= base.count)
        let rowBytes = rect.width * 4
        let count = rowBytes * rect.height
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { to, initialized in
            for row in 0..<rect.height {
                let offset = ((rect.y + row) * width + rect.x) * 4
                UnsafeMutableRawPointer(to.baseAddress! + row * rowBytes).copyMemory(
                    from: base.baseAddress! + offset, byteCount: rowBytes)
            }
            initialized = count
        }
        self.init(width: rect.width, height: rect.height, pixels: pixels)
    }

    /// Copies the pixels `rect` of `source` into this buffer with their top left at `origin`: the one row blit.
    /// Both rects must lie inside their buffers.
    public mutating func copy(_ rect: PixelRect, of source: ImageBuffer, to origin: (x: Int, y: Int)) {
        precondition(PixelRect(size: source.size).contains(rect), "copy of \(rect) outside \(source.size)")
        precondition(
            PixelRect(size: size).contains(PixelRect(x: origin.x, y: origin.y, width: rect.width, height: rect.height)),
            "copy to \(origin) of \(rect.size) outside \(size)")
        guard !rect.isEmpty else { return }
        let rowBytes = rect.width * 4
        let sourceWidth = source.width
        let width = self.width
        source.pixels.withUnsafeBufferPointer { from in
            pixels.withUnsafeMutableBufferPointer { to in
                for row in 0..<rect.height {
                    let s = ((rect.y + row) * sourceWidth + rect.x) * 4
                    let d = ((origin.y + row) * width + origin.x) * 4
                    (to.baseAddress! + d).update(from: from.baseAddress! + s, count: rowBytes)
                }
            }
        }
    }
}

/// One 8-bit RGBA pixel, straight alpha.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let black = RGBA8(r: 0, g: 0, b: 0, a: 255)

    /// Parses `RRGGBB` or `RRGGBBAA` (an optional leading `#`), as `--background` takes it.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.count == 6 || s.count == 8, let v = UInt32(s, radix: 16) else { return nil }
        if s.count == 6 {
            self.init(r: UInt8(v >> 16 & 0xff), g: UInt8(v >> 8 & 0xff), b: UInt8(v & 0xff), a: 255)
        } else {
            self.init(r: UInt8(v >> 24 & 0xff), g: UInt8(v >> 16 & 0xff), b: UInt8(v >> 8 & 0xff), a: UInt8(v & 0xff))
        }
    }

    public var description: String {
        func h(_ v: UInt8) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return s.count == 1 ? "0" + s : s
        }
        return h(r) + h(g) + h(b) + (a == 255 ? "" : h(a))
    }
}
