import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewSystem
import TileViewTiling

/// An image file seen as tiles at levels of detail, decoded on demand into a byte-budgeted cache.
///
/// Model (docs/design.md section 6): the oriented image has levels 0 (full size) to k, level L being
/// ceil(W / 2^L) x ceil(H / 2^L), cut into square tiles. Opening reads only the header. Asking
/// for a rect of a level decodes the missing tiles that meet it in one decoding pass over the
/// file, then serves every tile from the cache:
/// - JPEG levels 0 to 3 come straight from libjpeg's DCT scaling (8/8, 4/8, 2/8, 1/8), cropped
///   to the columns and rows the tiles need (rows above are skipped, decoding stops after the
///   last needed row); deeper levels are box-reduced from the 1/8 decode.
/// - PNG rows are streamed: rows above the band are decoded and dropped, level L > 0 is
///   box-reduced 2^L rows at a time, so only one band of source rows is held. An Adam7 PNG must
///   be decoded whole first (width * height * 4 bytes while the pass runs).
/// - TIFF rows come from the strips or tiles that hold them; WebP, HEIF, AVIF and GIF (and unusual TIFF layouts)
///   decode only whole: that decode is kept (`WholeImage`, counted by `ImageHeader.decodeWorkingBytes`) and every
///   level is read from it as from a file.
/// - Rotated images (EXIF 5 to 8) and mirrored ones decode the stored rect the tiles show and
///   turn it upright.
/// The file is read as it is decoded (never held whole in memory, the decoded whole images above aside). Not
/// thread-safe: one image is used from one task at a time.
public final class TiledImage {
    /// The name errors and warnings give the file: its path, or (`init(source:name:)`) the caller's name for it.
    public let path: String
    /// Where the pixels are read from: the file at `path`, or a descriptor opened and checked once (a server's).
    public let source: ImageSource
    public let header: ImageHeader
    /// Levels and tiles of the oriented image (or the stored one with `applyOrientation` off).
    public let pyramid: LevelPyramid
    public let options: DecodeOptions
    private var cache: TileCache<TileID, ImageBuffer>
    /// Decoding passes over the file and the warnings they gave (lenient mode).
    public private(set) var decodePasses = 0
    /// Bytes of level pixels decoded straight into frames, without tiles.
    public private(set) var streamedBytes = 0
    public private(set) var warnings: [String] = []
    /// The cache shared with other images and threads, when the image is opened over one (the server's);
    /// then the image's own cache is not used.
    public let sharedTiles: SharedTiles?
    /// The image decoded whole, by stored level, where its format decodes only whole (`levelReader`); held while
    /// this image lives.
    private var wholeImages: [Int: WholeImage] = [:]
    /// Whether a decode that reads all of a level's rows may run beside other threads (`decodeParts`); nil: when the
    /// image is over a shared cache (the server's answers, whose memory plans count the parts) or is a HEIF grid.
    /// `tileview index`,
    /// which reads nothing else and has the processors to itself, says true; a server's views, whose frames reserve
    /// a plan made from the viewport alone, say false.
    package var decodesInParts: Bool?
    /// Whether a JPEG's 1/8 pass in parts also keeps its entropy index (`keptEntropyIndex`): the indexers, which keep
    /// both, then make them in one pass.
    package var keepsEntropyIndex = false
    /// The entropy index (`JPEGEntropyIndex.saved()`'s bytes) the last 1/8 pass in parts made, with
    /// `keepsEntropyIndex`; nil when none did (another format or layout, a file left to libjpeg).
    package private(set) var keptEntropyIndex: [UInt8]?

    /// A shared tile cache and the name of this version of the file in it.
    public struct SharedTiles: Sendable {
        public let cache: SharedTileCache
        /// Names the file's contents: two images with the same name must have the same pixels (the path with
        /// the file's size and modification time, for instance).
        public let image: String

        public init(cache: SharedTileCache, image: String) {
            self.cache = cache
            self.image = image
        }
    }

    /// The default tile cache budget: enough for a few viewports of tiles.
    public static let defaultCacheBudgetBytes = 64 << 20

