import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewTiling

/// An image's coarse levels and the disk cache (`CoarseLevelStore`, docs/design.md section 16).
extension TiledImage {
    /// The levels the disk cache keeps: every level no larger than `CoarseLevelStore.maxSide` on each side, to the
    /// coarsest.
    public var coarseLevels: ClosedRange<Int> {
        let side = CoarseLevelStore.maxSide
        let first = (0...pyramid.maxLevel).first { level in
            let size = pyramid.levelSize(ofLevel: level)
            return size.width <= side && size.height <= side
        }
        return (first ?? pyramid.maxLevel)...pyramid.maxLevel
    }

    /// The disk cache's key of this image: the identity of the file its descriptor holds, with the options and
    /// turns that change its pixels. Nil for an image read from a path or from bytes (only what was opened once,
    /// as a server and `tileview index` open files, has an identity that cannot change under it).
    public var coarseLevelKey: String? {
        guard case .descriptor(let descriptor) = source, let identity = descriptor.identity else { return nil }
        return CoarseLevelStore.key(identity: identity, options: options, turns: turns)
    }

    /// What an entropy index pass over this image's file holds at its peak, saving the index included
    /// (`JPEGEntropyIndex.passBytes`), for a memory plan: a request's that makes the pass, and the indexers'.
    package var entropyIndexPassMemory: MemoryEstimate {
        let fileBytes: Int
        switch source {
        case .descriptor(let descriptor): fileBytes = descriptor.identity?.size ?? .max
        case .file: fileBytes = .max
        case .bytes(let bytes): fileBytes = bytes.count
        }
        var memory = MemoryEstimate()
        memory.add(
            "entropy index pass", bytes: JPEGEntropyIndex.passBytes(storedSize: header.storedSize, fileBytes: fileBytes)
        )
        return memory
    }

    /// What `decodeCoarseLevels` holds at its peak, for a memory plan (`tileview index`): every coarse level, a row of
    /// block totals each where they come from one pass over the rows of a finer level (`BoxLevels`), a turned
    /// image's block of its largest level stored and turned, and the decoder: its rows, its working memory and its
    /// parts (`partsBytes`, which hold a JPEG's 1/8 rows whole).
    package var coarseLevelsMemory: MemoryEstimate {
        var memory = MemoryEstimate()
        let levels = coarseLevels
        let sizes = coarseLevelSizes.map { $0.size.pixelCount * 4 }
        memory.add("coarse levels", bytes: FramePlan.sum(sizes))
        if orientation != .up { memory.add("turned block", bytes: FramePlan.product(sizes.max() ?? 0, 2)) }
        // The level every coarse level is read from, or reduced from, as `boxLevelsInOnePass` reads it.
        let source: Int
        if header.format == .png, orientation == .up {
            source = 0
        } else if header.format == .jpeg, orientation == .up, levels.lowerBound > Self.coarseBase {
            source = Self.coarseBase
        } else {
            source = levels.lowerBound
        }
        let scale = LevelScale.pyramidLevel(source, header: header)
        let width = scale.decoderSize(ofStored: header.storedSize).width
        if source < levels.lowerBound {
            memory.add(
                "block totals", bytes: BoxLevels.workingBytes(width: width, factors: levels.map { 1 << ($0 - source) }))
        }
        memory.add("decoder rows", bytes: FramePlan.product(max(width, 1), 8, scale.boxFactor + 4))
        memory.add("decoder working memory", bytes: header.decodeWorkingBytes)
        let parts = max(partsBytes(level: source), partsBytes(level: Self.coarseBase))
        if parts > 0 { memory.add(partsName, bytes: parts) }
        return memory
    }

    /// The coarse levels' sizes, as an entry must hold them.
    var coarseLevelSizes: [(level: Int, size: PixelSize)] {
        coarseLevels.map { ($0, pyramid.levelSize(ofLevel: $0)) }
    }

