import CImageCodecs
import TileViewCore

/// How one decode's independent parts run: `run(count, body)` calls `body` once for each of `0..<count`, perhaps
/// at once on threads of their own, and returns when every call has returned; `background(body)` starts `body`
/// beside the caller and returns what waits for it. The codecs start no threads; the caller hands them this
/// (`DecodeParts.threads` in TileViewSystem). Two decodes use it: a JPEG's 1/8 scale, which `JPEGScanlineReader`
/// splits into parts of the entropy-coded data (`tv_jpeg_parts_plan`), each at least `minimumBytes` long, at most
/// `count` of them, and holding at most `maximumBytes` (`jpegEighthBytes`); and a PNG's rows, inflated in the
/// background while the reader unfilters them (`PNGRowReader.startPipeline`).
public struct DecodeParts: Sendable {
    public var count: Int
    public var minimumBytes: Int
    public var maximumBytes: Int
    /// Whether a JPEG decoded in parts also keeps its entropy index, made from the same pass
    /// (`JPEGScanlineReader.entropyIndex`): 8 bytes more a MCU while it runs, within `jpegEighthBytes`.
    public var keepsEntropyIndex = false
    public var run: @Sendable (_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Void
    public var background: @Sendable (_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// `background` by default runs nothing beside the caller: the body runs when it is waited for.
    public init(
        count: Int, minimumBytes: Int = 64 << 10, maximumBytes: Int = 64 << 20,
        run: @escaping @Sendable (_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> Void,
        background: @escaping @Sendable (_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void = { body in
            { body() }
        }
    ) {
        self.count = count
        self.minimumBytes = minimumBytes
        self.maximumBytes = maximumBytes
        self.run = run
        self.background = background
    }

    /// At most what a JPEG's 1/8 scale decoded in these parts holds, for a memory plan: the file read whole (the
    /// caller's bytes are not counted again: pass 0), every MCU's record (at most 3/8 of a byte a stored pixel,
    /// with room to grow, the entropy index's positions included), the first MCUs' positions of each part, and the 1/8 rows. No more than `maximumBytes`,
    /// beyond which the file is left to libjpeg.
    public func jpegEighthBytes(storedSize: PixelSize, fileBytes: Int) -> Int {
        let eighth = PixelSize(width: (storedSize.width + 7) / 8, height: (storedSize.height + 7) / 8)
        return min(maximumBytes, fileBytes + storedSize.pixelCount * 3 / 8 + count * (32 << 10) + eighth.pixelCount * 4)
    }

    /// What the further units of a row decoded at once hold beside the one the decoder's working memory counts (a HEIF
    /// grid's tile decodes, `ImageHeader.decoderPartBytes`; 0 for other files).
    public func unitBytes(_ header: ImageHeader) -> Int {
        let (bytes, overflow) = max(count - 1, 0).multipliedReportingOverflow(by: header.decoderPartBytes)
        return overflow ? .max : bytes
    }

    /// What a PNG's rows inflated in the background hold (`tv_png_pipeline_bytes`) for an image `width` pixels wide
    /// read from a file (`file`) or from memory.
    public static func pngPipelineBytes(width: Int, file: Bool) -> Int {
        Int(tv_png_pipeline_bytes(UInt32(clamping: width), file ? 1 : 0))
    }

    /// Every part on the calling thread, one after another (the same bytes as at once: for tests).
    public static func serial(count: Int, minimumBytes: Int = 1) -> DecodeParts {
        DecodeParts(count: count, minimumBytes: minimumBytes) { count, body in
            for part in 0..<count { body(part) }
        }
    }
}
