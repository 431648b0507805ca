import CImageCodecs

/// The row filter a PNG encoder applies before compression (PNG specification, section 9).
public enum PNGFilter: String, Sendable, CaseIterable {
    case none
    case sub
    case up
    case average
    case paeth
    /// libpng tries all five on each row and keeps the one whose output looks smallest.
    case adaptive
}

/// How a PNG's filtered rows are deflated.
public enum PNGCompression: Sendable, Equatable {
    /// Runs of the byte before only (what zlib's `Z_RLE` strategy finds): every byte is coded alone or as a repeat
    /// of the byte before it, and no earlier string is searched for. The default. With one row filter and no
    /// interlacing, tileview's own deflate writes it (a Huffman code per 64 KiB block); otherwise libpng with
    /// zlib's `Z_RLE`. On 1024x768 photo frames after the Sub filter it takes about a third of level 2's
    /// instructions and made 57 of 58 frames measured 2 to 12 % smaller (a smooth crop 1.3 % bigger);
    /// docs/benchmarks.md, "Run-length deflate".
    case runs
    /// zlib's default strategy at this level, 0 (stored) ... 9 (smallest); values outside are clamped.
    case level(Int)
}

/// How `PNGEncoder` writes a PNG: colour type, compression, row filter, interlacing.
public struct PNGEncodeOptions: Sendable, Equatable {
    /// The colour type written; every choice is 8 bits per sample.
    public enum ColorType: String, Sendable, CaseIterable {
        /// RGB when every alpha is 255, RGBA otherwise.
        case auto
        /// Rec. 601 luma, rounded ((77 R + 150 G + 29 B + 128) >> 8): exact for gray input; alpha dropped.
        case gray
        /// Alpha dropped (not composited).
        case rgb
        case rgba
    }

    public var colorType: ColorType
    public var compression: PNGCompression
    public var filter: PNGFilter
    /// Adam7 interlacing.
    public var interlaced: Bool
    /// An ICC profile to write as an iCCP chunk (the profile of stored values a PNG keeps, docs/design.md section 14),
    /// and its name.
    public var iccProfile: [UInt8]?
    public var iccProfileName: String = "ICC profile"

    /// The default compression: `runs`. Frames are written often and read once, so speed wins; level 6 with
    /// adaptive filtering makes files about 10 % smaller for several times the time (docs/benchmarks.md).
    public static let defaultCompression = PNGCompression.runs
    /// The default filter: Sub, the smallest single filter on most photo frames measured (within 1%
    /// of adaptive filtering, which costs 15-28 ms more per 1024x768 frame).
    public static let defaultFilter = PNGFilter.sub

    public init(
        colorType: ColorType = .auto, compression: PNGCompression = PNGEncodeOptions.defaultCompression,
        filter: PNGFilter = PNGEncodeOptions.defaultFilter,
        interlaced: Bool = false
    ) {
        self.colorType = colorType
        self.compression = compression
        self.filter = filter
        self.interlaced = interlaced
    }
}

extension PNGCompression {
    /// The zlib level libpng is given (a `level` clamped to 0 ... 9; `runs` ignores it but for 0, and gives 1).
    var zlibLevel: Int32 {
        switch self {
        case .runs: 1
        case .level(let level): Int32(min(max(level, 0), 9))
        }
    }

    var shimDeflate: tv_png_deflate {
        switch self {
        case .runs: TV_PNG_DEFLATE_RLE
        case .level: TV_PNG_DEFLATE_DEFAULT
        }
    }
}

extension PNGEncodeOptions.ColorType {
    /// The PNG colour type written for an image that is `opaque` or not (`auto` picks by it).
    func pngColorType(opaque: Bool) -> Int32 {
        switch self {
        case .auto: opaque ? 2 : 6
        case .gray: 0
        case .rgb: 2
        case .rgba: 6
        }
    }
}

extension PNGFilter {
    var shimFilter: tv_png_filter {
        switch self {
        case .none: TV_PNG_FILTER_NONE
        case .sub: TV_PNG_FILTER_SUB
        case .up: TV_PNG_FILTER_UP
        case .average: TV_PNG_FILTER_AVERAGE
        case .paeth: TV_PNG_FILTER_PAETH
        case .adaptive: TV_PNG_FILTER_ADAPTIVE
        }
    }
}
