import Foundation
import Testing
import TileView
import TileViewCore
import TileViewTestSupport

/// The disk cache of coarse levels (docs/design.md section 16): entries read back as written, damaged ones removed,
/// the bound kept least recently used first, and the levels it keeps exactly the levels a server decodes.
@Suite("Coarse levels on disk")
struct CoarseLevelStoreTests {
    /// Two made-up levels of a 300 x 200 image (levels 0 and 1 of 256 px tiles).
    static func levels(seed: UInt64) -> [(level: Int, pixels: ImageBuffer)] {
        var rng = SplitMix64(seed: seed)
        return [(300, 200, 0), (150, 100, 1)].map { width, height, level in
            (
                level,
                ImageBuffer(
                    width: width, height: height,
                    pixels: (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            )
        }
    }

    static func expected(_ levels: [(level: Int, pixels: ImageBuffer)]) -> [(level: Int, size: PixelSize)] {
        levels.map { ($0.level, $0.pixels.size) }
    }

    @Test("an entry comes back as written; another key, other levels or other sizes miss")
    func roundTrip() throws {
        try TemporaryFolder.with("levels") { folder in
            let store = try CoarseLevelStore(folder: folder.path, budgetBytes: 64 << 20)
            let levels = Self.levels(seed: 1)
            #expect(store.levels(key: "a", expected: Self.expected(levels)) == nil)
            store.store(key: "a", levels: levels)
            #expect(store.contains(key: "a") && !store.contains(key: "b"))
            let read = try #require(store.levels(key: "a", expected: Self.expected(levels)))
            #expect(read.map(\.level) == [0, 1])
            #expect(zip(read, levels).allSatisfy { $0.pixels == $1.pixels })
            #expect(store.levels(key: "b", expected: Self.expected(levels)) == nil)
            #expect(store.levels(key: "a", expected: [(0, PixelSize(width: 300, height: 200))]) == nil)
            #expect(
                store.levels(key: "a", expected: [(0, PixelSize(width: 300, height: 201)), (1, levels[1].pixels.size)])
                    == nil)
            let figures = store.figures
            #expect(figures.writes == 1 && figures.hits == 1 && figures.misses == 4)
            // A second store over the same folder (another process) finds it, and counts its bytes.
            let again = try CoarseLevelStore(folder: folder.path, budgetBytes: 64 << 20)
            #expect(again.levels(key: "a", expected: Self.expected(levels)) != nil)
            #expect(again.figures.bytes == figures.bytes && figures.bytes > 300 * 200 * 4)
        }
    }

    @Test("a damaged entry (any byte changed, or cut short) is removed when read, and counted")
    func damaged() throws {
        try TemporaryFolder.with("levels-damaged") { folder in
            let store = try CoarseLevelStore(folder: folder.path, budgetBytes: 64 << 20)
            let levels = Self.levels(seed: 2)
            var rng = SplitMix64(seed: 3)
            for trial in 0..<12 {
                store.store(key: "k", levels: levels)
                let path = try #require(CacheFiles.entries(under: folder.path + "/levels", suffix: ".levels").first)
                    .path
                var bytes = try Fixtures.bytes(URL(fileURLWithPath: path))
                if trial % 3 == 2 {
                    bytes.removeLast(Int(rng.next() % 1000) + 1)
                } else {
                    let at = trial == 0 ? 3 : Int(rng.next() % UInt64(bytes.count))
                    bytes[at] ^= 1 << UInt8(rng.next() % 8)
                }
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                #expect(store.levels(key: "k", expected: Self.expected(levels)) == nil, "trial \(trial)")
                #expect(!store.contains(key: "k"), "trial \(trial): the damaged entry is gone")
            }
            #expect(store.figures.damaged == 12)
        }
    }

    @Test("past the budget, the least recently used entries go first and the folder keeps the bound")
    func eviction() throws {
        try TemporaryFolder.with("levels-evict") { folder in
            let levels = Self.levels(seed: 4)
            let entry = CoarseLevelStore.encode(key: "k0", levels: levels).count
            let store = try CoarseLevelStore(folder: folder.path, budgetBytes: entry * 4 + entry / 2)
            for n in 0..<4 {
                store.store(key: "k\(n)", levels: levels)
                Thread.sleep(forTimeInterval: 0.01)  // distinct modification times
            }
            // k0 is read (touched): k1 is now the least recently used.
            #expect(store.levels(key: "k0", expected: Self.expected(levels)) != nil)
            Thread.sleep(forTimeInterval: 0.01)
            store.store(key: "k4", levels: levels)
            let kept = (0...4).filter { store.contains(key: "k\($0)") }
            #expect(!kept.contains(1) && kept.contains(0) && kept.contains(4), "\(kept)")
            let bytes = CacheFiles.entries(under: folder.path + "/levels", suffix: ".levels").reduce(0) { $0 + $1.size }
            #expect(bytes <= store.budgetBytes && store.figures.evicted >= 1)
        }
    }

    @Test("a cache folder that is a file is refused, naming it")
    func notAFolder() throws {
        try TemporaryFolder.with("levels-file") { folder in
            let file = folder.appendingPathComponent("cache")
            try Data([1]).write(to: file)
            #expect(throws: TileViewError.self) { try CoarseLevelStore(folder: file.path, budgetBytes: 1 << 20) }
        }
    }

    static let files =
        TiledImageTests.files + [
            "formats/tiff/pyramid-jpeg.tif", "formats/webp/exif-orientation-6.webp", "formats/gif/animated-3frames.gif",
        ]

    @Test("the coarse levels kept are the ones a server decodes, byte for byte", arguments: files)
    func sameAsServed(file: String) throws {
        let path = Fixtures.corpusRoot.appendingPathComponent(file).path
        for turns in [0, 1] {
            let image = try TiledImage(path: path, cacheBudgetBytes: 0, clockwiseQuarterTurns: turns)
            let levels = try image.decodeCoarseLevels()
            #expect(levels.map(\.level) == Array(image.coarseLevels))
            let cache = SharedTileCache(budgetBytes: 64 << 20)
            for (level, pixels) in levels {
                let served = try TiledImage(
                    path: path, cacheBudgetBytes: 0, sharedTiles: TiledImage.SharedTiles(cache: cache, image: file),
                    clockwiseQuarterTurns: turns)
                let size = served.pyramid.levelSize(ofLevel: level)
                let region = try #require(try served.region(PixelRect(size: size), level: level))
                #expect(
                    TiledImageTests.pixels(of: PixelRect(size: size), in: region) == pixels,
                    "\(file) turned \(turns) level \(level)")
            }
        }
    }