    /// Every coarse level decoded, exactly as tiles of them would be: each level of its own decode, except that
    /// the levels of an upright JPEG past 1/8 are the 1/8 decode box-reduced (the bytes `LevelReader` gives them,
    /// see `makeCoarseLevels`), all from one 1/8 pass, and an upright PNG's come from one pass over its rows. Throws when the file cannot be decoded (with `lenient`, what a damaged file gives
    /// is what its tiles would show, and is kept as they would be).
    public func decodeCoarseLevels() throws(TileViewError) -> [(level: Int, pixels: ImageBuffer)] {
        if let levels = try boxLevelsInOnePass(coarseLevels) { return levels }
        var levels: [(level: Int, pixels: ImageBuffer)] = []
        var base: ImageBuffer? = nil
        for level in coarseLevels {
            let size = pyramid.levelSize(ofLevel: level)
            let pixels: ImageBuffer
            if let base, level > Self.coarseBase {
                pixels = BoxReducer.reduce(base, factor: 1 << (level - Self.coarseBase))
            } else if orientation == .up {
                pixels = try decodeStored(PixelRect(size: size), level: level)
            } else {
                let (block, blockRect) = try decodeBlock(
                    of: pyramid.grid(ofLevel: level).tiles(intersecting: PixelRect(size: size)),
                    grid: pyramid.grid(ofLevel: level))
                pixels = block.cropped(
                    to: PixelRect(x: -blockRect.x, y: -blockRect.y, width: size.width, height: size.height))
            }
            if header.format == .jpeg, orientation == .up, level == Self.coarseBase { base = pixels }
            precondition(pixels.size == size, "coarse level \(level) decoded as \(pixels.size), not \(size)")
            levels.append((level, pixels))
        }
        return levels
    }

    /// `levels` of an upright PNG, or of an upright JPEG past 1/8, made in one pass over the rows they are reduced
    /// from: each PNG level is its full rows box-reduced by 2^L, each JPEG level past 1/8 libjpeg's 1/8 decode
    /// box-reduced by 2^(L-3) (`LevelScale`), all from one sum of each row (`BoxLevels`: the bytes `LevelReader`
    /// gives each level alone, from about one level's work). Holds one row of block totals per level. Nil for
    /// another format, a turned image or a level made another way (a TIFF's stored copy, a JPEG level at 1/8 or
    /// finer).
    package func boxLevelsInOnePass(_ levels: ClosedRange<Int>) throws(TileViewError) -> [(
        level: Int, pixels: ImageBuffer
    )]? {
        let scales = levels.map { LevelScale.pyramidLevel($0, header: header) }
        guard orientation == .up, scales.allSatisfy({ $0.storedLevel == 0 }) else { return nil }
        // The level whose rows every level is reduced from.
        let source: Int
        if header.format == .png, scales.allSatisfy({ $0.numerator == 8 }) {
            source = 0
        } else if header.format == .jpeg, levels.lowerBound > Self.coarseBase {
            source = Self.coarseBase
        } else {
            return nil
        }
        let size = pyramid.levelSize(ofLevel: source)
        let reader = try levelReader(PixelRect(size: size), level: source)
        var reduced = BoxLevels(size: size, factors: levels.map { 1 << ($0 - source) })
        for y in 0..<size.height { reduced.add(row: reader.row(y)) }
        reader.finish()
        noteStreamedPass(bytes: size.pixelCount * 4, warnings: reader.lenientWarnings)
        if let failure = reader.failure, !reader.lenient { throw TileViewError(failure, path: path) }
        return zip(levels, reduced.outputs).map { level, pixels in
            let levelSize = pyramid.levelSize(ofLevel: level)
            return (level, ImageBuffer(width: levelSize.width, height: levelSize.height, pixels: pixels))
        }
    }

    /// Fills the shared cache with every coarse level's tiles from the disk cache, when `grid`'s level is coarse
    /// and its entry is there (a first view asks for all the coarse levels at once), and returns the tiles of
    /// `grid`'s level. Nil when it is not: the level is decoded as usual, and this version is not looked for on
    /// disk again until it is written.
    func loadCoarseLevelsFromDisk(for grid: TileGrid, shared: SharedTiles) -> [TileID: ImageBuffer]? {
        guard let store = shared.cache.levelStore, coarseLevels.contains(grid.level),
            shared.cache.mayHaveOnDisk(shared.image), let key = coarseLevelKey
        else { return nil }
        let read = store.withLevels(key: key, expected: coarseLevelSizes) { levels in
            // Tiles cut straight from the mapped entry.
            var tiles: [TileID: ImageBuffer] = [:]
            for level in levels {
                let levelGrid = pyramid.grid(ofLevel: level.level)
                for row in 0..<levelGrid.rows {
                    for column in 0..<levelGrid.columns {
                        let id = TileID(level: level.level, column: column, row: row)
                        tiles[id] = ImageBuffer(
                            copying: levelGrid.pixelRect(of: id), from: level.pixels, width: level.size.width)
                    }
                }
            }
            return tiles
        }
        guard let tiles = read else {
            shared.cache.noteNotOnDisk(shared.image)
            return nil
        }
        shared.cache.storeFromDisk(image: shared.image, tiles: tiles)
        return tiles.filter { $0.key.level == grid.level }
    }
}
