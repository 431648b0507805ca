import TileViewCore

/// One-shot PNG decoding: the whole image, a band of rows or a region, always RGBA8.
public enum PNGDecoder {
    /// Decodes the whole PNG to RGBA8 (the corpus rules: palette and tRNS expanded, 16-bit to
    /// the high byte, gray to RGB), turned upright by an eXIf orientation unless
    /// `options.applyOrientation` is false. Rows are decoded straight into the result.
    public static func decode(
        _ source: ImageSource, options: DecodeOptions = DecodeOptions(),
        accepting: (ImageHeader) throws(CodecError) -> Void = { _ in }
    ) throws(CodecError) -> DecodedImage {
        try source.withShimInput { (input) throws(CodecError) -> DecodedImage in
            let reader = try PNGRowReader(input: input, owner: nil, options: options)
            try accepting(reader.header)
            let size = reader.header.storedSize
            let decoded: DecodedBand
            if reader.header.isInterlaced {
                decoded = try readInterlaced(reader, lenient: options.lenient)
            } else {
                decoded = try readBand(
                    from: reader, rows: size.height, rowWidth: size.width, columns: 0..<size.width,
                    lenient: options.lenient)
            }
            let image = options.applyOrientation ? decoded.image.applying(reader.header.orientation) : decoded.image
            return DecodedImage(
                image: image, header: reader.header, warnings: reader.warnings + (decoded.failure.map { [$0] } ?? []))
        }
    }

    /// Decodes the full-width rows `rows` (clipped to the image) of the stored image. The rows
    /// above are decoded and dropped as they pass and decoding stops after the last one; an
    /// Adam7 PNG is decoded whole first (width * height * 4 bytes held while it runs).
    public static func decodeRows(
        _ source: ImageSource, rows: Range<Int>, options: DecodeOptions = DecodeOptions()
    ) throws(CodecError) -> DecodedRegion {
        let all = PixelRect(x: 0, y: rows.lowerBound, width: Int.max / 2, height: rows.count)
        return try decodeRegion(source, region: all, options: options)
    }

    /// Decodes exactly `region` (clipped to the image) of the stored image: its rows are
    /// streamed as in `decodeRows` and its columns copied out of each.
    public static func decodeRegion(
        _ source: ImageSource, region: PixelRect, options: DecodeOptions = DecodeOptions()
    ) throws(CodecError) -> DecodedRegion {
        let reader = try LevelReader(source, format: .png, scale: LevelScale(), rect: region, options: options)
        let (image, failure) = try reader.readAll()
        return DecodedRegion(
            image: image, region: reader.rect, header: reader.header,
            warnings: reader.warnings + (failure.map { [$0] } ?? []))
    }

    /// An Adam7 image, every pass decoded into the result. Lenient: after an error the passes
    /// decoded so far are kept (pixels of later passes stay transparent).
    private static func readInterlaced(_ reader: PNGRowReader, lenient: Bool) throws(CodecError) -> DecodedBand {
        let size = reader.header.storedSize
        var pixels = [UInt8](repeating: 0, count: size.pixelCount * 4)
        var failure: CodecError?
        let rowBytes = reader.rowBytes
        pixels.withUnsafeMutableBytes { raw in
            do throws(CodecError) {
                try reader.readImage(into: raw, rowBytes: rowBytes)
                try reader.finish()
            } catch {
                failure = error
            }
        }
        let image = ImageBuffer(width: size.width, height: size.height, pixels: pixels)
        guard let failure else { return DecodedBand(image: image, failure: nil) }
        guard lenient else { throw failure }
        return DecodedBand(
            image: image, failure: failure.message + " (pixels of the passes not decoded are transparent)")
    }
}
