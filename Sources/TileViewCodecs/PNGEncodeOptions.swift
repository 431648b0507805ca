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

/// How `PNGEncoder` writes a PNG: colour type, zlib level, row filter, interlacing.
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
    /// zlib level 0 (store) ... 9 (smallest); values outside are clamped.
    public var compressionLevel: Int
    public var filter: PNGFilter
    /// Adam7 interlacing.
    public var interlaced: Bool

    /// The default zlib level: 2. Measured on 1024x768 photo frames (docs/benchmarks.md), level 2
    /// with the Sub filter encodes 5.8 to 7.4 times faster than level 6 with adaptive filtering, for
    /// files 10-13% bigger; frames are written often and read once, so speed wins.
    public static let defaultCompressionLevel = 2
    /// The default filter: Sub, the smallest single filter on most photo frames measured (within 1%
    /// of adaptive filtering, which costs 15-28 ms more per 1024x768 frame).
    public static let defaultFilter = PNGFilter.sub

    public init(
        colorType: ColorType = .auto, compressionLevel: Int = PNGEncodeOptions.defaultCompressionLevel,
        filter: PNGFilter = PNGEncodeOptions.defaultFilter,
        interlaced: Bool = false
    ) {
        self.colorType = colorType
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.interlaced = interlaced
    }
}

extension PNGEncodeOptions {
    /// The zlib level libpng is given (`compressionLevel` clamped to 0 ... 9).
    var zlibLevel: Int32 { Int32(min(max(compressionLevel, 0), 9)) }
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
