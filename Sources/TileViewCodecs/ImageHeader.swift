import CImageCodecs
import TileViewCore

/// What a file says about its image before any pixel is decoded: format, size, orientation, sample layout.
public struct ImageHeader: Sendable, Equatable {
    public var format: ImageFormat
    /// The pixel grid as stored in the file (before orientation).
    public var storedSize: PixelSize
    /// From the JPEG APP1 Exif segment or the PNG eXIf chunk; `.up` when there is none.
    public var orientation: ImageOrientation
    /// Bits per sample as stored (PNG 1, 2, 4, 8 or 16; JPEG 8).
    public var bitDepth: Int
    /// "gray", "gray+alpha", "rgb", "rgba", "palette" (PNG) or "gray", "rgb", "ycbcr", "cmyk", "ycck" (JPEG).
    public var colorType: String
    /// Samples per stored pixel (a palette PNG has 1).
    public var components: Int
    /// JPEG progressive mode.
    public var isProgressive: Bool
    /// PNG Adam7 interlacing.
    public var isInterlaced: Bool
    /// JPEG chroma subsampling such as "4:2:0", where the sampling factors name one.
    public var chromaSubsampling: String?
    /// The source's colour description (docs/design.md section 14).
    public var color: ColorDescription
    /// Pages (TIFF), frames (GIF, animated WebP) or top-level images (HEIF); only the first is shown. TIFF pages and
    /// GIF frames are counted up to `framesCounted`: a file with more says that many (an animated WebP with more is
    /// refused).
    public var frames: Int
    /// The most pages or frames a header counts: a hostile file of millions of empty pages costs no more to open.
    public static let framesCounted = Int(TV_MAX_FRAMES)
    /// How the pixels are compressed, where the format has a choice ("VP8L", "HEVC", "LZW", ...); nil for PNG and
    /// JPEG.
    public var compression: String?
    /// WebP, HEIF, TIFF, GIF: the memory the decoder holds beyond the rows it delivers (the whole image where the
    /// format is decoded whole, a strip or a row of tiles for TIFF and HEIF grids), as the decoder reports it; 0 for
    /// PNG and JPEG, whose `decodeWorkingBytes` is computed from the header.
    public var decoderWorkingBytes: Int
    /// What each further unit decoded at once holds (a HEIF grid's tile decode, `ImageRowReader.parts`) beyond
    /// `decoderWorkingBytes`, which counts one; 0 where rows come from no such units.
    public var decoderPartBytes = 0
    /// The decoder delivers rows only after decoding the whole image (WebP, HEIF, AVIF, GIF, TIFF outside the
    /// common layouts): a tiled image keeps that decode (`WholeImage`) instead of decoding again per region.
    public var decodesWhole: Bool
    /// Reduced copies of the image the decoder delivers besides it, largest first: a TIFF pyramid's later pages or
    /// SubIFDs, or a WebP's scaled decodes (each level's size); a level of detail whose size one of them has exactly
    /// is read from it (`LevelScale.pyramidLevel(_:header:)`).
    public var storedLevels: [PixelSize]
    /// A TIFF stored in tiles, or a HEIF grid read by tiles (a region needs only the tiles under it).
    public var isTiled: Bool
    /// A TIFF's: where the file keeps its first page and each of `storedLevels` (the file offsets of their IFDs), so
    /// that a stored tile is read without reading the other directories (`ImageRowReader.storedJPEGTile`); empty for
    /// other formats.
    public var storedDirectories: [UInt64] = []
    /// How the photo was taken, from its EXIF (nil without EXIF, or with none of the fields).
    public var exif: ExifFields? = nil

    public init(
        format: ImageFormat, storedSize: PixelSize, orientation: ImageOrientation = .up, bitDepth: Int,
        colorType: String, components: Int, isProgressive: Bool = false, isInterlaced: Bool = false,
        chromaSubsampling: String? = nil, color: ColorDescription = .assumedSRGB, frames: Int = 1,
        compression: String? = nil, decoderWorkingBytes: Int = 0, decodesWhole: Bool = false,
        storedLevels: [PixelSize] = [], isTiled: Bool = false
    ) {
        self.isTiled = isTiled
        self.decodesWhole = decodesWhole
        self.storedLevels = storedLevels
        self.color = color
        self.frames = frames
        self.compression = compression
        self.decoderWorkingBytes = decoderWorkingBytes
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.components = components
        self.isProgressive = isProgressive
        self.isInterlaced = isInterlaced
        self.chromaSubsampling = chromaSubsampling
    }

    /// The size of the upright image.
    public var orientedSize: PixelSize { orientation.orientedSize(forStoredSize: storedSize) }

