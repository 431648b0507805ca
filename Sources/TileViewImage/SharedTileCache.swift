import Dispatch
import Synchronization
import TileViewCodecs
import TileViewCore
import TileViewSystem
import TileViewTiling

/// One byte-budgeted tile cache shared by many images and threads (the server's: every request opens its own
/// `TiledImage` over the same cache).
///
/// Keys name a version of a file (`TiledImage.SharedTiles.image`, e.g. its path with its size and modification
/// time, so a file changed on disk never meets its old tiles) and a tile. Tiles are decoded a band at a time: a
/// band is one row of tiles across the whole level, the least a JPEG or PNG decoder can read without decoding
/// the rows above again. A band being decoded is claimed: another thread that needs a tile of it waits for that
/// decode instead of decoding the band a second time, and receives the tiles from the decoder itself (even if
/// the cache has already evicted them).
///
/// Thread-safe; decoding happens outside the locks, in the threads that claim the bands. The tiles are striped
/// (`Striped`): each tile lives in the part its level, column and row pick, each part with its share of the
/// budget and a lock of its own, so threads reading different tiles seldom wait for each other; the claims of
/// bands being decoded have one lock, taken on a miss only (docs/benchmarks.md section 10).
public final class SharedTileCache: Sendable {
    /// A tile of one version of one image.
    package struct Key: Hashable {
        var image: String
        var tile: TileID
    }

    /// A band (one row of tiles of a level) of one version of one image.
    package struct Band: Hashable {
        var image: String
        var level: Int
        var row: Int
    }

    /// A band some thread is decoding, and the threads waiting for it. Its fields are read and written under
    /// the cache's lock only; `done` is signalled once per waiter when the band is published or fails.
    package final class BandDecode: @unchecked Sendable {
        var tiles: [TileID: ImageBuffer]?
        var error: TileViewError?
        var waiters = 0
        let done = DispatchSemaphore(value: 0)

        /// Wakes each waiter once; `count` is `waiters` read under the lock as the band left the claims (no
        /// waiter can join after that).
        func wake(_ count: Int) {
            for _ in 0..<count { done.signal() }
        }
    }

    /// The bands being decoded and what was decoded: the claims' lock, taken on a miss, never on a hit.
    package struct Claims {
        var decoding: [Band: BandDecode] = [:]
        /// Bands whose decode failed on the file's data, and why: not decoded again until the file changes.
        var failed = Remembered<Band, TileViewError>(capacity: SharedTileCache.bandFailuresKept)
        /// Band decodes that failed (one a pass, however many bands it had claimed).
        var failedPasses = 0
        var coalescedWaits = 0
        var bandsDecoded = 0
        var indexedDecodes = 0
        var diskLoads = 0
    }

    /// The entropy indexes of the JPEGs whose levels are decoded through one (see `entropyIndex`), the least
    /// recently used first; a version of a file the index does not take is remembered as such.
    package struct IndexShelf {
        package enum Slot {
            case building
            case ready(JPEGEntropyIndex)
            case unavailable
        }
        package var slots: [String: Slot] = [:]
        package var order: [String] = []
        var built = 0
        var loaded = 0
        var madeInParts = 0
        /// What the ready indexes may hold together.
        package var bytesKept = SharedTileCache.indexBytesKept

        package init() {}

        /// `image`'s slot settled as `slot`, the most recently used; past `indexesKept`, or past `bytesKept`
        /// held, the least recently used go (never `image` itself).
        package mutating func settle(_ image: String, _ slot: Slot) {
            slots[image] = slot
            order.removeAll { $0 == image }
            order.append(image)
            while order.count > 1, order.count > SharedTileCache.indexesKept || heldBytes > bytesKept {
                slots[order.removeFirst()] = nil
            }
        }

        /// The memory the ready indexes hold.
        package var heldBytes: Int {
            order.reduce(0) { total, image in
                if case .ready(let index) = slots[image] { total + index.bytes } else { total }
            }
        }
    }

    /// Whether the entropy index of `image` is built, or known not to be possible: the next request that wants
    /// it makes no indexing pass (`JPEGEntropyIndex.passBytes`).
    public func indexSettled(image: String) -> Bool {
        indexes.withLock { shelf in
            switch shelf.slots[image] {
            case .ready, .unavailable: true
            case .building, nil: false
            }
        }
    }