    @Test("a large JPEG's levels past 1/8 are kept as the 1/8 decode box-reduced, as a server makes them")
    func largeJPEG() throws {
        try TemporaryFolder.with("levels-jpeg") { folder in
            let path = try Self.writePatternJPEG(width: 4100, height: 2000, in: folder)
            let image = try TiledImage(source: .descriptor(try OpenDescriptor.open(regularFile: path)), name: path)
            #expect(image.coarseLevels == 3...image.pyramid.maxLevel && image.pyramid.maxLevel >= 5)
            try Self.expectServed(try image.decodeCoarseLevels(), path: path)
            // The key holds the file's identity: the same file opened again has it, a rewritten one does not.
            let key = try #require(image.coarseLevelKey)
            let reopened = try TiledImage(source: .descriptor(try OpenDescriptor.open(regularFile: path)), name: path)
            #expect(reopened.coarseLevelKey == key)
            try Data(try Fixtures.bytes(URL(fileURLWithPath: path))).write(to: URL(fileURLWithPath: path))
            let rewritten = try TiledImage(source: .descriptor(try OpenDescriptor.open(regularFile: path)), name: path)
            #expect(rewritten.coarseLevelKey != key)
        }
    }
}

extension CoarseLevelStoreTests {
    @Test("a JPEG whose 1/8 level is wider than 1024: every coarse level from one 1/8 pass, as a server makes them")
    func wideJPEGOnePass() throws {
        try TemporaryFolder.with("levels-wide") { folder in
            let path = try Self.writePatternJPEG(width: 9000, height: 600, in: folder)
            let image = try TiledImage(source: .descriptor(try OpenDescriptor.open(regularFile: path)), name: path)
            #expect(image.pyramid.levelSize(ofLevel: 3).width > CoarseLevelStore.maxSide)
            #expect(image.coarseLevels == 4...image.pyramid.maxLevel && image.pyramid.maxLevel >= 6)
            let levels = try image.decodeCoarseLevels()
            #expect(image.decodePasses == 1, "one 1/8 pass for \(levels.count) levels")
            #expect(levels.map(\.level) == Array(image.coarseLevels))
            try Self.expectServed(levels, path: path)
        }
    }

