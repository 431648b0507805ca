import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewSystem
import TileViewTiling

extension TiledImage {
    /// `region(_:level:)` over a shared cache: the tiles that meet `clipped` come from the cache, and the missing
    /// ones from the disk cache when the level is coarse and the image's entry is there (`loadCoarseLevelsFromDisk`),
    /// else from band decodes (see `SharedTileCache`), this thread's or another's.
    ///
    /// A miss decodes whole bands, the full width of the level: a JPEG or PNG decoder reads every row above a
    /// band and across it anyway, so the other tiles of the band cost little more and the next requests for them
    /// are hits. When the whole level fits in half the cache, the first miss decodes every band of the level
    /// that is missing a tile, in the same single pass; otherwise the pass goes on down through the bands below
    /// while it holds at most a quarter of the cache (upright images only: a turned image decodes its block).
    ///
    /// A level of an upright baseline JPEG that does not fit in half the cache is the exception: band passes
    /// would keep decoding it from the top, since its bands are evicted before their tiles are asked for. Its
    /// misses are decoded alone through the file's entropy index (`JPEGEntropyIndex`, built by the first miss),
    /// the MCUs around the missing tiles and nothing above them.
    package func sharedRegion(
        _ clipped: PixelRect, grid: TileGrid, shared: SharedTiles, storage: inout [UInt8]?
    ) throws(TileViewError) -> (buffer: ImageBuffer, origin: (x: Int, y: Int))? {
        let ids = grid.tiles(intersecting: clipped)
        var tiles = shared.cache.cached(image: shared.image, ids)
        var missing = ids.filter { tiles[$0] == nil }
        if !missing.isEmpty, let loaded = loadCoarseLevelsFromDisk(for: grid, shared: shared) {
            for id in missing { tiles[id] = loaded[id] }
            missing = []
        }
        let needed = Set(missing.map(\.row))
        if !missing.isEmpty, let index = entropyIndex(for: grid, shared: shared) {
            let decoded = try decodeThroughIndex(missing, grid: grid, index: index)
            shared.cache.store(image: shared.image, tiles: decoded)
            tiles.merge(decoded) { old, _ in old }
        } else if let first = needed.min(), let last = needed.max() {
            let rows: Range<Int>
            if orientation != .up {
                rows = first..<(last + 1)
            } else if grid.levelSize.pixelCount * 4 <= shared.cache.budgetBytes / 2 {
                rows = 0..<grid.rows
            } else {
                // The bands below come at the cost of their inverse transform only (the rows above must be read
                // anyway): decode down while the pass holds at most a quarter of the budget.
                let bandBytes = max(1, grid.levelSize.width * grid.tileSize * 4)
                let more = max(0, shared.cache.budgetBytes / 4 / bandBytes - (last - first + 1))
                rows = first..<min(grid.rows, last + 1 + more)
            }
            let (mine, waits) = try shared.cache.claim(
                image: shared.image, level: grid.level, rows: rows, needed: needed, columns: grid.columns)
            if !mine.isEmpty {
                let decoded = try decodeBands(mine, grid: grid, shared: shared, keeping: Set(missing))
                tiles.merge(decoded) { old, _ in old }
            }
            for decode in waits.values {
                let band = try shared.cache.wait(for: decode)
                for id in missing where tiles[id] == nil { tiles[id] = band[id] }
            }
        }
        return TileMosaic.assemble(levelRect: clipped, grid: grid, storage: &storage) { tiles[$0] }
    }

    /// The largest rect `losslessJPEGCrop` cuts, in pixels (1024 x 1024).
    public static let losslessCropMaxPixels = 1 << 20

