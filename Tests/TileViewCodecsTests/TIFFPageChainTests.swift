import Testing
import TileViewCodecs
import TileViewCore

/// A TIFF's pages are counted by following its IFD chain with a few bytes read an IFD and nothing kept per page:
/// libtiff's own count keeps every offset it meets (a 6 MB file of a million empty IFDs held 130 MB and took 1.4 s
/// to open). And a strip is read only where the file has it: where its place or its bytes are missing, the decode
/// fails as truncated or corrupt rather than reading bytes from elsewhere (the header, say) as pixels.
@Suite("TIFF page chain and strip places")
struct TIFFPageChainTests {
    /// A TIFF in either byte order, classic or BigTIFF: a first page of `width` x `height` 8-bit gray pixels in
    /// `strips` strips (each `rowsPerStrip` rows), then `emptyPages` IFDs of no entries chained after it.
    /// `stripPlace(k, offset, count)` may change where strip k says it lies; `lastLink` replaces the last IFD's
    /// link (0: none).
    struct Builder {
        var bigEndian = false
        var bigTIFF = false
        var width = 16
        var height = 16
        var rowsPerStrip = 8
        var emptyPages = 0
        var stripPlace: (Int, Int, Int) -> (offset: Int, count: Int) = { _, offset, count in (offset, count) }
        /// The last IFD links to the IFD of this page (0 is the first page); nil: the chain ends.
        var loopTo: Int?

        func int(_ value: Int, _ size: Int) -> [UInt8] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return bigEndian ? bytes.reversed() : bytes
        }

        var entrySize: Int { bigTIFF ? 20 : 12 }
        var countSize: Int { bigTIFF ? 8 : 2 }
        var linkSize: Int { bigTIFF ? 8 : 4 }

        /// One IFD entry of type LONG (4) holding `values` inline or at `at`.
        func entry(_ tag: Int, _ values: [Int], at: Int) -> [UInt8] {
            let inline = bigTIFF ? 2 : 1
            var out = int(tag, 2) + int(4, 2) + int(values.count, bigTIFF ? 8 : 4)
            if values.count <= inline {
                let field = values.flatMap { int($0, 4) }
                out += field + [UInt8](repeating: 0, count: (bigTIFF ? 8 : 4) - field.count)
            } else {
                out += int(at, bigTIFF ? 8 : 4)
            }
            return out
        }