    /// Opens `path`, reading only its header (or taking `header` when it was read already); refuses images over
    /// the pixel limit. `clockwiseQuarterTurns` turns the image after its orientation (a viewer's rotation): the
    /// levels and tiles are then those of the turned image.
    public convenience init(
        path: String, header knownHeader: ImageHeader? = nil, tileSize: Int = TileGrid.defaultTileSize,
        cacheBudgetBytes: Int = TiledImage.defaultCacheBudgetBytes, sharedTiles: SharedTiles? = nil,
        options: DecodeOptions = DecodeOptions(), clockwiseQuarterTurns: Int = 0
    ) throws(TileViewError) {
        try self.init(
            source: .file(path: path), name: path, header: knownHeader, tileSize: tileSize,
            cacheBudgetBytes: cacheBudgetBytes, sharedTiles: sharedTiles, options: options,
            clockwiseQuarterTurns: clockwiseQuarterTurns)
    }

    /// Opens the image `source` holds (a file already open, for instance), as `init(path:)` does; `name` is what
    /// errors and warnings call it (`path`), so they never show a descriptor.
    public init(
        source: ImageSource, name: String, header knownHeader: ImageHeader? = nil,
        tileSize: Int = TileGrid.defaultTileSize, cacheBudgetBytes: Int = TiledImage.defaultCacheBudgetBytes,
        sharedTiles: SharedTiles? = nil, options: DecodeOptions = DecodeOptions(), clockwiseQuarterTurns: Int = 0
    ) throws(TileViewError) {
        let path = name
        let header: ImageHeader
        if let knownHeader {
            header = knownHeader
        } else {
            do throws(CodecError) {
                header = try ImageHeader.read(from: source, strict: !options.lenient)
            } catch {
                throw TileViewError(error, path: name)
            }
        }
        guard header.storedSize.pixelCount <= options.maxPixels else {
            throw TileViewError(
                .decode, path: path,
                reason:
                    "image of \(header.storedSize) has \(header.storedSize.pixelCount) pixels, over the limit of \(options.maxPixels)"
            )
        }
        let working = header.decodeWorkingBytes
        guard working <= options.maxMemoryBytes else {
            throw TileViewError(.decode, path: path, reason: Self.memoryRefusal(header, working, options))
        }
        self.path = path
        self.source = source
        self.header = header
        self.options = options
        self.sharedTiles = sharedTiles
        self.orientation = (options.applyOrientation ? header.orientation : .up)
            .rotated(clockwiseQuarterTurns: clockwiseQuarterTurns)
        self.turns = normalizedQuarterTurns(clockwiseQuarterTurns)
        pyramid = LevelPyramid(
            imageSize: orientation.orientedSize(forStoredSize: header.storedSize), tileSize: tileSize)
        // A tile never costs more than tileSize^2 * 4 bytes: that cap stays valid whatever the budget
        // becomes later (`setCacheBudget`).
        cache = TileCache(
            budgetBytes: sharedTiles == nil ? cacheBudgetBytes : 0,
            entryCapBytes: max(1, tileSize) * max(1, tileSize) * 4)
    }

    /// Why an image whose decoding needs `working` bytes at once is refused under `options`' memory limit.
    package static func memoryRefusal(_ header: ImageHeader, _ working: Int, _ options: DecodeOptions) -> String {
        var text =
            "decoding it needs \(MemoryEstimate.mebibytes(working)) at once (\(header.decodeWorkingReason)), over the "
        if options.memoryLimitBytes == .max || options.memoryLimitBytes == options.maxMemoryBytes {
            text += "memory limit of \(MemoryEstimate.mebibytes(options.maxMemoryBytes))"
        } else {
            text += "\(MemoryEstimate.mebibytes(options.maxMemoryBytes)) its frames leave of the memory limit of "
            text += MemoryEstimate.mebibytes(options.memoryLimitBytes)
        }
        return text + " (--max-memory MiB raises it)"
    }

    /// Changes the tile cache's budget. Lowering it evicts least recently used tiles at once; 0 frees
    /// them all and renders frames straight from the decoder again (see `pixelSource`).
    public func setCacheBudget(bytes: Int) { cache.setBudget(bytes: bytes) }

