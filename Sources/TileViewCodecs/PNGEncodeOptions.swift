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

    public init(
        colorType: ColorType = .auto, compressionLevel: Int = 6, filter: PNGFilter = .adaptive,
        interlaced: Bool = false
    ) {
        self.colorType = colorType
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.interlaced = interlaced
    }
}