    /// A JPEG of `width` x `height` of a busy pattern (every level differs from its neighbours) in `folder`.
    static func writePatternJPEG(width: Int, height: Int, in folder: URL) throws -> String {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                pixels[i] = UInt8(truncatingIfNeeded: x * 7 + y)
                pixels[i + 1] = UInt8(truncatingIfNeeded: (x ^ y) * 3)
                pixels[i + 2] = UInt8(truncatingIfNeeded: y * 5 + x / 7)
            }
        }
        let path = folder.appendingPathComponent("pattern-\(width)x\(height).jpg").path
        try Data(try JPEGEncoder.encode(ImageBuffer(width: width, height: height, pixels: pixels)))
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Each level of `levels` equals that level as a server decodes it from the file at `path`, byte for byte.
    static func expectServed(
        _ levels: [(level: Int, pixels: ImageBuffer)], path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let cache = SharedTileCache(budgetBytes: 64 << 20)
        for (level, kept) in levels {
            let served = try TiledImage(
                path: path, cacheBudgetBytes: 0, sharedTiles: TiledImage.SharedTiles(cache: cache, image: path))
            let size = served.pyramid.levelSize(ofLevel: level)
            let region = try #require(try served.region(PixelRect(size: size), level: level))
            #expect(
                TiledImageTests.pixels(of: PixelRect(size: size), in: region) == kept, "level \(level)",
                sourceLocation: sourceLocation)
        }
    }

    @Test("the indexers keep the entropy index of a JPEG of 16 MP or more, once; not of a smaller JPEG or a PNG")
    func entropyIndexes() throws {
        try TemporaryFolder.with("index-entries") { folder in
            let store = try CoarseLevelStore(folder: folder.appendingPathComponent("cache").path, budgetBytes: 64 << 20)
            let large = folder.appendingPathComponent("large.jpg").path
            try Data(
                try JPEGEncoder.encode(
                    ImageBuffer(width: 4096, height: 4096, fill: RGBA8(r: 90, g: 140, b: 200, a: 255)))
            ).write(to: URL(fileURLWithPath: large))
            for (path, kept) in [
                (large, true), (Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path, false),
                (Fixtures.sampleImages.appendingPathComponent("coffee.png").path, false),
            ] {
                let descriptor = try OpenDescriptor.open(regularFile: path)
                let header = try ImageHeader.read(from: .descriptor(descriptor))
                let missing = store.missingIndexKey(descriptor, header: header)
                #expect((missing != nil) == kept, "\(path)")
                if let missing { #expect(store.storeIndex(key: missing, made: nil, descriptor: descriptor)) }
                #expect(store.missingIndexKey(descriptor, header: header) == nil, "\(path): once")
                let key = CoarseLevelStore.indexKey(identity: try #require(descriptor.identity))
                let bytes = store.index(key: key)
                #expect((bytes != nil) == kept, "\(path)")
                if let bytes {
                    let index = try JPEGEntropyIndex(loading: bytes, descriptor: descriptor)
                    #expect(index.size == PixelSize(width: 4096, height: 4096))
                }
            }
        }
    }
}