    /// Indexes kept at once (each holds its file open and 16 bytes per 8 MCUs of a row: 0.8 MB for 96 MP of 16x16
    /// MCUs), holding together at most `indexBytesKept` (the one used last is kept whatever its size: at most 20
    /// MiB, `TV_JPEG_INDEX_MAX_ENTRIES` and `TV_JPEG_INDEX_MAX_HEADER`).
    package static let indexesKept = 16
    package static let indexBytesKept = 32 << 20

    private let tiles: Striped<TileCache<Key, ImageBuffer>>
    private let claims = Locked(Claims())
    private let losslessCropCount = Atomic(0)
    private let storedTileCount = Atomic(0)

    /// How often its locks (the tiles' parts together, band claims, entropy indexes, whole images, the headers' parts
    /// together) were taken, and how often a thread waited for one (`/metrics`).
    public var lockContention: [(lock: String, acquisitions: Int, waits: Int)] {
        [
            ("tiles", tiles.contention), ("claims", claims.contention), ("indexes", indexes.contention),
            ("wholes", wholes.contention), ("headers", headers.contention),
        ].map { ($0.0, $0.1.acquisitions, $0.1.waits) }
    }

    /// Each part of the tiles: how often its lock was taken and waited for.
    package var partContention: [(acquisitions: Int, waits: Int)] { tiles.parts.map(\.contention) }
    private let indexes = Locked(IndexShelf())
    private let wholes = Locked(WholeShelf())
    /// The headers of the image versions opened so far (`header(ofImage:)`), striped as the tiles are.
    private let headers: Striped<TileCache<String, ImageHeader>>
    /// The most the kept headers cost: a few thousand images, or fewer that carry large ICC profiles.
    package static let headerBudgetBytes = 4 << 20
    public let budgetBytes: Int
    /// The disk cache of coarse levels read before a coarse level is decoded (docs/design.md section 16), if any.
    public let levelStore: CoarseLevelStore?
    /// Versions whose coarse levels were not on disk when last looked for (4,096 at most): their misses are decoded
    /// without reading the disk again, until `noteOnDisk`.
    private let absent = Locked(Remembered<String, Void>(capacity: 4096))

    /// A cache holding at most `budgetBytes` of tiles of at most `tileSize` pixels square, reading coarse levels
    /// from `levelStore` when it is given, in `parts` parts (by default `defaultParts`).
    public init(
        budgetBytes: Int, tileSize: Int = TileGrid.defaultTileSize, levelStore: CoarseLevelStore? = nil,
        parts: Int? = nil
    ) {
        self.levelStore = levelStore
        self.budgetBytes = max(0, budgetBytes)
        let cap = max(1, tileSize) * max(1, tileSize) * 4
        let count = Striped<Int>.partCount(
            parts
                ?? Self.defaultParts(
                    budgetBytes: self.budgetBytes, tileBytes: cap, processors: SystemInfo.availableProcessors))
        let share = self.budgetBytes / count
        tiles = Striped(count: count) { _ in TileCache(budgetBytes: share, entryCapBytes: cap) { $0.pixels.count } }
        let headerShare = Self.headerBudgetBytes / count
        headers = Striped(count: count) { _ in TileCache(budgetBytes: headerShare, cost: Self.headerBytes) }
    }

    /// The header `keepHeader` kept for this version of an image: a server opens the image again for every request,
    /// and a header read is most of what a request for a stored tile costs (a pyramid TIFF's reads every level's
    /// directory).
    public func header(ofImage image: String) -> ImageHeader? {
        headers.part(for: image).withLock { $0.value(forKey: image) }
    }

    /// Keeps `header` of version `image` (a name that changes whenever the file does) for `header(ofImage:)`, the
    /// least recently used headers going first beyond `headerBudgetBytes`.
    public func keepHeader(_ header: ImageHeader, ofImage image: String) {
        headers.part(for: image).withLock { _ = $0.insert(header, forKey: image) }
    }

    /// The kept headers' figures: a hit is a request that read no header.
    public var headerStatistics: TileCacheStatistics {
        headers.values(\.statistics).reduce(TileCacheStatistics(), +)
    }

