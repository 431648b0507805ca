import TileViewCodecs
import TileViewCore
import TileViewSystem

/// The disk cache of docs/design.md section 16: each image's coarse levels (every level no larger than
/// `maxSide` on either side), so that a first view after a restart, or after `tileview index`, reads them instead
/// of decoding the file.
///
/// Storage: plain files in a fan-out tree (`FOLDER/levels/ab/cdef....levels`, named by the SHA-256 of the key),
/// not a database. An entry is written whole or not at all (`AtomicFile`: a temporary file, `fsync`, `rename`),
/// so several processes (two servers, `tileview index` beside a server) share one folder with no lock: the last
/// writer of an entry wins and a reader sees either entry whole. Reading one is one `open` and one `pread` of a
/// few MB, which the page cache serves once it is warm; SQLite would add a copy through its pages and a lock
/// shared by every process for nothing the file system does not already give.
///
/// An entry holds its key and its levels' sizes, and begins with the CRC-32C of the rest: a damaged entry (or one
/// of another layout) is removed when read and counts as a miss, and the image is indexed again; a whole entry
/// whose levels are not the ones asked for (another tile size) is a miss and stays. The key is the
/// file's identity (device, inode, size, modification and change times) with what changes the pixels (the decode
/// options and the viewer's turns): a changed file never meets an old entry. Entries are touched when read;
/// the least recently used go first when the folder passes `budgetBytes`.
///
/// A folder that cannot be written (read-only, or full) keeps being read: entries others wrote still serve.
/// Thread-safe.
public final class CoarseLevelStore: Sendable {
    /// The cache folder (entries are beneath `FOLDER/levels`).
    public let folder: String
    /// The most the entries may hold together, in bytes.
    public let budgetBytes: Int
    /// Whether this process can write entries (a read-only folder is only read).
    public let writable: Bool

    /// Levels no larger than this on each side are kept: those a first view shows (a 1024 x 768 viewer asks
    /// for the fit level and every coarser one).
    public static let maxSide = 1024
    /// The largest entry read: every level of a 1024 x 1024 image and its coarser ones, with room.
    static let maxEntryBytes = 8 << 20
    static let suffix = ".levels"
    /// The layout's name and version: an entry of another layout is damaged to this one.
    static let magic = Array("TVLEVEL2".utf8)
    /// An entropy index's entry (`storeIndex`): its own suffix and magic, in the same tree, budget and eviction.
    static let indexSuffix = ".index"
    static let indexMagic = Array("TVINDEX2".utf8)
    /// The largest index entry read: a 64 MiB JPEG's index is about 2 MiB.
    static let maxIndexBytes = 16 << 20

    private struct State {
        var bytes: Int
        var figures = Figures()
        var warned = false
    }
    private let state: Locked<State>