    /// The tile cache's budget now (0: frames are rendered straight from the decoder when the image is upright).
    public var cacheBudgetBytes: Int { cache.budgetBytes }

    /// The orientation applied to the stored pixels (`.up` with `applyOrientation` off), with the viewer's turns.
    public let orientation: ImageOrientation
    /// The viewer's clockwise quarter turns composed into `orientation` (0 to 3).
    public let turns: Int

    /// The image size in image space (after orientation).
    public var imageSize: PixelSize { pyramid.imageSize }

    /// Bytes of decoded pixels held now: tiles, and the image decoded whole where its format needs that.
    public var residentBytes: Int { cache.currentBytes + wholeImages.values.reduce(0) { $0 + $1.byteCount } }

    /// Cache and decode counters.
    public var statistics: TileCacheStatistics { cache.statistics }

    /// Where the image's level pixels come from: fixed by how it was opened (`sharedTiles`) and, for an image with
    /// a cache of its own, by that cache's budget now (`setCacheBudget`) and its orientation.
    public enum PixelSource: Sendable, Equatable {
        /// Straight from the decoder's rows into each frame, one band of rows in memory, nothing kept: an image
        /// of its own whose cache has no budget and whose stored pixels are upright (a gallery page that keeps no
        /// tiles, a feed's image out of view).
        case decoder
        /// Tiles of the image's own cache (`cacheBudgetBytes`). With a budget of 0 (a turned or mirrored image,
        /// which needs its whole block to turn it) each region is decoded as a block of tiles and let go.
        case ownTiles
        /// Tiles of a cache shared with other images and threads (`sharedTiles`, a server's); the image's own
        /// cache stays empty.
        case sharedTiles
    }

    /// Where this image's level pixels come from now.
    public var pixelSource: PixelSource {
        if sharedTiles != nil { return .sharedTiles }
        return cache.budgetBytes == 0 && orientation == .up ? .decoder : .ownTiles
    }

    /// Counts a decoding pass made outside the cache that delivered `bytes` of level pixels.
    package func noteStreamedPass(bytes: Int, warnings: [String]) {
        decodePasses += 1
        streamedBytes += bytes
        self.warnings += warnings
    }

    /// Bytes of level pixels decoded so far: into tiles, or streamed straight into frames.
    public var bytesDecoded: Int { cache.statistics.bytesDecoded + streamedBytes }

    /// Frees every decoded byte (the header stays).
    public func releaseAll() {
        cache.removeAll()
        wholeImages = [:]
    }

    /// Level pixels covering `rect` (clipped to the level) at `level`, and the level pixel at the
    /// buffer's top left; nil when the rect misses the level. The buffer holds at least the rect:
    /// when no tile was cached it is the whole block of tiles decoded for it, as decoded.
    public func region(_ rect: PixelRect, level: Int) throws(TileViewError) -> (
        buffer: ImageBuffer, origin: (x: Int, y: Int)
    )? {
        var storage: [UInt8]? = nil
        return try region(rect, level: level, storage: &storage)
    }

    /// `region`, with a buffer gathered from tiles made in `storage`'s memory where its capacity holds it
    /// (`TileMosaic.assemble(levelRect:grid:storage:tile:)`: `storage` is set to nil when it was taken).
    package func region(_ rect: PixelRect, level: Int, storage: inout [UInt8]?) throws(TileViewError) -> (
        buffer: ImageBuffer, origin: (x: Int, y: Int)
    )? {
        let grid = pyramid.grid(ofLevel: level)
        guard let clipped = rect.intersection(PixelRect(size: grid.levelSize)) else { return nil }
        if let sharedTiles { return try sharedRegion(clipped, grid: grid, shared: sharedTiles, storage: &storage) }
        // Tiles of its own (also for a `.decoder` image asked for a region directly: the block is decoded, not kept).
        let ids = grid.tiles(intersecting: clipped)
        let missing = ids.filter { !cache.contains($0) }
        if missing.count == ids.count {
            // Nothing cached: the decoded block of tiles is the answer as it is (no second copy);
            // the cache keeps copies of its tiles only when it has a budget.
            let (block, blockRect) = try decodeBlock(of: ids, grid: grid)
            if cache.budgetBytes > 0 { store(block, covering: blockRect, tiles: ids, grid: grid, pinned: false) }
            return (block, (blockRect.x, blockRect.y))
        }
        // Pin what is cached so that decoding the rest cannot evict it; new tiles arrive pinned.
        for id in ids where cache.contains(id) { cache.pin(id) }
        defer { for id in ids where cache.isPinned(id) { cache.unpin(id) } }
        if !missing.isEmpty {
            let (block, blockRect) = try decodeBlock(of: missing, grid: grid)
            store(block, covering: blockRect, tiles: missing, grid: grid, pinned: true)
        }
        return TileMosaic.assemble(levelRect: clipped, grid: grid, storage: &storage) { self.cache.value(forKey: $0) }
    }
}