    /// About what a kept header holds: its fields, its ICC profile, EXIF fields and level tables.
    private static func headerBytes(_ header: ImageHeader) -> Int {
        1024 + (header.color.profile?.count ?? 0) + header.storedLevels.count * 16 + header.storedDirectories.count * 8
    }

    /// One part per processor (up to 16, `Striped.partCount(processors:)`), but no more than leaves each part room
    /// for 64 of the largest tiles (16 MiB of 256 x 256 tiles): a part's least recently used tile is evicted
    /// within the part, so small parts would evict long before the whole budget is used. A power of two.
    public static func defaultParts(budgetBytes: Int, tileBytes: Int, processors: Int) -> Int {
        let wanted = Striped<Int>.partCount(processors: processors)
        var fitting = 1
        while fitting * 2 <= wanted && budgetBytes / (fitting * 2) >= 64 * max(1, tileBytes) { fitting *= 2 }
        return fitting
    }

    /// The part a tile lives in: a mix of its level, column and row (the same for every image and every run, so
    /// the tiles of a level spread evenly, and neighbours land in different parts).
    private func part(_ tile: TileID) -> Locked<TileCache<Key, ImageBuffer>> {
        var mixed = UInt64(truncatingIfNeeded: tile.column) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= UInt64(truncatingIfNeeded: tile.row) &* 0xBF58_476D_1CE4_E5B9
        mixed ^= UInt64(truncatingIfNeeded: tile.level) &* 0x94D0_49BB_1331_11EB
        return tiles.parts[Int(truncatingIfNeeded: mixed >> 32) & (tiles.parts.count - 1)]
    }

    /// Stores tiles of `image`, counting their bytes as decoded when `decoded`.
    private func insert(_ decoded: [TileID: ImageBuffer], image: String, decoded counted: Bool) {
        for (id, tile) in decoded {
            part(id).withLock { part in
                if counted { part.recordDecode(bytes: tile.pixels.count) }
                _ = part.insert(tile, forKey: Key(image: image, tile: id))
            }
        }
    }

    /// Hits, misses, evictions, bytes held and bytes decoded (the parts summed).
    public var statistics: TileCacheStatistics { tiles.values(\.statistics).reduce(TileCacheStatistics(), +) }

    /// The parts the tiles are kept in.
    public var partCount: Int { tiles.parts.count }

    /// Times a thread waited for a band another thread was decoding instead of decoding it again.
    public var coalescedWaits: Int { claims.withLock { $0.coalescedWaits } }

    /// Bands decoded so far.
    public var bandsDecoded: Int { claims.withLock { $0.bandsDecoded } }

    /// Band decodes that failed so far (a pass each, however many bands it had claimed).
    public var failedBandPasses: Int { claims.withLock { $0.failedPasses } }

    /// Rects decoded through an entropy index so far.
    public var indexedDecodes: Int { claims.withLock { $0.indexedDecodes } }

    /// JPEG answers cut from a file's own coefficients so far (`TiledImage.losslessJPEGCrop`).
    public var losslessCrops: Int { losslessCropCount.load(ordering: .relaxed) }

    package func countLosslessCrop() { losslessCropCount.add(1, ordering: .relaxed) }

    /// JPEG answers that were a TIFF's stored tile so far (`TiledImage.storedJPEGTile`).
    public var storedTiles: Int { storedTileCount.load(ordering: .relaxed) }

    package func countStoredTile() { storedTileCount.add(1, ordering: .relaxed) }

    /// The entropy index of `image` (the JPEG `source` reads): built on first use by the calling thread while the
    /// others that need it wait, then kept (`indexesKept` of them, the least recently used dropped first). Nil
    /// for a file the index does not take, or cannot read: that version is not tried again, and its tiles are
    /// decoded in bands.
    package func entropyIndex(image: String, source: ImageSource) -> JPEGEntropyIndex? {
        enum Next {
            case use(JPEGEntropyIndex?)
            case build
        }
        let notBuilding: (IndexShelf) -> Bool = { shelf in
            if case .building = shelf.slots[image] { false } else { true }
        }
        let next = indexes.withLock(when: notBuilding) { shelf -> Next in
            switch shelf.slots[image] {
            case .ready(let index):
                shelf.order.removeAll { $0 == image }
                shelf.order.append(image)
                return .use(index)
            case .unavailable, .building:
                return .use(nil)
            case nil:
                shelf.slots[image] = .building
                return .build
            }
        }
        if case .use(let index) = next { return index }
        let built = loadIndex(source) ?? buildIndex(source)
        indexes.withLock { shelf in shelf.settle(image, built.map { .ready($0) } ?? .unavailable) }
        indexes.wakeWaiters()
        return built
    }