    /// What the store has done, for `/metrics` and summaries.
    public struct Figures: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public var writes = 0
        public var writeFailures = 0
        public var damaged = 0
        public var evicted = 0
        public var bytes = 0
    }

    /// The store in `folder` (made if missing), bounded by `budgetBytes`; throws when the folder cannot be made or
    /// is not a folder. A warning goes to `warn` once when it cannot be written.
    public init(folder: String, budgetBytes: Int, warn: @Sendable (String) -> Void = { _ in }) throws(TileViewError) {
        self.folder = folder
        self.budgetBytes = max(0, budgetBytes)
        let levels = folder + "/levels"
        do throws(TileViewError) {
            try AtomicFile.makeDirectory(levels)
        } catch {
            // A read-only folder may still hold entries to read.
            guard FileStatus.of(levels)?.kind == .folder else { throw error }
        }
        writable = CacheFiles.isWritable(levels)
        let bytes = Self.entries(under: levels).reduce(0) { $0 + $1.size }
        state = Locked(State(bytes: bytes))
        if !writable {
            warn("the cache folder \(folder) cannot be written: its entries are read, no new ones are kept")
        }
    }

    /// What the store has done so far, and the bytes its entries hold (as this process last counted them).
    public var figures: Figures {
        state.withLock { state in
            var figures = state.figures
            figures.bytes = state.bytes
            return figures
        }
    }

    /// The key of `identity` read with `options`, turned by `turns` quarter turns.
    public static func key(identity: FileIdentity, options: DecodeOptions, turns: Int) -> String {
        [

            "device \(identity.device)", "inode \(identity.inode)", "size \(identity.size)",
            "modified \(identity.modified)", "changed \(identity.changed)",
            "orientation \(options.applyOrientation)", "color \(options.color.rawValue)", "lenient \(options.lenient)",
            "turns \(turns)",
        ].joined(separator: ", ")
    }

    /// The key of the entropy index of the JPEG with `identity` (no decode option changes it).
    public static func indexKey(identity: FileIdentity) -> String {
        "entropy index, device \(identity.device), inode \(identity.inode), size \(identity.size), "
            + "modified \(identity.modified), changed \(identity.changed)"
    }

    /// JPEGs of at least this many pixels have their entropy index kept by the indexers (`missingIndexKey`): a
    /// first deep-zoom tile of a smaller one costs a pass of a few milliseconds.
    public static let indexedJPEGPixels = 16 << 20

    /// The key of the entropy index the indexers keep for the JPEG `descriptor` reads, when it takes one (a JPEG of
    /// at least `indexedJPEGPixels`) and there is none yet; then `storeIndex` keeps it.
    public func missingIndexKey(_ descriptor: OpenDescriptor, header: ImageHeader) -> String? {
        guard writable, header.format == .jpeg, header.storedSize.pixelCount >= Self.indexedJPEGPixels,
            let identity = descriptor.identity
        else { return nil }
        let key = Self.indexKey(identity: identity)
        return contains(key: key, suffix: Self.indexSuffix) ? nil : key
    }

    /// Keeps the entropy index of `key`: `made` when the level pass made it on the way (`TiledImage.keptEntropyIndex`),
    /// else one pass over the file `descriptor` reads. True when an entry was written.
    @discardableResult
    public func storeIndex(
        key: String, made: [UInt8]?, descriptor: OpenDescriptor, warn: @Sendable (String) -> Void = { _ in }
    ) -> Bool {
        guard let bytes = made ?? (try? JPEGEntropyIndex(.descriptor(descriptor)).saved()) else { return false }
        storeIndex(key: key, bytes: bytes, warn: warn)
        return true
    }

    /// The path of the entry of `key`.
    func path(of key: String, suffix: String = suffix) -> String {
        let name = SHA256.fastHex(Array(key.utf8))
        return "\(folder)/levels/\(name.prefix(2))/\(name.dropFirst(2))\(suffix)"
    }

    /// Every entry in the tree, levels and indexes.
    static func entries(under folder: String) -> [CacheFiles.Entry] {
        CacheFiles.entries(under: folder, suffix: suffix) + CacheFiles.entries(under: folder, suffix: indexSuffix)
    }

    /// Whether an entry of `key` exists (it is not read or checked).
    public func contains(key: String) -> Bool { contains(key: key, suffix: Self.suffix) }

    func contains(key: String, suffix: String) -> Bool {
        FileStatus.of(path(of: key, suffix: suffix))?.kind == .regular
    }

    /// A level of an entry: its number and size, and its RGBA rows in the mapped entry (valid only while
    /// `withLevels` runs its body).
    public struct MappedLevel {
        public let level: Int
        public let size: PixelSize
        public let pixels: UnsafeRawBufferPointer
    }

    /// Runs `body` with the levels of `key`'s entry, mapped from the file (no copy), each checked against
    /// `expected` (level and size, in that order); nil when there is none, or it is damaged (then it is removed).
    public func withLevels<T>(
        key: String, expected: [(level: Int, size: PixelSize)], _ body: ([MappedLevel]) -> T
    ) -> T? {
        let path = path(of: key)
        let read =
            CacheFiles.withMapping(path, limit: Self.maxEntryBytes) { bytes -> EntryRead<T> in
                guard Self.isWhole(bytes, magic: Self.magic) else { return .damaged(bytes.count) }
                guard let levels = Self.decode(bytes, key: key, expected: expected) else { return .other }
                return .done(body(levels))
            } ?? .missing
        return finish(read, path: path)
    }

    /// What reading an entry found.
    private enum EntryRead<T> {
        case missing
        case damaged(Int)
        case other
        case done(T)
    }

    /// The levels of `key`'s entry, copied (see `withLevels`).
    public func levels(key: String, expected: [(level: Int, size: PixelSize)]) -> [(level: Int, pixels: ImageBuffer)]? {
        withLevels(key: key, expected: expected) { levels in
            levels.map { level in
                (
                    level.level,
                    ImageBuffer(copying: PixelRect(size: level.size), from: level.pixels, width: level.size.width)
                )
            }
        }
    }

    /// Writes the entry of `key` (replacing any), then evicts the least recently used entries while the folder
    /// holds more than the budget. A failure (a full disk, a read-only folder) is counted and said once through
    /// `warn`; nothing is thrown: the cache only ever makes things faster.
    public func store(
        key: String, levels: [(level: Int, pixels: ImageBuffer)], warn: @Sendable (String) -> Void = { _ in }
    ) {
        guard writable else { return }
        let bytes = Self.encode(key: key, levels: levels)
        guard bytes.count <= Self.maxEntryBytes else { return }
        write(bytes, to: path(of: key), warn: warn)
    }

    /// Writes an entropy index's bytes (`JPEGEntropyIndex.saved()`) as the entry of `key` (`indexKey`), as `store`
    /// writes levels: whole or not at all, within the budget, a failure said once.
    public func storeIndex(key: String, bytes index: [UInt8], warn: @Sendable (String) -> Void = { _ in }) {
        guard writable else { return }
        let body = Self.entryBody(key: key, payload: index)
        let bytes = Self.indexMagic + Self.digest(body) + body
        guard bytes.count <= Self.maxIndexBytes else { return }
        write(bytes, to: path(of: key, suffix: Self.indexSuffix), warn: warn)
    }

    /// The index bytes of `key`'s entry; nil when there is none, or it is damaged (then it is removed).
    public func index(key: String) -> [UInt8]? {
        let path = path(of: key, suffix: Self.indexSuffix)
        let read =
            CacheFiles.withMapping(path, limit: Self.maxIndexBytes) { bytes -> EntryRead<[UInt8]> in
                guard Self.isWhole(bytes, magic: Self.indexMagic) else { return .damaged(bytes.count) }
                var offset = Self.indexMagic.count + Self.digestLength
                let keyBytes = Array(key.utf8)
                guard offset + 4 <= bytes.count else { return .other }
                let keyLength = bytes[offset..<(offset + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
                offset += 4
                guard keyLength == keyBytes.count, offset + keyLength <= bytes.count,
                    bytes[offset..<(offset + keyLength)].elementsEqual(keyBytes)
                else { return .other }
                return .done(Array(bytes[(offset + keyLength)...]))
            } ?? .missing
        return finish(read, path: path)
    }

    /// Counts what reading an entry found (a damaged one is removed) and gives its value.
    private func finish<T>(_ read: EntryRead<T>, path: String) -> T? {
        switch read {
        case .done(let value):
            CacheFiles.touch(path)
            state.withLock { $0.figures.hits += 1 }
            return value
        case .damaged(let count):
            try? AtomicFile.remove(path)
            state.withLock { state in
                state.figures.damaged += 1
                state.figures.misses += 1
                state.bytes -= count
            }
        case .missing, .other:
            // `.other`: a whole entry of something else (another tile size), left for whoever wrote it.
            state.withLock { $0.figures.misses += 1 }
        }
        return nil
    }

    /// Writes an entry's bytes to `path` (replacing any), then evicts the least recently used entries while the
    /// folder holds more than the budget.
    private func write(_ bytes: [UInt8], to path: String, warn: @Sendable (String) -> Void) {
        guard bytes.count <= budgetBytes else { return }
        do throws(TileViewError) {
            try AtomicFile.makeDirectory(AtomicFile.split(path).folder)
            try AtomicFile.write(bytes, to: path)
        } catch {
            let first = state.withLock { state in
                state.figures.writeFailures += 1
                defer { state.warned = true }
                return !state.warned
            }
            if first { warn("the cache folder \(folder): \(error.reason); serving goes on without new entries") }
            return
        }
        let over = state.withLock { state in
            state.figures.writes += 1
            state.bytes += bytes.count
            return state.bytes > budgetBytes
        }
        if over { evict() }
    }

    /// Removes the least recently used entries (by modification time, which reads update) until the folder holds
    /// at most seven eighths of the budget; recounts the folder (other processes write into it too).
    func evict() {
        var entries = Self.entries(under: folder + "/levels")
        var total = entries.reduce(0) { $0 + $1.size }
        entries.sort { $0.usedNanoseconds < $1.usedNanoseconds }
        var removed = 0
        for entry in entries where total > budgetBytes - budgetBytes / 8 {
            guard (try? AtomicFile.remove(entry.path)) != nil else { continue }
            total -= entry.size
            removed += 1
        }
        state.withLock { state in
            state.bytes = total
            state.figures.evicted += removed
        }
    }

    // MARK: - The entry's bytes

    /// `magic`, the CRC-32C (hex) of what follows, then (little-endian 32-bit numbers) the key's length and
    /// bytes, the number of levels, each level's number, width and height, and the levels' RGBA pixels in order.
    package static func encode(key: String, levels: [(level: Int, pixels: ImageBuffer)]) -> [UInt8] {
        var body = entryBody(key: key, payload: [])
        func number(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { body += $0 } }
        number(levels.count)
        for (level, pixels) in levels {
            number(level)
            number(pixels.width)
            number(pixels.height)
        }
        body.reserveCapacity(body.count + levels.reduce(0) { $0 + $1.pixels.pixels.count })
        for (_, pixels) in levels { body += pixels.pixels }
        return magic + digest(body) + body
    }

    /// The checksum after an entry's magic: the CRC-32C of the rest, as 8 hex digits (layouts 1 had SHA-256, which
    /// took a quarter of a first view's time after a restart: docs/benchmarks.md section 9).
    static func digest(_ body: [UInt8]) -> [UInt8] {
        body.withUnsafeBufferPointer { Array(CRC32C.hex($0).utf8) }
    }

    /// The checksum's length in an entry.
    static let digestLength = 8

    /// The key's length (little-endian 32 bits) and bytes, then `payload`: what an entry's checksum covers.
    static func entryBody(key: String, payload: [UInt8]) -> [UInt8] {
        let keyBytes = Array(key.utf8)
        var body: [UInt8] = []
        withUnsafeBytes(of: UInt32(keyBytes.count).littleEndian) { body += $0 }
        return body + keyBytes + payload
    }

    /// Whether `bytes` is an entry of the layout `magic` names, whole: the magic, and the checksum of the rest.
    static func isWhole(_ bytes: UnsafeRawBufferPointer, magic: [UInt8]) -> Bool {
        let digestEnd = magic.count + digestLength
        guard bytes.count > digestEnd, bytes[0..<magic.count].elementsEqual(magic) else { return false }
        let body = UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[digestEnd...])
        return bytes[magic.count..<digestEnd].elementsEqual(CRC32C.hex(body).utf8)
    }

    /// The levels a whole entry (`isWhole`) holds, when it is the entry of `key` with exactly the `expected` levels.
    static func decode(
        _ bytes: UnsafeRawBufferPointer, key: String, expected: [(level: Int, size: PixelSize)]
    ) -> [MappedLevel]? {
        var offset = magic.count + digestLength
        func number() -> Int? {
            guard offset + 4 <= bytes.count else { return nil }
            defer { offset += 4 }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
                | Int(bytes[offset + 3]) << 24
        }
        let keyBytes = Array(key.utf8)
        guard let keyLength = number(), keyLength == keyBytes.count, offset + keyLength <= bytes.count,
            bytes[offset..<(offset + keyLength)].elementsEqual(keyBytes)
        else { return nil }
        offset += keyLength
        guard let count = number(), count == expected.count else { return nil }
        for (level, size) in expected {
            guard number() == level, number() == size.width, number() == size.height else { return nil }
        }
        let total = expected.reduce(0) { $0 + $1.size.pixelCount * 4 }
        guard bytes.count - offset == total else { return nil }
        var levels: [MappedLevel] = []
        for (level, size) in expected {
            let length = size.pixelCount * 4
            levels.append(
                MappedLevel(
                    level: level, size: size,
                    pixels: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])))
            offset += length
        }
        return levels
    }
}
