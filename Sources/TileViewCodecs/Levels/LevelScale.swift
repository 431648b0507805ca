import TileViewCore

/// How a level of detail is made from an image file: libjpeg's DCT scaling by `numerator`/8 (JPEG only; 8 for
/// every other format), then a box reduction by the whole `boxFactor` (`BoxReducer`).
///
/// Pyramid level L (docs/design.md section 6) of a JPEG is 8/8, 4/8, 2/8 or 1/8 straight from the decoder for L <= 3
/// and box-reduced from the 1/8 decode beyond; every level of the other formats is box-reduced from full size. A feed
/// thumbnail picks any M/8 (JPEG) or any whole factor (the others) instead.
public struct LevelScale: Hashable, Sendable, CustomStringConvertible {
    /// libjpeg's scale numerator, 1...16 (eighths; 8 is full size); 8 for PNG.
    public var numerator: Int
    /// The whole box factor applied to the decoder's output, at least 1.
    public var boxFactor: Int
    /// The stored level the decoder reads: 0, the image; k, the file's reduced copy of level k (a TIFF pyramid's,
    /// `ImageHeader.storedLevels[k - 1]`, exactly ceil(W / 2^k) x ceil(H / 2^k)).
    public var storedLevel: Int

    public init(numerator: Int = 8, boxFactor: Int = 1, storedLevel: Int = 0) {
        precondition((1...16).contains(numerator), "the scale numerator must be 1...16 (eighths)")
        precondition(boxFactor >= 1, "the box factor must be at least 1")
        precondition(storedLevel >= 0 && (storedLevel == 0 || numerator == 8), "a stored level is read at 8/8")
        self.numerator = numerator
        self.boxFactor = boxFactor
        self.storedLevel = storedLevel
    }

    /// Level `level` of the pyramid of the image `header` describes: from the deepest reduced copy the file
    /// stores that is exactly a level at or above it (box-reduced the rest of the way), else as
    /// `pyramidLevel(_:format:)` makes it. A copy one pixel off the level's size (a writer that rounds down) is not
    /// used: the level is then made from the copy above it.
    public static func pyramidLevel(_ level: Int, header: ImageHeader) -> LevelScale {
        precondition(level >= 0, "levels count from 0")
        let stored = header.storedLevels
        if !stored.isEmpty, level > 0 {
            for k in stride(from: min(level, stored.count), through: 1, by: -1)
            where stored[k - 1] == BoxReducer.reducedSize(of: header.storedSize, factor: 1 << k) {
                return LevelScale(numerator: 8, boxFactor: 1 << (level - k), storedLevel: k)
            }
        }
        return pyramidLevel(level, format: header.format)
    }

    /// Level `level` of the pyramid of an image in `format`.
    public static func pyramidLevel(_ level: Int, format: ImageFormat) -> LevelScale {
        precondition(level >= 0, "levels count from 0")
        switch format {
        case .jpeg:
            let direct = min(level, 3)
            return LevelScale(numerator: 8 >> direct, boxFactor: 1 << (level - direct))
        default:
            return LevelScale(numerator: 8, boxFactor: 1 << level)
        }
    }

    /// The size of the decoder's output for a stored image of `storedSize`: ceil(W * M / 8) x ceil(H * M / 8).
    public func decoderSize(ofStored storedSize: PixelSize) -> PixelSize {
        guard storedLevel == 0 else { return BoxReducer.reducedSize(of: storedSize, factor: 1 << storedLevel) }
        return JPEGDecoder.scaledSize(of: storedSize, scaleNumerator: numerator)
    }

    /// The size of the level for a stored image of `storedSize`.
    public func levelSize(ofStored storedSize: PixelSize) -> PixelSize {
        BoxReducer.reducedSize(of: decoderSize(ofStored: storedSize), factor: boxFactor)
    }

    public var description: String {
        storedLevel == 0 ? "\(numerator)/8 then 1/\(boxFactor)" : "stored level \(storedLevel) then 1/\(boxFactor)"
    }
}