    /// Keeps `bytes`, the entropy index of `image` that a 1/8 pass in parts made on the way
    /// (`TiledImage.keptEntropyIndex`), as if it had been built: no pass for the image's first deep tile. Unless the
    /// shelf has it already or is building it; read back against the file first (`JPEGEntropyIndex(loading:)`), and
    /// kept in the disk cache too when there is one and it has none.
    package func offerEntropyIndex(_ bytes: [UInt8], image: String, source: ImageSource) {
        guard case .descriptor(let descriptor) = source,
            let index = try? JPEGEntropyIndex(loading: bytes, descriptor: descriptor)
        else { return }
        let taken = indexes.withLock { shelf -> Bool in
            guard shelf.slots[image] == nil else { return false }
            shelf.settle(image, .ready(index))
            shelf.madeInParts += 1
            return true
        }
        guard taken, let store = levelStore, let identity = descriptor.identity else { return }
        let key = CoarseLevelStore.indexKey(identity: identity)
        if !store.contains(key: key, suffix: CoarseLevelStore.indexSuffix) { store.storeIndex(key: key, bytes: bytes) }
    }

    /// The entropy index of a file read through a descriptor, from the disk cache (`levelStore`) when it holds
    /// one for this version of the file: no indexing pass after a restart.
    private func loadIndex(_ source: ImageSource) -> JPEGEntropyIndex? {
        guard let store = levelStore, case .descriptor(let descriptor) = source, let identity = descriptor.identity,
            let bytes = store.index(key: CoarseLevelStore.indexKey(identity: identity))
        else { return nil }
        do throws(CodecError) {
            let index = try JPEGEntropyIndex(loading: bytes, descriptor: descriptor)
            indexes.withLock { $0.loaded += 1 }
            return index
        } catch {
            return nil  // another build's layout, say: built again, and the entry replaced
        }
    }

    /// Builds the entropy index (one pass over the file) and keeps it in the disk cache when there is one.
    private func buildIndex(_ source: ImageSource) -> JPEGEntropyIndex? {
        guard let index = try? JPEGEntropyIndex(source) else { return nil }
        indexes.withLock { $0.built += 1 }
        if let store = levelStore, case .descriptor(let descriptor) = source, let identity = descriptor.identity,
            let bytes = try? index.saved()
        {
            store.storeIndex(key: CoarseLevelStore.indexKey(identity: identity), bytes: bytes)
        }
        return index
    }

    /// Entropy indexes built (an indexing pass each) and read from the disk cache so far.
    public var indexFigures: (built: Int, loaded: Int) { indexes.withLock { ($0.built, $0.loaded) } }

    /// Entropy indexes made on the way by a first view's 1/8 pass in parts (`offerEntropyIndex`): no pass of their own.
    public var indexesMadeInParts: Int { indexes.withLock { $0.madeInParts } }

    /// The images decoded whole (`WholeImage`) kept for the images opened over this cache, the least recently
    /// used first, and the ones being decoded.
    package struct WholeShelf {
        enum Slot {
            case decoding
            case ready(WholeImage)
        }
        var slots: [String: Slot] = [:]
        var order: [String] = []
        var bytes = 0
        /// Versions whose decode failed, and why, the oldest first: a damaged file is not decoded again until it
        /// changes (some libraries lose memory on each failed decode: libheif 1.15 and libdav1d on damaged AV1).
        var failures = Remembered<String, CodecError>(capacity: SharedTileCache.wholeFailuresKept)
        /// Whole decodes begun.
        var decodes = 0
    }