extension TiledImage {
    /// Decodes the block of level pixels covering `tiles` (their bounding rect) in one pass and
    /// turns it upright; counts the tiles as decoded.
    package func decodeBlock(of tiles: [TileID], grid: TileGrid) throws(TileViewError) -> (ImageBuffer, PixelRect) {
        let (stored, _, union) = try decodeStoredBlock(of: tiles, grid: grid)
        let upright = orientation == .up ? stored : stored.applying(orientation)
        precondition(upright.size == union.size, "decoded \(upright.size) for tiles covering \(union.size)")
        return (upright, union)
    }

    /// What a turned image's decode of a block of bands holds, in copies of the block: over the shared cache the
    /// stored block alone (each tile is cut from it and turned on its own), else the block and the same turned
    /// upright (`decodeBlock`).
    var turnedBlockCopies: Int { sharedTiles != nil ? 1 : 2 }

    /// The stored (un-oriented) block of level pixels under `tiles` (their bounding rect, `union`, turned back to
    /// the stored rect `storedRect`), decoded in one pass; counts the tiles as decoded.
    package func decodeStoredBlock(of tiles: [TileID], grid: TileGrid) throws(TileViewError) -> (
        stored: ImageBuffer, storedRect: PixelRect, union: PixelRect
    ) {
        let union = tiles.map { grid.pixelRect(of: $0) }.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) {
            $0.union($1)
        }
        let storedLevelSize = orientation.storedSize(forOrientedSize: grid.levelSize)
        let storedRect = orientation.storedRect(forOrientedRect: union, storedSize: storedLevelSize)
        let stored = try decodeStored(storedRect, level: grid.level)
        decodePasses += 1
        for id in tiles { cache.recordDecode(bytes: grid.pixelRect(of: id).pixelCount * 4) }
        return (stored, storedRect, union)
    }

    /// Copies `tiles` out of a decoded block into the cache.
    fileprivate func store(
        _ block: ImageBuffer, covering blockRect: PixelRect, tiles: [TileID], grid: TileGrid, pinned: Bool
    ) {
        for id in tiles {
            let r = grid.pixelRect(of: id)
            let tile = block.cropped(
                to: PixelRect(x: r.x - blockRect.x, y: r.y - blockRect.y, width: r.width, height: r.height))
            _ = cache.insert(tile, forKey: id, pinned: pinned)
        }
    }

    /// The stored (un-oriented) pixels of `rect` at `level`.
    package func decodeStored(_ rect: PixelRect, level: Int) throws(TileViewError) -> ImageBuffer {
        let reader = try levelReader(rect, level: level)
        do throws(CodecError) {
            let (image, failure) = try reader.readAll()
            warnings += reader.warnings + (failure.map { [$0] } ?? [])
            return image
        } catch {
            throw TileViewError(error, path: path)
        }
    }

    /// How a decode that reads all of a level's rows runs beside other threads: a JPEG's 1/8 scale in parts at once,
    /// a PNG's rows inflated ahead while they are unfiltered, a HEIF grid's row of tiles decoded at once (for any
    /// region: it reads the tiles under it). For an image the server's shared cache holds (a viewer's
    /// first view waits on that pass) or that asks for it (`decodesInParts`); in one pass otherwise (the command's
    /// runs keep their own memory plans, and their cores busy with frames), except a HEIF grid's tiles, which
    /// libheif decoded on several threads before the grid was read by tiles.
    var decodeParts: DecodeParts? {
        guard decodesInParts ?? (sharedTiles != nil || header.decoderPartBytes > 0),
            header.format == .jpeg || header.format == .png || header.decoderPartBytes > 0
        else {
            return nil
        }
        var parts = DecodeParts.threads
        parts.keepsEntropyIndex = keepsEntropyIndex
        return parts
    }

    /// What `partsBytes` holds, in a memory plan's words.
    var partsName: String {
        if header.format == .png { return "rows inflated ahead" }
        return header.decoderPartBytes > 0 ? "tiles decoded at once" : "1/8 decode in parts"
    }

    /// Whether a first view's 1/8 pass in parts should also make the entropy index (`SharedTileCache.offerEntropyIndex`):
    /// a served JPEG large enough for the indexers to keep its index (`CoarseLevelStore.indexedJPEGPixels`) whose index
    /// the cache has not settled yet. Its first deep tile then makes no pass.
    var servedIndexWanted: Bool {
        guard let sharedTiles, header.format == .jpeg,
            header.storedSize.pixelCount >= CoarseLevelStore.indexedJPEGPixels
        else { return false }
        return !sharedTiles.cache.indexSettled(image: sharedTiles.image)
    }

    /// What those parts hold at most, for a memory plan of a read of `level` (0 when it is not one): a JPEG's 1/8
    /// pass in parts, a PNG's ring of rows inflated ahead (`DecodeParts.pngPipelineBytes`), or a HEIF grid's further
    /// tile decodes (the decoder's working memory counts one).
    func partsBytes(level: Int) -> Int {
        guard let parts = decodeParts else { return 0 }
        if header.decoderPartBytes > 0 { return parts.unitBytes(header) }
        if header.format == .png {
            let file: Bool
            if case .bytes = source { file = false } else { file = true }
            return DecodeParts.pngPipelineBytes(width: header.storedSize.width, file: file)
        }
        guard LevelScale.pyramidLevel(level, header: header).numerator == 1 else { return 0 }
        let fileBytes: Int
        switch source {
        case .bytes: fileBytes = 0
        case .descriptor(let descriptor): fileBytes = descriptor.identity?.size ?? parts.maximumBytes
        case .file: fileBytes = parts.maximumBytes
        }
        return parts.jpegEighthBytes(storedSize: header.storedSize, fileBytes: fileBytes)
    }

    /// The one way this image's level pixels are read: a reader of the stored `rect` of `level`, opened on the
    /// file, or on the image decoded whole once where its format decodes only whole (`ImageHeader.decodesWhole`):
    /// kept by this image, or by the shared cache for every image opened over it.
    package func levelReader(_ rect: PixelRect, level: Int) throws(TileViewError) -> LevelReader {
        let scale = LevelScale.pyramidLevel(level, header: header)
        do throws(CodecError) {
            guard header.decodesWhole else {
                // A decode asks the index shelf (a lock) only here, not in every request's plan (`partsBytes`).
                var parts = decodeParts
                if parts != nil, !keepsEntropyIndex, servedIndexWanted { parts?.keepsEntropyIndex = true }
                let reader = try LevelReader(
                    source, format: header.format, scale: scale, rect: rect, options: options, parts: parts)
                if let index = reader.entropyIndex {
                    keptEntropyIndex = index
                    if let sharedTiles {
                        sharedTiles.cache.offerEntropyIndex(index, image: sharedTiles.image, source: source)
                    }
                }
                return reader
            }
            let whole: WholeImage
            let stored = scale.storedLevel
            if let kept = wholeImages[stored] {
                whole = kept
            } else if let sharedTiles {
                let (source, format, options) = (source, header.format, options)
                let key = stored == 0 ? sharedTiles.image : sharedTiles.image + "\u{0}level \(stored)"
                whole = try sharedTiles.cache.wholeImage(image: key) { () throws(CodecError) in
                    try WholeImage(source, format: format, options: options, level: stored)
                }
            } else {
                whole = try WholeImage(source, format: header.format, options: options, level: stored)
                decodePasses += 1
            }
            wholeImages[stored] = whole
            return try LevelReader(whole: whole, scale: scale, rect: rect)
        } catch {
            throw TileViewError(error, path: path)
        }
    }
}
