import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewSystem
import TileViewTiling

/// How a region of an image will be rendered at a size, and what that holds in memory at its peak, worked out from
/// the header and the request before any pixel memory is allocated (docs/design.md section 18, admission).
///
/// The level and the geometry are those `render(region:size:)` uses. The level pixels come one of three ways:
/// - through the tiles (a small source rect: a viewer's tile), from the cache or from one band decoded;
/// - straight from the decoder (a large source rect of an upright image): one band of decoder rows at a time,
///   whatever the region's size, and nothing kept;
/// - decoded as one block and turned (a large source rect of a turned image: its stored rows must all be there to
///   turn them), as the tiles are.
/// No part is a product of the output's size and the source's.
public struct RegionPlan: Sendable {
    public let region: PixelRect
    public let size: PixelSize
    public let level: Int
    public let geometry: FrameGeometry
    /// The renderer's own allocations.
    public let frame: FramePlan
    /// Whether the level pixels come straight from the decoder.
    public let streamed: Bool
    /// The named parts of the peak; `bytes` is their sum.
    public private(set) var memory: MemoryEstimate
    /// The decoder's working memory among them (`ImageHeader.decodeWorkingBytes`; 0 when nothing is decoded): the
    /// part that no smaller region or size reduces.
    public let decoderWorkingBytes: Int

    public var bytes: Int { memory.bytes }

    /// Adds a part (an answer's own buffers: turning, encoding).
    public mutating func add(_ what: String, bytes: Int) { memory.add(what, bytes: bytes) }

    /// Source rects at most this large (in level bytes, RGBA8) are read through the tile cache; larger ones are
    /// streamed from the decoder (upright images).
    public static let tileSourceBytes = 4 << 20
}

extension TiledImage {
    /// The level and the geometry that render `region` (image pixels) scaled to exactly `size`, stretched when the
    /// aspect ratios differ: the level a zoom at the larger of the two scales would draw, or a coarser one that still
    /// has the answer's pixels on both axes (a region that is exactly a tile of a level is that level's pixels,
    /// copied: `LevelPyramid.coarsestLevel`).
    package func regionGeometry(region: PixelRect, size: PixelSize) -> (FrameGeometry, level: Int) {
        let scaleX = Double(size.width) / Double(max(region.width, 1))
        let scaleY = Double(size.height) / Double(max(region.height, 1))
        let level = pyramid.coarsestLevel(
            from: pyramid.level(forZoomScale: max(scaleX, scaleY)), coveringScaleX: scaleX, scaleY: scaleY)
        return pyramid.frameGeometry(
            frameSize: size, zoomScale: scaleX, zoomScaleY: scaleY,
            imageFrameOrigin: Point(x: -Double(region.x) * scaleX, y: -Double(region.y) * scaleY), level: level)
    }

    /// The plan of `render(_:)` for `region` at `size` (see `RegionPlan`); reads nothing but what the cache holds.
    public func plan(region: PixelRect, size: PixelSize, filter: ResampleFilter = .automatic) -> RegionPlan {
        let (geometry, level) = regionGeometry(region: region, size: size)
        let frame = FrameRenderer.plan(geometry, filter: filter)
        var memory = MemoryEstimate()
        memory.add("frame", bytes: frame.frameBytes)
        memory.add("filter taps", bytes: frame.tapBytes)
        memory.add("filter rows", bytes: frame.passBytes)
        var streamed = false
        var decoderWorking = 0
        if let source = frame.sourceRect {
            let grid = pyramid.grid(ofLevel: level)
            let sourceBytes = FramePlan.product(source.pixelCount, 4)
            let scale = LevelScale.pyramidLevel(level, header: header)
            let decoderWidth = scale.decoderSize(ofStored: header.storedSize).width
            // The decoder's own rows (libpng's at 16 bits, libjpeg's per component) and a band of `boxFactor` of them.
            let decoderRows = FramePlan.product(max(decoderWidth, 1), 8, scale.boxFactor + 4)
            // A tiled TIFF reads only the tiles under the region: a region of it is always read straight from the
            // file (a band of the shared cache would decode a whole row of tiles).
            let readsTiles = header.isTiled
            // What a decode from the file holds beside its output: its rows, its library's working memory, and a
            // JPEG's 1/8 scale decoded in parts or a PNG's rows inflated ahead.
            func addDecoder() {
                memory.add("decoder rows", bytes: decoderRows)
                memory.add("decoder working memory", bytes: header.decodeWorkingBytes)
                decoderWorking = header.decodeWorkingBytes
                if case let parts = partsBytes(level: level), parts > 0 {
                    memory.add(partsName, bytes: parts)
                }
            }
            // A coarse level the disk cache may hold is read through the tiles, which the disk fills.
            let fromDisk = sharedTiles.map { coarseLevels.contains(level) && $0.cache.mayHaveOnDisk($0.image) } ?? false
            if orientation == .up && !fromDisk
                && (sourceBytes > RegionPlan.tileSourceBytes || sharedTiles == nil || readsTiles)
            {
                streamed = true
                addDecoder()
            } else {
                let ids = grid.tiles(intersecting: source)
                let tiles = FramePlan.sum(ids.map { grid.pixelRect(of: $0).pixelCount * 4 })
                // The tiles, and the region assembled from them.
                memory.add("tiles", bytes: FramePlan.sum([tiles, sourceBytes]))
                let cached = sharedTiles.map { $0.cache.cached(image: $0.image, ids).count == ids.count } ?? false
                if !cached {
                    let band = FramePlan.product(grid.levelSize.width, grid.tileSize, 4)
                    if orientation != .up {
                        // The bands' stored block (and, without the shared cache, the same turned upright).
                        let rows = Set(ids.map(\.row)).count
                        memory.add("turned block", bytes: FramePlan.product(band, rows, turnedBlockCopies))
                    } else {
                        // One band in the making, or (a JPEG past 1/8) the 1/8 level whole and what is made from it,
                        // or (a PNG's coarse level) every coarse level and a row of block totals each (`BoxLevels`).
                        var coarse = 0
                        if header.format == .jpeg && level > Self.coarseBase {
                            coarse = FramePlan.product(pyramid.levelSize(ofLevel: Self.coarseBase).pixelCount, 4, 3)
                        } else if header.format == .png && coarseLevels.contains(level) {
                            let levels = FramePlan.sum(
                                coarseLevels.map { pyramid.levelSize(ofLevel: $0).pixelCount * 4 })
                            let totals = BoxLevels.workingBytes(
                                width: header.storedSize.width, factors: coarseLevels.map { 1 << $0 })
                            coarse = FramePlan.sum([levels, totals])
                        }
                        memory.add("band decode", bytes: max(band, coarse))
                    }
                    addDecoder()
                }
            }
        }
        return RegionPlan(
            region: region, size: size, level: level, geometry: geometry, frame: frame, streamed: streamed,
            memory: memory, decoderWorkingBytes: decoderWorking)
    }

    /// Renders what `plan` (made by this image's `plan(region:size:)`) describes, the way `render(region:size:)`
    /// does: the same level, geometry and filters, so the same bytes.
    public func render(
        _ plan: RegionPlan, background: RGBA8 = .black, filter: ResampleFilter = .automatic
    ) throws(TileViewError) -> RenderedFrame {
        try render(plan.geometry, level: plan.level, background: background, filter: filter, streaming: plan.streamed)
    }
}