    /// `rect` (stored pixels of an upright image) as a JPEG of the file's own coefficients, with no decode and no
    /// second generation of loss (a lossless crop, as `jpegtran -crop` makes): the MCUs under the rect, with
    /// their quantisation tables, written with standard Huffman tables. Nil unless the image is an upright
    /// baseline JPEG the entropy index takes, opened over a shared cache (whose shelf keeps the index, built by
    /// the first call), `rect` lies on the file's MCU grid (each side on an MCU edge or the image's edge) and
    /// holds at most `losslessCropMaxPixels` (the crop holds its coefficients in memory: 6 bytes a pixel for
    /// 4:4:4). Nil too when the crop runs out of memory or over one of libjpeg's limits: the crop only saves work,
    /// and the caller decodes the rect instead, within its own memory plan.
    ///
    /// Decoded, the crop has the pixels of a decode of the whole file except in the row or column of pixels along
    /// an edge of the rect that is not an edge of the image, where chroma is upsampled from the crop's own
    /// samples only (none for 4:4:4 and gray files).
    public func losslessJPEGCrop(_ rect: PixelRect) throws(TileViewError) -> [UInt8]? {
        guard header.format == .jpeg, orientation == .up, let shared = sharedTiles,
            !rect.isEmpty, rect.pixelCount <= Self.losslessCropMaxPixels, rect.x >= 0, rect.y >= 0,
            rect.maxX <= imageSize.width, rect.maxY <= imageSize.height,
            let index = shared.cache.entropyIndex(image: shared.image, source: source)
        else { return nil }
        let mcu = index.mcuSize
        func onGrid(_ start: Int, _ end: Int, _ step: Int, _ edge: Int) -> Bool {
            start % step == 0 && (end % step == 0 || end == edge)
        }
        guard onGrid(rect.x, rect.maxX, mcu.width, index.size.width),
            onGrid(rect.y, rect.maxY, mcu.height, index.size.height)
        else { return nil }
        let columns = (rect.x / mcu.width)..<((rect.maxX + mcu.width - 1) / mcu.width)
        let rows = (rect.y / mcu.height)..<((rect.maxY + mcu.height - 1) / mcu.height)
        do throws(CodecError) {
            let jpeg = try index.crop(columns: columns, rows: rows, profile: header.color.profileToEmbed)
            shared.cache.countLosslessCrop()
            return jpeg
        } catch {
            if error.kind == .tooLarge { return nil }
            throw TileViewError(error, path: path)
        }
    }

    /// The file's own JPEG bytes for an answer that is exactly one of its stored tiles (docs/design.md section 15):
    /// a TIFF pyramid level, or its first page, tiled in squares of this image's tile size with JPEG-compressed
    /// YCbCr, RGB or gray, `region` exactly a tile of level L (a whole one, or one the level's right or bottom edge
    /// cuts, which is the stored stream cut by its coefficients) scaled to `size` (the tile's size at that level),
    /// upright, in colours that need no conversion. Nil otherwise (the answer is rendered), and when cutting an
    /// edge tile runs out of memory or over one of libjpeg's limits, as `losslessJPEGCrop`.
    public func storedJPEGTile(region: PixelRect, size: PixelSize) throws(TileViewError) -> [UInt8]? {
        let tile = pyramid.tileSize
        guard header.format == .tiff, orientation == .up, header.color.transform == nil, region.width > 0,
            region.height > 0, size.width <= tile, size.height <= tile
        else { return nil }
        // The level whose tile this is: region and size as a IIIF request for a tile of level L gives them.
        guard
            let level = (0...pyramid.maxLevel).first(where: { level in
                let span = tile << level
                let levelSize = pyramid.levelSize(ofLevel: level)
                return region.x % span == 0 && region.y % span == 0
                    && region.width == min(span, imageSize.width - region.x)
                    && region.height == min(span, imageSize.height - region.y)
                    && size.width == min(tile, levelSize.width - region.x / span * tile)
                    && size.height == min(tile, levelSize.height - region.y / span * tile)
            })
        else { return nil }
        let scale = LevelScale.pyramidLevel(level, header: header)
        guard scale.boxFactor == 1, scale.storedLevel == level else { return nil }
        let span = tile << level
        guard level < header.storedDirectories.count else { return nil }
        do throws(CodecError) {
            guard
                let jpeg = try ImageRowReader.storedJPEGTile(
                    in: source, directory: header.storedDirectories[level], column: region.x / span,
                    row: region.y / span, tileSize: tile)
            else { return nil }
            sharedTiles?.cache.countStoredTile()
            return jpeg
        } catch {
            if error.kind == .tooLarge { return nil }
            throw TileViewError(error, path: path)
        }
    }

    /// The entropy index through which the tiles of `grid`'s level are decoded, when that is the way (see
    /// `sharedRegion`): levels 0 to 3 of an upright JPEG the index takes, larger than half the cache.
    private func entropyIndex(for grid: TileGrid, shared: SharedTiles) -> JPEGEntropyIndex? {
        guard header.format == .jpeg, orientation == .up, grid.level <= JPEGEntropyIndex.deepestLevel,
            grid.levelSize.pixelCount * 4 > shared.cache.budgetBytes / 2
        else { return nil }
        return shared.cache.entropyIndex(image: shared.image, source: source)
    }

