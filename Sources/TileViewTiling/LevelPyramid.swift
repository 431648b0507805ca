import TileViewCore

/// The levels of detail of one oriented image: level 0 is full size and each level halves the one
/// before (rounding up) until a level fits in a single tile.
///
/// Level L is ceil(W / 2^L) x ceil(H / 2^L) pixels, which is exactly the size libjpeg produces when
/// it scales by 1/2, 1/4 or 1/8 in the DCT, so such levels can come straight from the decoder.
/// Because of the rounding, the true scale of a level is levelW / W across and levelH / H down,
/// not exactly 2^-L: `scale(ofLevel:)` gives it, and every mapping here uses it.
public struct LevelPyramid: Hashable, Sendable, CustomStringConvertible {
    /// The oriented image size (level 0), negative sizes taken as empty.
    public let imageSize: PixelSize
    /// The tile edge shared by every level (at least 1).
    public let tileSize: Int
    /// The coarsest level k: the first whose size fits in one tile (0 for an image within one tile).
    public let maxLevel: Int

    public init(imageSize: PixelSize, tileSize: Int = TileGrid.defaultTileSize) {
        let size = PixelSize(width: max(0, imageSize.width), height: max(0, imageSize.height))
        let edge = max(1, tileSize)
        self.imageSize = size
        self.tileSize = edge
        var level = 0
        while level < Int.bitWidth - 2,
            Self.halved(size.width, times: level) > edge || Self.halved(size.height, times: level) > edge
        {
            level += 1
        }
        self.maxLevel = level
    }

    /// maxLevel + 1.
    public var levelCount: Int { maxLevel + 1 }
    /// 0...maxLevel.
    public var levels: ClosedRange<Int> { 0...maxLevel }

    /// ceil(W / 2^L) x ceil(H / 2^L); the level is clamped to 0...maxLevel.
    public func levelSize(ofLevel level: Int) -> PixelSize {
        let l = clampedLevel(level)
        return PixelSize(width: Self.halved(imageSize.width, times: l), height: Self.halved(imageSize.height, times: l))
    }

    /// The tile grid of a level (clamped to 0...maxLevel).
    public func grid(ofLevel level: Int) -> TileGrid {
        let l = clampedLevel(level)
        return TileGrid(level: l, levelSize: levelSize(ofLevel: l), tileSize: tileSize)
    }

    /// Tiles over all levels.
    public var tileCount: Int { levels.reduce(0) { $0 + grid(ofLevel: $1).tileCount } }

    /// The level to draw at zoom scale `zoomScale` (viewport pixels per image pixel): the largest L
    /// with 2^L <= 1 / zoomScale, so the level never has fewer pixels than the viewport shows;
    /// 0 when zoomScale >= 1, capped at maxLevel. A scale that is not a positive number gives maxLevel
    /// for zero and negative values and 0 for NaN.
    public func level(forZoomScale zoomScale: Double) -> Int {
        guard !zoomScale.isNaN else { return 0 }
        guard zoomScale > 0 else { return maxLevel }
        // 2^(L+1) * s <= 1 is computed exactly: multiplying by a power of two only moves the exponent.
        var level = 0
        var factor = 2.0
        while level < maxLevel && factor * zoomScale <= 1 {
            level += 1
            factor *= 2
        }
        return level
    }

    /// The coarsest level from `level` on that still has at least `scaleX` and `scaleY` level pixels per image pixel
    /// on each axis (`scale(ofLevel:)`, whose sizes round up). A region that is exactly a tile of a level whose size
    /// the image's does not divide asks for a little more than 1 / 2^L (188 = ceil(6000 / 32) pixels for 6000): that
    /// level has those pixels, where `level(forZoomScale:)` alone would draw them from the next finer one.
    public func coarsestLevel(from level: Int, coveringScaleX scaleX: Double, scaleY: Double) -> Int {
        var chosen = clampedLevel(level)
        while chosen < maxLevel {
            let coarser = scale(ofLevel: chosen + 1)
            guard coarser.x >= scaleX, coarser.y >= scaleY else { break }
            chosen += 1
        }
        return chosen
    }

    /// Level pixels per image pixel on each axis: levelW / W and levelH / H (1 for an empty axis).
    public func scale(ofLevel level: Int) -> (x: Double, y: Double) {
        let size = levelSize(ofLevel: level)
        let x = imageSize.width > 0 ? Double(size.width) / Double(imageSize.width) : 1
        let y = imageSize.height > 0 ? Double(size.height) / Double(imageSize.height) : 1
        return (x, y)
    }

    /// The level pixels that cover an image-space rect at a level: the rect scaled by the level's
    /// scale, rounded outward and clipped to the level (empty when it misses the level).
    public func levelPixelRect(coveringImageRect imageRect: Rect, level: Int) -> PixelRect {
        let scale = scale(ofLevel: level)
        let size = levelSize(ofLevel: level)
        let x = Self.coveringRange(imageRect.minX * scale.x, imageRect.maxX * scale.x, size.width)
        let y = Self.coveringRange(imageRect.minY * scale.y, imageRect.maxY * scale.y, size.height)
        guard let x, let y else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: x.lowerBound, y: y.lowerBound, width: x.count, height: y.count)
    }

    /// The image-space rect that a rect of level pixels shows.
    public func imageRect(ofLevelPixelRect levelRect: PixelRect, level: Int) -> Rect {
        let scale = scale(ofLevel: level)
        return Rect(
            x: Double(levelRect.x) / scale.x, y: Double(levelRect.y) / scale.y,
            width: Double(levelRect.width) / scale.x, height: Double(levelRect.height) / scale.y)
    }

    public var description: String { "\(imageSize) in \(levelCount) levels of \(tileSize)-pixel tiles" }

    /// The pixels i in 0..<length with [i, i + 1) meeting (lo, hi), or nil when there are none.
    private static func coveringRange(_ lo: Double, _ hi: Double, _ length: Int) -> Range<Int>? {
        let end = Double(length)
        guard lo.isFinite, hi.isFinite, hi > lo, hi > 0, lo < end else { return nil }
        let first = Int(max(lo, 0).rounded(.down))
        let last = Int(min(hi, end).rounded(.up))
        return first < last ? first..<last : nil
    }

    private func clampedLevel(_ level: Int) -> Int { min(max(level, 0), maxLevel) }

    /// ceil(n / 2^times) without overflow.
    private static func halved(_ n: Int, times: Int) -> Int {
        guard times > 0 else { return n }
        let shifted = n >> times
        return n & ((1 << times) - 1) == 0 ? shifted : shifted + 1
    }
}