    /// Reads the header of a PNG (signature, chunks up to the image data), a JPEG (markers up to the first scan)
    /// or any other format (`ImageRowReader`), whichever the bytes are. No pixel is decoded. `strict` refuses what
    /// a strict decode would refuse on the way (a JPEG header libjpeg warns about); by default the header of a
    /// damaged file is read, to describe it.
    public static func read(from source: ImageSource, strict: Bool = false) throws(CodecError) -> ImageHeader {
        let format = try ImageFormat.detect(in: source)
        let options = DecodeOptions(lenient: !strict, maxPixels: Int.max)
        return try source.withShimInput { (input) throws(CodecError) -> ImageHeader in
            switch format {
            case .png: return try PNGRowReader(input: input, owner: nil, options: options).header
            case .jpeg: return try JPEGScanlineReader(input: input, owner: nil, options: options).header
            default: return try ImageRowReader(input: input, format: format, owner: nil, options: options).header
            }
        }
    }
}

extension ImageFormat {
    /// The format of a source, from its first bytes.
    public static func detect(in source: ImageSource) throws(CodecError) -> ImageFormat {
        let prefix = try source.prefix()
        guard !prefix.isEmpty else { throw CodecError(.empty, "the file is empty") }
        guard let format = sniff(prefix) else { throw CodecError(.unknownFormat, describeUnknown(prefix)) }
        return format
    }
}

// MARK: - Building headers from the shim's

extension ImageHeader {
    init(png: tv_png_header, exif: [UInt8]?, color: ColorDescription) {
        let colorType: String
        let components: Int
        switch png.color_type {
        case 0: (colorType, components) = ("gray", 1)
        case 2: (colorType, components) = ("rgb", 3)
        case 3: (colorType, components) = ("palette", 1)
        case 4: (colorType, components) = ("gray+alpha", 2)
        default: (colorType, components) = ("rgba", 4)
        }
        self.init(
            format: .png, storedSize: PixelSize(width: Int(png.width), height: Int(png.height)),
            orientation: exif.flatMap { ExifOrientationParser.orientation(inTIFF: $0) } ?? .up,
            bitDepth: Int(png.bit_depth), colorType: colorType, components: components,
            isInterlaced: png.interlaced != 0, color: color)
        self.exif = exif.flatMap(ExifFields.read(inTIFF:))
    }

    init(jpeg: tv_jpeg_header, exif: [UInt8]?, color: ColorDescription) {
        let colorType: String
        switch jpeg.color {
        case TV_JPEG_COLOR_GRAY: colorType = "gray"
        case TV_JPEG_COLOR_RGB: colorType = "rgb"
        case TV_JPEG_COLOR_YCBCR: colorType = "ycbcr"
        case TV_JPEG_COLOR_CMYK: colorType = "cmyk"
        case TV_JPEG_COLOR_YCCK: colorType = "ycck"
        default: colorType = "unknown"
        }
        let h = [jpeg.h_sampling.0, jpeg.h_sampling.1, jpeg.h_sampling.2].map(Int.init)
        let v = [jpeg.v_sampling.0, jpeg.v_sampling.1, jpeg.v_sampling.2].map(Int.init)
        let subsampling: String?
        if jpeg.components >= 3 && colorType != "cmyk" {
            subsampling = Self.chromaSubsampling(luma: (h[0], v[0]), chroma: (h[1], v[1]), other: (h[2], v[2]))
        } else {
            subsampling = nil
        }
        self.init(
            format: .jpeg, storedSize: PixelSize(width: Int(jpeg.width), height: Int(jpeg.height)),
            orientation: exif.flatMap { ExifOrientationParser.orientation(inTIFF: $0) } ?? .up,
            bitDepth: Int(jpeg.precision), colorType: colorType, components: Int(jpeg.components),
            isProgressive: jpeg.progressive != 0, chromaSubsampling: subsampling, color: color)
        self.exif = exif.flatMap(ExifFields.read(inTIFF:))
    }

    /// The J:a:b name of the sampling factors when both chroma components share theirs.
    static func chromaSubsampling(luma: (Int, Int), chroma: (Int, Int), other: (Int, Int)) -> String? {
        guard chroma == other, chroma.0 > 0, chroma.1 > 0, luma.0 % chroma.0 == 0, luma.1 % chroma.1 == 0 else {
            return nil
        }
        switch (luma.0 / chroma.0, luma.1 / chroma.1) {
        case (1, 1): return "4:4:4"
        case (2, 1): return "4:2:2"
        case (2, 2): return "4:2:0"
        case (1, 2): return "4:4:0"
        case (4, 1): return "4:1:1"
        case (4, 2): return "4:1:0"
        default: return nil
        }
    }
}