    /// Decodes the tiles `ids` of `grid`'s level through `index`: the rect around them in one crop.
    private func decodeThroughIndex(
        _ ids: [TileID], grid: TileGrid, index: JPEGEntropyIndex
    ) throws(TileViewError) -> [TileID: ImageBuffer] {
        let rects = ids.map { grid.pixelRect(of: $0) }
        let bounds = rects.dropFirst().reduce(rects[0]) { $0.union($1) }
        let block: ImageBuffer
        do throws(CodecError) {
            block = try index.levelRect(bounds, level: grid.level, options: options, color: header.color)
        } catch {
            throw TileViewError(error, path: path)
        }
        var tiles: [TileID: ImageBuffer] = [:]
        for (id, r) in zip(ids, rects) {
            tiles[id] = block.cropped(
                to: PixelRect(x: r.x - bounds.x, y: r.y - bounds.y, width: r.width, height: r.height))
        }
        return tiles
    }

    /// The level of a JPEG from which every coarser level is made: 1/8, libjpeg's smallest scale; levels past
    /// it are box-reduced from it.
    package static let coarseBase = 3

    /// Whether the bands of `grid`'s level are made with every level from 1/8 to the coarsest
    /// (`makeCoarseLevels`): a level past 1/8 (`coarseBase`) of an upright JPEG whose 1/8 level fits in an eighth
    /// of the cache.
    private func makesCoarseLevels(_ grid: TileGrid, shared: SharedTiles) -> Bool {
        header.format == .jpeg && orientation == .up && grid.level > Self.coarseBase
            && pyramid.levelSize(ofLevel: Self.coarseBase).pixelCount * 4 <= shared.cache.budgetBytes / 8
    }

    /// Decodes the 1/8 level whole, once, and makes from it every level from 1/8 to the coarsest (each is the
    /// 1/8 decode box-reduced, as `LevelReader` makes it: `BoxReducer` on the same rows, the same bytes). Hands
    /// the `claimed` bands of `grid`'s level to `publish` and stores the tiles of the other levels. So a viewer's
    /// first view, which asks for a few coarse levels at once, costs one pass over the file instead of one per
    /// level.
    private func makeCoarseLevels(
        _ grid: TileGrid, claimed: Set<Int>, shared: SharedTiles, publish: (Int, [TileID: ImageBuffer]) -> Void
    ) throws(TileViewError) {
        let base = Self.coarseBase
        let decoded = try decodeStored(PixelRect(size: pyramid.levelSize(ofLevel: base)), level: base)
        noteStreamedPass(bytes: decoded.byteCount, warnings: [])
        let levels = (base...pyramid.maxLevel).map { level in
            (level, BoxReducer.reduce(decoded, factor: 1 << (level - base)))
        }
        distribute(levels, grid: grid, claimed: claimed, shared: shared, publish: publish)
    }

    /// Whether the bands of `grid`'s level are made with every coarse level in one pass (`boxLevelsInOnePass`): a
    /// coarse level of an upright PNG whose coarse levels together fit in an eighth of the cache.
    private func makesBoxLevels(_ grid: TileGrid, shared: SharedTiles) -> Bool {
        header.format == .png && orientation == .up && coarseLevels.contains(grid.level)
            && coarseLevels.reduce(0) { $0 + pyramid.levelSize(ofLevel: $1).pixelCount * 4 }
                <= shared.cache.budgetBytes / 8
    }

    /// Hands the `claimed` bands of `grid`'s level among `levels` to `publish`, and stores every tile of the
    /// other levels.
    private func distribute(
        _ levels: [(level: Int, pixels: ImageBuffer)], grid: TileGrid, claimed: Set<Int>, shared: SharedTiles,
        publish: (Int, [TileID: ImageBuffer]) -> Void
    ) {
        for (level, pixels) in levels {
            let levelGrid = pyramid.grid(ofLevel: level)
            precondition(pixels.size == levelGrid.levelSize, "level \(level) made \(pixels.size)")
            if level == grid.level {
                for row in 0..<levelGrid.rows where claimed.contains(row) {
                    publish(row, band(row, of: pixels, at: (0, 0), grid: levelGrid))
                }
            } else {
                var tiles: [TileID: ImageBuffer] = [:]
                for row in 0..<levelGrid.rows {
                    tiles.merge(band(row, of: pixels, at: (0, 0), grid: levelGrid)) { old, _ in old }
                }
                shared.cache.store(image: shared.image, tiles: tiles, throughIndex: false)
            }
        }
    }

