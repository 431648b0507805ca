import TileViewCore

/// One-shot JPEG decoding: the whole image or a region, at any scale M/8 that libjpeg's DCT scaling gives.
public enum JPEGDecoder {
    /// Columns decoded beyond each side of a requested region. Fancy upsampling (4:2:0, 4:2:2)
    /// treats the edges of libjpeg's crop window as image edges and replicates the chroma
    /// sample there, so the window's first and last columns may differ from a full decode;
    /// keeping the region one column inside the window makes region decodes exact.
    public static let cropMargin = 1

    /// Columns decoded beyond each side of a region: `cropMargin`, or for a progressive file two iMCUs more.
    /// libjpeg-turbo's block smoothing (of a progressive scan whose coefficients are not all sent, as djpeg does it)
    /// also takes the crop window's edges for the image's: a block's neighbours up to two blocks away are replaced
    /// by its own, so two blocks of each component from either edge differ from a full decode. A component's block
    /// is at most an iMCU wide, and an iMCU at most 32 stored pixels (4x horizontal sampling).
    public static func cropMargin(progressive: Bool, scaleNumerator: Int) -> Int {
        progressive ? 2 * ((32 * scaleNumerator + 7) / 8) + cropMargin : cropMargin
    }

    /// The size libjpeg gives a W x H image at scale M/8: ceil(W * M / 8) x ceil(H * M / 8).
    public static func scaledSize(of size: PixelSize, scaleNumerator: Int) -> PixelSize {
        PixelSize(width: (size.width * scaleNumerator + 7) / 8, height: (size.height * scaleNumerator + 7) / 8)
    }

    /// Decodes the whole JPEG at scale `scaleNumerator`/8 (1...16; 8 = full size) to RGBA8,
    /// turned upright unless `options.applyOrientation` is false. At full size the pixels are
    /// djpeg's (ISLOW IDCT, fancy upsampling).
    public static func decode(
        _ source: ImageSource, scaleNumerator: Int = 8, options: DecodeOptions = DecodeOptions(),
        accepting: (ImageHeader) throws(CodecError) -> Void = { _ in }
    ) throws(CodecError) -> DecodedImage {
        try source.withShimInput { (input) throws(CodecError) -> DecodedImage in
            let reader = try JPEGScanlineReader(input: input, owner: nil, options: options)
            try accepting(reader.header)
            let window = try reader.start(scaleNumerator: scaleNumerator)
            let band = try readBand(
                from: reader, rows: window.scaledSize.height, rowWidth: window.columns.count,
                columns: 0..<window.columns.count, lenient: options.lenient)
            let image = options.applyOrientation ? band.image.applying(reader.header.orientation) : band.image
            return DecodedImage(
                image: image, header: reader.header, warnings: reader.warnings + (band.failure.map { [$0] } ?? []))
        }
    }

    /// Decodes exactly `region` of the stored (un-oriented) image at scale `scaleNumerator`/8,
    /// `region` being in that scaled space and clipped to it. Decoding stops after the region's
    /// last row; the rows above it are skipped (entropy-decoded only, apart from at most one
    /// iMCU row) and only the iMCU columns around it are inverse-transformed. The pixels equal
    /// the same rect of a full decode at that scale.
    public static func decodeRegion(
        _ source: ImageSource, scaleNumerator: Int = 8, region: PixelRect, options: DecodeOptions = DecodeOptions()
    ) throws(CodecError) -> DecodedRegion {
        let reader = try LevelReader(
            source, format: .jpeg, scale: LevelScale(numerator: scaleNumerator), rect: region, options: options)
        let (image, failure) = try reader.readAll()
        return DecodedRegion(
            image: image, region: reader.rect, header: reader.header,
            warnings: reader.warnings + (failure.map { [$0] } ?? []))
    }
}