    /// Whole decodes begun so far (`wholeImage`).
    public var wholeDecodes: Int { wholes.withLock { $0.decodes } }

    /// Failed whole decodes remembered at once.
    package static let wholeFailuresKept = 256
    /// Bands whose decode failed remembered at once (a few hundred bytes each).
    package static let bandFailuresKept = 4096

    /// The most the whole decodes kept may hold together: a quarter of the tile budget. The one a request is
    /// reading stays alive with it even when the shelf drops it.
    public var wholeImageBudgetBytes: Int { budgetBytes / 4 }

    /// `image` decoded whole: made on first use by the calling thread (`make`) while the others that need it wait,
    /// then kept within `wholeImageBudgetBytes`. A failed decode is remembered (`wholeFailuresKept` of them): the
    /// next request for the same version gets the same error without decoding again (not one that ran out of
    /// memory, which may succeed when less is in use).
    package func wholeImage(image: String, make: () throws(CodecError) -> WholeImage) throws(CodecError)
        -> WholeImage
    {
        let notDecoding: (WholeShelf) -> Bool = { shelf in
            if case .decoding = shelf.slots[image] { false } else { true }
        }
        let found = wholes.withLock(when: notDecoding) { shelf -> Result<WholeImage, CodecError>? in
            if let failure = shelf.failures[image] { return .failure(failure) }
            if case .ready(let whole) = shelf.slots[image] {
                shelf.order.removeAll { $0 == image }
                shelf.order.append(image)
                return .success(whole)
            }
            shelf.slots[image] = .decoding
            shelf.decodes += 1
            return nil
        }
        if let found { return try found.get() }
        let made: WholeImage
        do throws(CodecError) {
            made = try make()
        } catch {
            wholes.withLock { shelf in
                shelf.slots[image] = nil
                if !error.isOutOfMemory { shelf.failures.remember(error, for: image) }
            }
            wholes.wakeWaiters()
            throw error
        }
        let budget = wholeImageBudgetBytes
        wholes.withLock { shelf in
            shelf.slots[image] = nil
            guard made.byteCount <= budget else { return }
            while shelf.bytes + made.byteCount > budget, !shelf.order.isEmpty {
                if case .ready(let old) = shelf.slots.removeValue(forKey: shelf.order.removeFirst()) {
                    shelf.bytes -= old.byteCount
                }
            }
            shelf.slots[image] = .ready(made)
            shelf.order.append(image)
            shelf.bytes += made.byteCount
        }
        wholes.wakeWaiters()
        return made
    }

    /// Stores tiles decoded outside any band claim, counted as decoded: through an entropy index (counted as one
    /// indexed decode), or made by the same pass as the bands of another level (`throughIndex` false).
    package func store(image: String, tiles: [TileID: ImageBuffer], throughIndex: Bool = true) {
        insert(tiles, image: image, decoded: true)
        if throughIndex { claims.withLock { $0.indexedDecodes += 1 } }
    }

    /// The cached tiles among `ids` (each counted as a hit or a miss). Takes each tile's part's lock, and no other.
    package func cached(image: String, _ ids: [TileID]) -> [TileID: ImageBuffer] {
        var found: [TileID: ImageBuffer] = [:]
        for id in ids {
            if let tile = part(id).withLock({ $0.value(forKey: Key(image: image, tile: id)) }) { found[id] = tile }
        }
        return found
    }