    /// The tiles of band `row` of `grid`, cut from `stored`: stored (un-oriented) level pixels covering the band,
    /// whose top left is stored level pixel `origin`; each tile is cut and turned upright on its own (no turned copy
    /// of the whole block).
    private func band(
        _ row: Int, of stored: ImageBuffer, at origin: (x: Int, y: Int), grid: TileGrid
    ) -> [TileID: ImageBuffer] {
        let storedLevelSize = orientation.storedSize(forOrientedSize: grid.levelSize)
        var band: [TileID: ImageBuffer] = [:]
        for column in 0..<grid.columns {
            let id = TileID(level: grid.level, column: column, row: row)
            let r = orientation.storedRect(forOrientedRect: grid.pixelRect(of: id), storedSize: storedLevelSize)
            band[id] = stored.cropped(
                to: PixelRect(x: r.x - origin.x, y: r.y - origin.y, width: r.width, height: r.height)
            ).applying(orientation)
        }
        return band
    }

    /// Decodes the claimed bands `rows` of `grid`'s level in one pass (with the other coarse levels of a JPEG,
    /// `makeCoarseLevels`, or of a PNG, `boxLevelsInOnePass`), publishes each to the shared cache as soon as it is complete, and returns the tiles
    /// among `wanted`. On failure every band not yet published is ended
    /// with the error (its waiters get it too).
    private func decodeBands(
        _ rows: [Int], grid: TileGrid, shared: SharedTiles, keeping wanted: Set<TileID>
    ) throws(TileViewError) -> [TileID: ImageBuffer] {
        var pending = Set(rows)
        var kept: [TileID: ImageBuffer] = [:]
        func publish(_ row: Int, _ band: [TileID: ImageBuffer]) {
            shared.cache.publish(image: shared.image, level: grid.level, row: row, tiles: band)
            pending.remove(row)
            for (id, tile) in band where wanted.contains(id) { kept[id] = tile }
        }
        do throws(TileViewError) {
            let first = rows.min()!
            let last = rows.max()!
            let size = grid.tileSize
            let top = first * size
            let span = PixelRect(
                x: 0, y: top, width: grid.levelSize.width, height: min(grid.levelSize.height, (last + 1) * size) - top)
            if makesCoarseLevels(grid, shared: shared) {
                try makeCoarseLevels(grid, claimed: pending, shared: shared, publish: publish)
            } else if makesBoxLevels(grid, shared: shared), let levels = try boxLevelsInOnePass(coarseLevels) {
                distribute(levels, grid: grid, claimed: pending, shared: shared, publish: publish)
            } else if orientation == .up {
                try streamBands(span, grid: grid, claimed: pending, publish: publish)
            } else {
                // Each tile is cut from the stored block and turned alone: no turned copy of the whole block.
                let (stored, storedRect, _) = try decodeStoredBlock(of: grid.tiles(intersecting: span), grid: grid)
                for row in rows { publish(row, band(row, of: stored, at: (storedRect.x, storedRect.y), grid: grid)) }
            }
            return kept
        } catch {
            shared.cache.fail(image: shared.image, level: grid.level, rows: pending, error: error)
            throw error
        }
    }

    /// Streams the level rows of `span` (full width, whole bands) from the decoder and cuts the bands in
    /// `claimed` into tiles as their last row arrives; the other bands' rows are decoded and dropped.
    private func streamBands(
        _ span: PixelRect, grid: TileGrid, claimed: Set<Int>, publish: (Int, [TileID: ImageBuffer]) -> Void
    ) throws(TileViewError) {
        let reader = try levelReader(span, level: grid.level)
        let size = grid.tileSize
        for row in (span.y / size)..<((span.maxY + size - 1) / size) where claimed.contains(row) {
            let rects = (0..<grid.columns).map { grid.pixelRect(of: TileID(level: grid.level, column: $0, row: row)) }
            let height = rects[0].height
            var pixels = rects.map { [UInt8](repeating: 0, count: $0.pixelCount * 4) }
            for y in 0..<height {
                let source = reader.row(rects[0].y + y)
                for (column, r) in rects.enumerated() {
                    pixels[column].withUnsafeMutableBufferPointer { tile in
                        (tile.baseAddress! + y * r.width * 4).update(from: source + r.x * 4, count: r.width * 4)
                    }
                }
            }
            if let failure = reader.failure, !reader.lenient { throw TileViewError(failure, path: path) }
            var band: [TileID: ImageBuffer] = [:]
            for (column, r) in rects.enumerated() {
                band[TileID(level: grid.level, column: column, row: row)] = ImageBuffer(
                    width: r.width, height: r.height, pixels: pixels[column])
            }
            publish(row, band)
        }
        reader.finish()
        noteStreamedPass(bytes: span.pixelCount * 4, warnings: reader.lenientWarnings)
        if let failure = reader.failure, !reader.lenient { throw TileViewError(failure, path: path) }
    }
}
