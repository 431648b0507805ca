import Dispatch
import Foundation
import Testing
import TileView
import TileViewCore
import TileViewTestSupport
import TileViewTiling

/// Images opened over one shared tile cache (the server's): the same pixels as the image's own decode, bands
/// decoded once across images and threads, the budget kept.
@Suite("Shared tile cache")
struct SharedTileCacheTests {
    static func open(_ file: String, _ cache: SharedTileCache, tileSize: Int = 64) throws -> TiledImage {
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        return try TiledImage(
            path: path, tileSize: tileSize, cacheBudgetBytes: 0,
            sharedTiles: TiledImage.SharedTiles(cache: cache, image: file))
    }

    @Test(
        "any rect of any level over the shared cache equals the whole level decoded", arguments: TiledImageTests.files)
    func regionsMatchWholeLevel(file: String) throws {
        // A small budget (some levels fit whole, the biggest do not) and a fresh image per rect, as the server has.
        let cache = SharedTileCache(budgetBytes: 3 << 20, tileSize: 64)
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        var rng = SplitMix64(seed: UInt64(file.utf8.count) &* 104_729)
        let levels = try Self.open(file, cache).pyramid.levels.filter { $0 <= 5 }
        for level in levels {
            let reference = try TiledImageTests.referenceLevel(path, level: level)
            for trial in 0..<5 {
                let image = try Self.open(file, cache)
                let rect = TiledImageTests.randomRect(in: image.pyramid.levelSize(ofLevel: level), upTo: 200, &rng)
                let region = try #require(try image.region(rect, level: level))
                #expect(
                    TiledImageTests.pixels(of: rect, in: region) == reference.cropped(to: rect),
                    "\(file) level \(level) trial \(trial): \(rect)")
                #expect(cache.statistics.currentBytes <= cache.budgetBytes, "\(file): over budget")
            }
        }
    }

    @Test("a second image of the same file finds every tile; another file's name does not")
    func sharedAcrossImages() throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20, tileSize: 64)
        let rect = PixelRect(x: 100, y: 50, width: 150, height: 90)
        let first = try Self.open("jpeg/gen_chelsea_422_q90.jpg", cache)
        let a = try #require(try first.region(rect, level: 0))
        let bands = cache.bandsDecoded
        #expect(bands > 0)
        let second = try Self.open("jpeg/gen_chelsea_422_q90.jpg", cache)
        let b = try #require(try second.region(rect, level: 0))
        #expect(cache.bandsDecoded == bands, "the second image decoded nothing")
        #expect(second.bytesDecoded == 0)
        #expect(a.buffer == b.buffer)
        _ = try Self.open("png/basn2c08.png", cache).region(PixelRect(x: 0, y: 0, width: 8, height: 8), level: 0)
        #expect(cache.bandsDecoded > bands, "another image has its own tiles")
    }

    @Test(
        "a JPEG level larger than half the budget is decoded through the entropy index: a miss decodes its tiles alone")
    func levelThroughEntropyIndex() throws {
        // Level 0 of 1800x1200 is 8.6 MB, level 1 2.2 MB: both over half of 3 MB, so both come through the index.
        let file = "jpeg/exif_Landscape_1.jpg"
        let cache = SharedTileCache(budgetBytes: 3 << 20, tileSize: 64)
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        for level in 0...1 {
            let reference = try TiledImageTests.referenceLevel(path, level: level)
            let size = reference.size
            // The bottom-right corner first: nothing above it is decoded.
            for rect in [
                PixelRect(x: size.width - 100, y: size.height - 70, width: 100, height: 70),
                PixelRect(x: 130, y: 61, width: 190, height: 140), PixelRect(size: size),
            ] {
                let decodes = cache.indexedDecodes
                let image = try Self.open(file, cache)
                let region = try #require(try image.region(rect, level: level))
                #expect(
                    TiledImageTests.pixels(of: rect, in: region) == reference.cropped(to: rect),
                    "level \(level) \(rect)")
                #expect(cache.indexedDecodes == decodes + 1, "one crop for the rect's missing tiles")
                #expect(cache.statistics.currentBytes <= cache.budgetBytes)
            }
        }
        #expect(cache.bandsDecoded == 0, "no band pass from the top")
    }

    @Test("a JPEG level past 1/8: one pass makes every level from 1/8 to the coarsest, the same pixels")
    func coarseLevelsInOnePass() throws {
        // 1800x1200 in 64-pixel tiles: levels 3, 4 and 5 are 225x150, 113x75 and 57x38.
        let file = "jpeg/exif_Landscape_1.jpg"
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        let cache = SharedTileCache(budgetBytes: 3 << 20, tileSize: 64)
        let first = try Self.open(file, cache)
        #expect(first.pyramid.maxLevel == 5)
        _ = try first.region(PixelRect(x: 10, y: 10, width: 20, height: 20), level: 4)
        #expect(first.decodePasses == 1)
        let stored = cache.statistics.entryCount
        let expected = (3...5).reduce(0) { $0 + first.pyramid.grid(ofLevel: $1).tileCount }
        #expect(stored == expected, "every tile of levels 3 to 5 from the one pass")
        for level in 3...5 {
            let image = try Self.open(file, cache)
            let size = image.pyramid.levelSize(ofLevel: level)
            let region = try #require(try image.region(PixelRect(size: size), level: level))
            #expect(image.decodePasses == 0, "level \(level) was made by the first pass")
            #expect(
                TiledImageTests.pixels(of: PixelRect(size: size), in: region)
                    == (try TiledImageTests.referenceLevel(path, level: level)), "level \(level)")
        }
        #expect(cache.indexedDecodes == 0)
        // A level-2 miss is its own pass (libjpeg's 1/4 is not made from 1/8).
        _ = try Self.open(file, cache).region(PixelRect(x: 0, y: 0, width: 8, height: 8), level: 2)
        #expect(cache.statistics.entryCount > expected)
    }

    @Test("a progressive JPEG's big level is not indexed: it is decoded in bands, as before")
    func progressiveNotIndexed() throws {
        let cache = SharedTileCache(budgetBytes: 256 << 10, tileSize: 64)
        let image = try Self.open("jpeg/gen_chelsea_420_progressive.jpg", cache)
        _ = try image.region(PixelRect(x: 300, y: 200, width: 40, height: 40), level: 0)
        #expect(cache.indexedDecodes == 0)
        #expect(cache.bandsDecoded > 0)
    }

    @Test("when a level fits in half the budget, one miss decodes every band of it")
    func wholeLevel() throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20, tileSize: 64)
        let image = try Self.open("png/gen_large_4100x3000.png", cache)
        let grid = image.pyramid.grid(ofLevel: 2)
        _ = try image.region(PixelRect(x: 0, y: 0, width: 10, height: 10), level: 2)
        #expect(cache.bandsDecoded == grid.rows)
        #expect(cache.statistics.entryCount == grid.tileCount)
        #expect(image.decodePasses == 1)
    }

    @Test(
        "threads asking for tiles of the same bands at once decode each band once, and get the same pixels",
        arguments: [1, 4])
    func concurrentBandsDecodedOnce(parts: Int) throws {
        // Level 0 (49 MB) is more than half this budget: no whole-level pass.
        let cache = SharedTileCache(budgetBytes: 64 << 20, tileSize: 256, parts: parts)
        #expect(cache.partCount == parts)
        let file = "png/gen_large_4100x3000.png"
        let reference = try #require(
            try Self.open(file, SharedTileCache(budgetBytes: 256 << 20, tileSize: 256)).region(
                PixelRect(x: 0, y: 0, width: 4100, height: 3000), level: 0))
        let results = Locked<[Int: Bool]>([:])
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            // Each thread asks for one tile of level 0: rows 5 and 6.
            let rect = PixelRect(x: (i % 8) * 512, y: (5 + i / 8) * 256, width: 256, height: 256)
            let image = try! Self.open(file, cache, tileSize: 256)
            let region = try! image.region(rect, level: 0)!
            let same = region.buffer == reference.buffer.cropped(to: rect)
            results.withLock { $0[i] = same }
        }
        #expect(results.withLock { $0.count == 16 && $0.values.allSatisfy { $0 } })
        // Passes go on below the needed band, so which bands are decoded depends on who came first; but no
        // band is ever decoded twice (its tiles would be stored again).
        #expect(cache.bandsDecoded >= 2)
        #expect(cache.statistics.replacements == 0, "a band was decoded twice")
    }

    @Test("a hit takes its tiles' parts' locks and no other; the parts share the lookups and keep the budget")
    func hitsTakePartLocksOnly() throws {
        let cache = SharedTileCache(budgetBytes: 32 << 20, tileSize: 64, parts: 4)
        let file = "png/gen_large_4100x3000.png"
        let rect = PixelRect(x: 640, y: 512, width: 512, height: 512)  // 8 x 8 tiles of level 0
        let first = try #require(try Self.open(file, cache).region(rect, level: 0))
        let claimsTaken = { cache.lockContention.first { $0.lock == "claims" }!.acquisitions }
        let claimsBefore = claimsTaken()
        let partsBefore = cache.partContention.map(\.acquisitions)
        let second = try #require(try Self.open(file, cache).region(rect, level: 0))
        #expect(second.buffer == first.buffer)
        #expect(claimsTaken() == claimsBefore, "a hit took the claims' lock")
        let taken = zip(cache.partContention, partsBefore).map { $0.acquisitions - $1 }
        #expect(taken.allSatisfy { $0 >= 4 }, "every part serves some of the 64 tiles: \(taken)")
        #expect(taken.reduce(0, +) >= 64)
        #expect(cache.statistics.hits >= 64)
        #expect(cache.statistics.currentBytes <= cache.budgetBytes)
    }

    @Test("the tiles are kept in one part per processor, up to 16, while each part holds 64 of the largest tiles")
    func defaultParts() {
        let tile256 = 256 * 256 * 4
        #expect(SharedTileCache.defaultParts(budgetBytes: 192 << 20, tileBytes: tile256, processors: 16) == 8)
        #expect(SharedTileCache.defaultParts(budgetBytes: 1 << 30, tileBytes: tile256, processors: 16) == 16)
        #expect(SharedTileCache.defaultParts(budgetBytes: 1 << 30, tileBytes: tile256, processors: 64) == 16)
        #expect(SharedTileCache.defaultParts(budgetBytes: 192 << 20, tileBytes: tile256, processors: 2) == 2)
        #expect(SharedTileCache.defaultParts(budgetBytes: 192 << 20, tileBytes: tile256, processors: 1) == 1)
        #expect(SharedTileCache.defaultParts(budgetBytes: 31 << 20, tileBytes: tile256, processors: 16) == 1)
        #expect(SharedTileCache.defaultParts(budgetBytes: 3 << 20, tileBytes: 64 * 64 * 4, processors: 16) == 2)
        #expect(SharedTileCache(budgetBytes: 192 << 20, parts: 3).partCount == 4)
    }

    @Test("headers are kept by image version within their budget, the least recently used going first")
    func keptHeaders() throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20, parts: 2)
        func header(_ width: Int, profileBytes: Int) -> ImageHeader {
            ImageHeader(
                format: .jpeg, storedSize: PixelSize(width: width, height: 10), bitDepth: 8, colorType: "rgb",
                components: 3,
                color: ColorDescription(
                    origin: .iccProfile, name: "wide", profile: [UInt8](repeating: 7, count: profileBytes),
                    isSRGB: false))
        }
        #expect(cache.header(ofImage: "a-1") == nil)
        cache.keepHeader(header(100, profileBytes: 0), ofImage: "a-1")
        #expect(cache.header(ofImage: "a-1")?.storedSize.width == 100)
        #expect(cache.header(ofImage: "a-2") == nil, "another version of the file is read again")
        // Headers of 512 KiB profiles: a few fit in each part's share of the budget; the oldest go first.
        for k in 0..<64 { cache.keepHeader(header(k + 1, profileBytes: 512 << 10), ofImage: "big-\(k)") }
        let figures = cache.headerStatistics
        #expect(figures.currentBytes <= SharedTileCache.headerBudgetBytes)
        #expect(figures.evictions > 0)
        #expect(cache.header(ofImage: "big-0") == nil)
        #expect(cache.header(ofImage: "big-63")?.storedSize.width == 64)
    }

    @Test("a decoding error reaches the thread that decoded and every thread that waited")
    func failureShared() throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20)
        let path = Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg").path
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let image = try TiledImage(
                    path: path, cacheBudgetBytes: 0, sharedTiles: TiledImage.SharedTiles(cache: cache, image: path))
                _ = try image.region(PixelRect(size: image.imageSize), level: 0)
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 4)
        #expect(cache.statistics.entryCount == 0 || cache.statistics.currentBytes <= cache.budgetBytes)
    }
    @Test(
        "a band that failed on the file's data is not claimed again: its error comes back at once; a read error or one of memory is"
    )
    func failedBandsRemembered() throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20)
        let damaged = TileViewError(.decode, path: "a.jpg", reason: "Corrupt JPEG data")
        let claimed = try cache.claim(image: "a@1", level: 0, rows: 0..<3, needed: [0], columns: 4)
        #expect(claimed.mine == [0, 1, 2])
        cache.fail(image: "a@1", level: 0, rows: claimed.mine, error: damaged)
        #expect(cache.failedBandPasses == 1)
        #expect(throws: damaged) { try cache.claim(image: "a@1", level: 0, rows: 0..<3, needed: [2], columns: 4) }
        // Nothing was claimed by the refused call: the bands that did not fail are still free, the failed ones
        // are not decoded for a neighbour either.
        #expect(try cache.claim(image: "a@1", level: 0, rows: 0..<5, needed: [3], columns: 4).mine == [3, 4])
        // Another version of the file, or another level, is decoded.
        #expect(try cache.claim(image: "a@2", level: 0, rows: 0..<1, needed: [0], columns: 4).mine == [0])
        #expect(try cache.claim(image: "a@1", level: 1, rows: 0..<1, needed: [0], columns: 4).mine == [0])
        // A file that could not be read may be readable next time.
        let unread = TileViewError(.read, path: "b.jpg", reason: "Too many open files")
        cache.fail(
            image: "b@1", level: 0,
            rows: try cache.claim(image: "b@1", level: 0, rows: 0..<1, needed: [0], columns: 4).mine, error: unread)
        #expect(try cache.claim(image: "b@1", level: 0, rows: 0..<1, needed: [0], columns: 4).mine == [0])
        // Nor is a decode that ran out of memory: with less in use it may succeed.
        let memory = TileViewError(CodecError.outOfMemory("JPEG", "Insufficient memory (case 4)"), path: "c.jpg")
        #expect(memory.kind == .decode && memory.isOutOfMemory && !damaged.isOutOfMemory)
        cache.fail(
            image: "c@1", level: 0,
            rows: try cache.claim(image: "c@1", level: 0, rows: 0..<1, needed: [0], columns: 4).mine, error: memory)
        #expect(try cache.claim(image: "c@1", level: 0, rows: 0..<1, needed: [0], columns: 4).mine == [0])
        #expect(cache.failedBandPasses == 3)
    }

    @Test("a whole decode the file's data failed is not made again; one that ran out of memory is")
    func wholeFailuresRemembered() {
        let cache = SharedTileCache(budgetBytes: 64 << 20)
        for (name, error) in [
            ("damaged@1", CodecError(.corrupt, "corrupt HEIF data: bitstream")),
            ("memory@1", CodecError.outOfMemory("HEIF", "Memory allocation error")),
        ] {
            let made = Locked(0)
            for _ in 0..<3 {
                #expect(throws: error) {
                    try cache.wholeImage(image: name) { () throws(CodecError) -> WholeImage in
                        made.withLock { $0 += 1 }
                        throw error
                    }
                }
            }
            #expect(made.withLock { $0 } == (error.isOutOfMemory ? 3 : 1), "\(name)")
        }
    }

    @Test("a damaged file's band pass fails once: opened again, the same error without a second pass")
    func damagedFileDecodedOnce() throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20)
        let path = Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg").path
        var errors: [TileViewError] = []
        for _ in 0..<3 {
            let image = try TiledImage(
                path: path, cacheBudgetBytes: 0, sharedTiles: TiledImage.SharedTiles(cache: cache, image: path))
            #expect {
                _ = try image.region(PixelRect(size: image.imageSize), level: 0)
            } throws: { error in
                errors.append(error as! TileViewError)
                return true
            }
        }
        #expect(cache.failedBandPasses == 1)
        #expect(errors.count == 3 && errors.allSatisfy { $0.kind == .decode && $0.reason == errors[0].reason })
    }

    @Test("the entropy indexes kept hold at most their bytes together, the least recently used going first")
    func indexShelfBytes() throws {
        let indexes = try ["jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_444_q90.jpg", "jpeg/gen_chelsea_gray.jpg"]
            .map { try JPEGEntropyIndex(path: Fixtures.corpusRoot.appendingPathComponent($0).path) }
        var shelf = SharedTileCache.IndexShelf()
        // Room for the last two, not the first beside them.
        shelf.bytesKept = indexes[1].bytes + indexes[2].bytes
        for (k, index) in indexes.enumerated() { shelf.settle("image \(k)", .ready(index)) }
        #expect(shelf.order == ["image 1", "image 2"] && shelf.slots["image 0"] == nil)
        #expect(shelf.heldBytes == shelf.bytesKept)
        // One larger than the bound alone is kept while it is the one used last.
        shelf.bytesKept = 1
        shelf.settle("image 0", .ready(indexes[0]))
        #expect(shelf.order == ["image 0"] && shelf.heldBytes == indexes[0].bytes)
    }
}