    /// Claims the bands among `rows` of `level` that this thread should decode: the `needed` ones nobody is
    /// decoding, and the others nobody is decoding that miss a tile of `columns`. Returns them and the decodes
    /// of other threads this one must wait for (the needed bands they hold). Throws, claiming nothing, when the
    /// decode of a needed band failed before on the file's data (`fail`); the other bands that failed are not
    /// claimed.
    package func claim(
        image: String, level: Int, rows: Range<Int>, needed: Set<Int>, columns: Int
    ) throws(TileViewError) -> (mine: [Int], waits: [Int: BandDecode]) {
        // The parts are looked at with the claims' lock held (claims, then a part: never the other way round). A
        // band leaves the claims only after its tiles are stored (`publish`), so a band found unclaimed here is
        // either complete or worth decoding.
        let claimed = claims.withLock { claims -> Result<(mine: [Int], waits: [Int: BandDecode]), TileViewError> in
            for row in needed {
                if let failure = claims.failed[Band(image: image, level: level, row: row)] { return .failure(failure) }
            }
            var mine: [Int] = []
            var waits: [Int: BandDecode] = [:]
            for row in rows {
                let band = Band(image: image, level: level, row: row)
                guard claims.failed[band] == nil else { continue }
                if let decode = claims.decoding[band] {
                    if needed.contains(row) {
                        decode.waiters += 1
                        claims.coalescedWaits += 1
                        waits[row] = decode
                    }
                    continue
                }
                let complete =
                    !needed.contains(row)
                    && (0..<columns).allSatisfy { column in
                        let id = TileID(level: level, column: column, row: row)
                        return part(id).withLock { $0.contains(Key(image: image, tile: id)) }
                    }
                guard !complete else { continue }
                claims.decoding[band] = BandDecode()
                mine.append(row)
            }
            return .success((mine, waits))
        }
        return try claimed.get()
    }

    /// Stores the tiles of a claimed band, counts them as decoded and hands them to the threads waiting for it.
    package func publish(image: String, level: Int, row: Int, tiles: [TileID: ImageBuffer]) {
        insert(tiles, image: image, decoded: true)
        let ended = claims.withLock { claims -> (BandDecode, Int)? in
            claims.bandsDecoded += 1
            guard let decode = claims.decoding.removeValue(forKey: Band(image: image, level: level, row: row))
            else { return nil }
            decode.tiles = tiles
            return (decode, decode.waiters)
        }
        if let (decode, waiters) = ended { decode.wake(waiters) }
    }

    /// Ends claimed bands that will not be decoded: their waiters get `error`. An error of the file's data
    /// (`.decode`: damaged, over a decoder's limit) is remembered for those bands, the next claim of one gets it
    /// without decoding again (a file under a server's root that fails after seconds of work costs them once);
    /// an error reading the file, or a decode that ran out of memory, is not.
    package func fail(image: String, level: Int, rows: some Sequence<Int>, error: TileViewError) {
        let ended = claims.withLock { claims in
            claims.failedPasses += 1
            return rows.compactMap { row -> (BandDecode, Int)? in
                let band = Band(image: image, level: level, row: row)
                if error.kind == .decode && !error.isOutOfMemory { claims.failed.remember(error, for: band) }
                guard let decode = claims.decoding.removeValue(forKey: band) else { return nil }
                decode.error = error
                return (decode, decode.waiters)
            }
        }
        for (decode, waiters) in ended { decode.wake(waiters) }
    }

    /// Blocks until another thread's band decode ends; its tiles, or its error.
    package func wait(for decode: BandDecode) throws(TileViewError) -> [TileID: ImageBuffer] {
        decode.done.wait()
        let (tiles, error) = claims.withLock { _ in (decode.tiles, decode.error) }
        if let tiles { return tiles }
        throw error ?? TileViewError(.decode, path: "", reason: "a shared tile decode ended without tiles")
    }

    /// Removes every tile.
    public func removeAll() {
        for part in tiles.parts { part.withLock { $0.removeAll() } }
    }

    // MARK: - Coarse levels from disk

    /// Whether the coarse levels of `image` may be on disk: there is a store, and they were not found missing
    /// since they were last written (`noteOnDisk`).
    package func mayHaveOnDisk(_ image: String) -> Bool {
        levelStore != nil && absent.withLock { $0[image] == nil }
    }

    /// Remembers that the coarse levels of `image` are not on disk.
    package func noteNotOnDisk(_ image: String) {
        absent.withLock { $0.remember((), for: image) }
    }

    /// The coarse levels of `image` were just written to disk.
    public func noteOnDisk(_ image: String) {
        absent.withLock { $0.forget(image) }
    }

    /// Stores tiles read from the disk cache (not counted as decoded).
    package func storeFromDisk(image: String, tiles: [TileID: ImageBuffer]) {
        insert(tiles, image: image, decoded: false)
        claims.withLock { $0.diskLoads += 1 }
    }

    /// Times an image's coarse levels were read from disk into the cache.
    public var diskLoads: Int { claims.withLock { $0.diskLoads } }
}