        func bytes() -> [UInt8] {
            let strips = (height + rowsPerStrip - 1) / rowsPerStrip
            let header =
                (bigEndian ? Array("MM".utf8) : Array("II".utf8))
                + (bigTIFF ? int(43, 2) + int(8, 2) + int(0, 2) + int(16, 8) : int(42, 2) + int(8, 4))
            let firstIFD = header.count
            let entries = 9
            let ifdSize = countSize + entries * entrySize + linkSize
            let offsetsAt = firstIFD + ifdSize
            let countsAt = offsetsAt + 4 * strips
            let pixelsAt = countsAt + 4 * strips
            let pixels = (0..<(width * height)).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let emptyAt = pixelsAt + pixels.count
            let emptySize = countSize + linkSize
            var places: [(offset: Int, count: Int)] = []
            for k in 0..<strips {
                let rows = min(rowsPerStrip, height - k * rowsPerStrip)
                places.append(stripPlace(k, pixelsAt + k * rowsPerStrip * width, rows * width))
            }
            func link(after page: Int) -> Int {
                // Page 0 is the first IFD; page p > 0 the (p - 1)-th empty one.
                let pages = emptyPages + 1
                if page + 1 < pages { return emptyAt + page * emptySize }
                guard let loopTo else { return 0 }
                return loopTo == 0 ? firstIFD : emptyAt + (loopTo - 1) * emptySize
            }
            var out = header
            out += int(entries, countSize)
            out += entry(256, [width], at: 0) + entry(257, [height], at: 0) + entry(258, [8], at: 0)
            out += entry(259, [1], at: 0) + entry(262, [1], at: 0)
            out += entry(273, places.map(\.offset), at: offsetsAt) + entry(277, [1], at: 0)
            out += entry(278, [rowsPerStrip], at: 0) + entry(279, places.map(\.count), at: countsAt)
            out += int(link(after: 0), linkSize)
            if strips > (bigTIFF ? 2 : 1) {
                out += places.flatMap { int($0.offset, 4) } + places.flatMap { int($0.count, 4) }
            } else {
                out += [UInt8](repeating: 0, count: 8 * strips)
            }
            out += pixels
            for page in 1...max(1, emptyPages) where emptyPages > 0 {
                out += int(0, countSize) + int(link(after: page), linkSize)
            }
            return out
        }
    }

    @Test("pages are the IFDs of the chain, in both byte orders and in BigTIFF, and the first is shown")
    func chainCounted() throws {
        for bigEndian in [false, true] {
            for bigTIFF in [false, true] {
                let tiff = Builder(bigEndian: bigEndian, bigTIFF: bigTIFF, emptyPages: 4).bytes()
                let image = try ImageDecoder.decode(.bytes(tiff))
                #expect(image.header.frames == 5, "big endian \(bigEndian), BigTIFF \(bigTIFF)")
                #expect(image.image.size == PixelSize(width: 16, height: 16))
                #expect(image.image[1, 1].r == UInt8(truncatingIfNeeded: 17 * 7), "the first page's pixels")
                let alone = try ImageHeader.read(from: .bytes(Builder(bigEndian: bigEndian, bigTIFF: bigTIFF).bytes()))
                #expect(alone.frames == 1)
            }
        }
    }

    @Test("a chain that comes back to an IFD counts each once; past the most counted, the count stops there")
    func loopsAndLongChains() throws {
        // The last IFD links back to the first page, to itself, or to one in the middle: each IFD counted once.
        for (pages, loopTo) in [(2, 0), (1, 0), (4, 3), (10, 2), (300, 17)] {
            let tiff = Builder(emptyPages: pages - 1, loopTo: loopTo).bytes()
            #expect(try ImageHeader.read(from: .bytes(tiff)).frames == pages, "\(pages) pages, back to \(loopTo)")
        }
        // 150,000 pages of six bytes each (900 KB): counted to the limit, which the header says it is.
        let long = try ImageHeader.read(from: .bytes(Builder(emptyPages: 149_999).bytes()))
        #expect(long.frames == ImageHeader.framesCounted && ImageHeader.framesCounted == 100_000)
    }

    @Test("a strip whose bytes are not in the file fails the decode, truncated or corrupt, with no pixels")
    func stripsOutsideTheFile() throws {
        let good = Builder()
        let size = good.bytes().count
        // The second strip said to lie past the end, to run past it, or to have no bytes.
        let cases: [(String, (Int, Int, Int) -> (offset: Int, count: Int), CodecError.Kind)] = [
            ("past the end", { k, o, c in k == 1 ? (size + 1000, c) : (o, c) }, .truncated),
            ("running past the end", { k, o, c in k == 1 ? (size - 10, c) : (o, c) }, .truncated),
            ("of no bytes", { k, o, c in k == 1 ? (o, 0) : (o, c) }, .corrupt),
        ]
        for (name, place, expected) in cases {
            var tiff = good
            tiff.stripPlace = place
            let got = kind { try ImageDecoder.decode(.bytes(tiff.bytes())) }
            #expect(got == expected, "the second strip \(name): \(String(describing: got))")
        }
        #expect(try ImageDecoder.decode(.bytes(good.bytes())).header.frames == 1)
    }

    /// A little-endian TIFF of one IFD whose entries are LONGs (`tag`, `value`), each of one value: the strip or
    /// tile arrays it names lie nowhere.
    static func geometryOnly(_ entries: [(tag: Int, value: Int)]) -> [UInt8] {
        func le(_ value: Int, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var out: [UInt8] = Array("II".utf8) + le(42, 2) + le(8, 4) + le(entries.count, 2)
        for (tag, value) in entries.sorted(by: { $0.tag < $1.tag }) {
            out += le(tag, 2) + le(4, 2) + le(1, 4) + le(value, 4)
        }
        return out + le(0, 4)
    }

    @Test("a page of more strips or tiles than libtiff may keep places for is refused before libtiff reads it")
    func stripCount() throws {
        // 16x16 tiles over 32768 x H: 2048 columns of tiles.
        func tiled(height: Int) -> [UInt8] {
            Self.geometryOnly([
                (256, 32768), (257, height), (258, 8), (259, 1), (262, 1), (277, 1), (322, 16), (323, 16),
                (324, 4096), (325, 4096),
            ])
        }
        let over = error { try ImageHeader.read(from: .bytes(tiled(height: 2049 * 16))) }
        #expect(over?.kind == .tooLarge, "\(String(describing: over))")
        #expect(over?.message.contains("a page of 4196352 strips or tiles, over the 4194304 read") == true)
        // At the limit the page is read, and fails on its missing arrays, not on their count.
        let at = error { try ImageHeader.read(from: .bytes(tiled(height: 2048 * 16))) }
        #expect(at != nil && at?.message.contains("strips or tiles") == false, "\(String(describing: at))")
        // Strips of one row each, and separate planes (a strip per sample per row), are counted the same way.
        let rows = Self.geometryOnly([
            (256, 1), (257, 4_194_305), (258, 8), (259, 1), (262, 1), (273, 4096), (277, 1), (278, 1), (279, 1),
        ])
        #expect(kind { try ImageHeader.read(from: .bytes(rows)) } == .tooLarge)
        let planes = Self.geometryOnly([
            (256, 1), (257, 1_398_102), (258, 8), (259, 1), (262, 2), (273, 4096), (277, 3), (278, 1), (279, 1),
            (284, 2),
        ])
        #expect(kind { try ImageHeader.read(from: .bytes(planes)) } == .tooLarge)
    }

    /// A 1x1 gray TIFF (classic, little-endian) with one more tag, `tag` of `type` and `count` values at `at` (the
    /// file ends at 300 bytes unless `values` are given, which are then put at `at`).
    static func withTag(_ tag: Int, type: Int, count: Int, values: [UInt8] = []) -> [UInt8] {
        func le(_ value: Int, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var entries: [(Int, Int, Int, Int)] = [
            (256, 4, 1, 1), (257, 4, 1, 1), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1), (273, 4, 1, 299),
            (277, 3, 1, 1), (278, 4, 1, 1), (279, 4, 1, 1), (tag, type, count, 300),
        ]
        entries.sort { $0.0 < $1.0 }
        var out: [UInt8] = Array("II".utf8) + le(42, 2) + le(8, 4) + le(entries.count, 2)
        for (tag, type, count, value) in entries { out += le(tag, 2) + le(type, 2) + le(count, 4) + le(value, 4) }
        out += le(0, 4)
        out += [UInt8](repeating: 0x80, count: 300 - out.count)
        return out + values
    }

    @Test("a tag of more than 1 MiB the image does not need is not read: libtiff never meets its values")
    func largeTagsNotRead() throws {
        // A 100 MB Photoshop layer tag (37724) and XMP packet (700) whose values are not in the file: libtiff, which
        // would read them (and copy them), says nothing about them, and the image decodes.
        for (tag, type) in [(37724, 7), (700, 1)] {
            let decoded = try ImageDecoder.decode(.bytes(Self.withTag(tag, type: type, count: 100_000_000)))
            #expect(decoded.image[0, 0].r == 0x80)
            #expect(decoded.warnings.isEmpty, "tag \(tag): \(decoded.warnings)")
        }
        // At 1 MiB a tag is read as before: here its values are missing, and libtiff says so.
        let small = try ImageDecoder.decode(.bytes(Self.withTag(37724, type: 7, count: 1 << 20)))
        #expect(!small.warnings.isEmpty, "libtiff reads a tag of 1 MiB")
    }

    @Test("an ICC profile over 4 MiB is left out with the warning every format gives, and the image taken as sRGB")
    func largeProfile() throws {
        let bytes = (4 << 20) + 1
        let tiff = Self.withTag(34675, type: 7, count: bytes, values: [UInt8](repeating: 7, count: bytes))
        let decoded = try ImageDecoder.decode(.bytes(tiff))
        #expect(decoded.header.color.origin == .assumed && decoded.header.color.problem == nil)
        #expect(
            decoded.warnings.contains { $0.contains("the ICC profile is larger than 4 MiB and is ignored") },
            "\(decoded.warnings)")
    }
}
