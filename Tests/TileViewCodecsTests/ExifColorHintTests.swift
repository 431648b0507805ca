import Testing
import TileViewCodecs
import TileViewTestSupport

/// TIFF structures with an Exif IFD and an Interoperability IFD, placed where a test says.
private struct InteropTIFF {
    var b: TIFFBuilder

    init(littleEndian: Bool) { b = TIFFBuilder(littleEndian: littleEndian) }

    /// An entry whose 4-byte value field holds `value` as a LONG (an offset or a count of up to 4 bytes).
    func entry(tag: Int, type: Int, count: Int, long value: Int) -> [UInt8] {
        b.u16(tag) + b.u16(type) + b.u32(count) + b.u32(value)
    }

    /// An entry whose value field holds `bytes` (at most 4), padded with zeros.
    func entry(tag: Int, type: Int, count: Int, inline bytes: [UInt8]) -> [UInt8] {
        b.u16(tag) + b.u16(type) + b.u32(count) + bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
    }

    /// An InteroperabilityIndex entry holding `text` and its NUL inline (as cameras write "R03").
    func index(_ text: String) -> [UInt8] {
        entry(tag: 0x0001, type: 2, count: text.utf8.count + 1, inline: Array(text.utf8) + [0])
    }

    func pointer(tag: Int, to offset: Int, type: Int = 4) -> [UInt8] {
        entry(tag: tag, type: type, count: 1, long: offset)
    }

    /// An IFD: entry count, entries, next-IFD offset 0.
    func ifd(_ entries: [[UInt8]]) -> [UInt8] {
        var out = b.u16(entries.count)
        for e in entries { out += e }
        return out + b.u32(0)
    }

    /// A header naming IFD0 at `ifd0`, then each block at its offset (zeros between; blocks must not overlap).
    func layout(ifd0: Int = 8, _ blocks: [(offset: Int, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = b.littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        out += b.u16(42) + b.u32(ifd0)
        for block in blocks.sorted(by: { $0.offset < $1.offset }) {
            precondition(block.offset >= out.count, "blocks overlap")
            out += [UInt8](repeating: 0, count: block.offset - out.count) + block.bytes
        }
        return out
    }

    // The usual layout: IFD0 at 8 (2 entries, 30 bytes), the Exif IFD at 38, the Interoperability IFD at 68.
    static let exifIFD = 38
    static let interopIFD = 68
    static let end = 98

    func ifd0(exifPointer: Int? = exifIFD, type: Int = 4) -> [UInt8] {
        ifd(
            [entry(tag: 0x010F, type: 2, count: 4, inline: Array("Cam".utf8) + [0])]
                + (exifPointer.map { [pointer(tag: 0x8769, to: $0, type: type)] } ?? [
                    entry(tag: 0x0110, type: 2, count: 1, long: 0)
                ]))
    }

    func exif(interopPointer: Int? = interopIFD, type: Int = 4) -> [UInt8] {
        ifd(
            [entry(tag: 0x9000, type: 7, count: 4, inline: Array("0232".utf8))]
                + (interopPointer.map { [pointer(tag: 0xA005, to: $0, type: type)] } ?? [
                    entry(tag: 0xA001, type: 3, count: 1, long: 0)
                ]))
    }

    func interop(_ indexEntry: [UInt8]) -> [UInt8] {
        ifd([indexEntry, entry(tag: 0x0002, type: 7, count: 4, inline: Array("0100".utf8))])
    }

    /// The usual layout with `indexEntry` in the Interoperability IFD and `tail` after it.
    func standard(
        _ indexEntry: [UInt8], exifPointer: Int? = exifIFD, interopPointer: Int? = interopIFD, tail: [UInt8] = []
    )
        -> [UInt8]
    {
        layout([
            (8, ifd0(exifPointer: exifPointer)), (Self.exifIFD, exif(interopPointer: interopPointer)),
            (Self.interopIFD, interop(indexEntry)), (Self.end, tail),
        ])
    }
}

@Suite("EXIF colour hint (InteroperabilityIndex)")
struct ExifColorHintTests {
    @Test("R03 is Adobe RGB; R98 and THM are not, in both byte orders", arguments: [true, false])
    func indices(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let r03 = t.standard(t.index("R03"))
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: r03) == "R03")
        #expect(ExifColorHint.isAdobeRGB(inTIFF: r03))
        for other in ["R98", "THM", "R0", ""] {
            let tiff = t.standard(t.index(other))
            #expect(ExifColorHint.interoperabilityIndex(inTIFF: tiff) == other)
            #expect(!ExifColorHint.isAdobeRGB(inTIFF: tiff), "\(other)")
        }
        // Without its NUL, or padded with NULs, the index reads the same.
        let bare = t.standard(t.entry(tag: 0x0001, type: 2, count: 3, inline: Array("R03".utf8)))
        #expect(ExifColorHint.isAdobeRGB(inTIFF: bare))
        // Pointers of type IFD (13) are pointers too.
        let typed = t.layout([
            (8, t.ifd0(type: 13)), (InteropTIFF.exifIFD, t.exif(type: 13)),
            (InteropTIFF.interopIFD, t.interop(t.index("R03"))),
        ])
        #expect(ExifColorHint.isAdobeRGB(inTIFF: typed))
    }

    @Test("an index longer than 4 bytes is read from the offset it holds", arguments: [true, false])
    func outOfLine(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let long = t.entry(tag: 0x0001, type: 2, count: 6, long: InteropTIFF.end)
        #expect(ExifColorHint.isAdobeRGB(inTIFF: t.standard(long, tail: Array("R03".utf8) + [0, 0, 0])))
        #expect(
            ExifColorHint.interoperabilityIndex(inTIFF: t.standard(long, tail: Array("R03xyz".utf8))) == "R03xyz")
        // The value ends exactly at the end of the bytes, or one byte past it.
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: t.standard(long, tail: Array("ABCDEF".utf8))) == "ABCDEF")
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: t.standard(long, tail: Array("ABCDE".utf8))) == nil)
        // Non-ASCII bytes are not an index.
        #expect(
            ExifColorHint.interoperabilityIndex(inTIFF: t.standard(long, tail: [0x52, 0xB0, 0x33, 0, 0, 0])) == nil)
    }

    @Test("a missing step gives nil: no Exif pointer, no Interoperability pointer, no index", arguments: [true, false])
    func missing(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let noExif = t.layout([(8, t.ifd0(exifPointer: nil))])
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: noExif) == nil)
        let noInterop = t.layout([(8, t.ifd0()), (InteropTIFF.exifIFD, t.exif(interopPointer: nil))])
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: noInterop) == nil)
        let noIndex = t.standard(t.entry(tag: 0x0002, type: 7, count: 4, inline: Array("0100".utf8)))
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: noIndex) == nil)
        // An InteroperabilityIndex tag in IFD0 or in the Exif IFD is not the one meant.
        let misplaced = t.layout([
            (8, t.ifd([t.index("R03"), t.pointer(tag: 0x8769, to: InteropTIFF.exifIFD)])),
            (InteropTIFF.exifIFD, t.ifd([t.index("R03")])),
        ])
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: misplaced) == nil)
        // Not a TIFF.
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: []) == nil)
        var badMagic = t.standard(t.index("R03"))
        badMagic[littleEndian ? 2 : 3] = 43
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: badMagic) == nil)
        var badOrder = t.standard(t.index("R03"))
        badOrder[1] = littleEndian ? 0x4D : 0x49
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: badOrder) == nil)
    }

    @Test("pointers back into an IFD already read give nil", arguments: [true, false])
    func loops(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let index = t.index("R03")
        // The Interoperability pointer to IFD0, to the Exif IFD itself, or into the middle of either.
        for target in [8, 10, 20, 33, InteropTIFF.exifIFD, InteropTIFF.exifIFD + 2, 63] {
            #expect(
                ExifColorHint.interoperabilityIndex(inTIFF: t.standard(index, interopPointer: target)) == nil,
                "Interoperability pointer to \(target)")
        }
        // The Exif pointer to IFD0 itself, or into it.
        for target in [8, 9, 14] {
            #expect(
                ExifColorHint.interoperabilityIndex(inTIFF: t.standard(index, exifPointer: target)) == nil,
                "Exif pointer to \(target)")
        }
        // An IFD0 that is its own Exif IFD and Interoperability IFD (each pointer names offset 8).
        let selfish = t.layout([
            (8, t.ifd([index, t.pointer(tag: 0x8769, to: 8), t.pointer(tag: 0xA005, to: 8)]))
        ])
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: selfish) == nil)
        // Placed before the IFDs that point to them (lower offsets), the IFDs are still read: only
        // pointers back into an IFD already read are refused.
        let reversed = t.layout(
            ifd0: 68,
            [
                (68, t.ifd0(exifPointer: 38)), (38, t.exif(interopPointer: 8)), (8, t.interop(index)),
            ])
        #expect(ExifColorHint.isAdobeRGB(inTIFF: reversed))
        // The bytes right after an IFD's entries (its next-IFD offset, not followed) are outside it.
        let adjacent = t.layout([
            (8, t.ifd0(exifPointer: 38)), (38, Array(t.exif(interopPointer: 64).dropLast(4))), (64, t.interop(index)),
        ])
        #expect(ExifColorHint.isAdobeRGB(inTIFF: adjacent))
    }

    @Test("offsets and counts past the end give nil", arguments: [true, false])
    func outOfRange(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let index = t.index("R03")
        let size = t.standard(index).count
        for target in [0, 4, 7, size - 1, size, size + 1, 0xFFFF, 0x7FFF_FFFF, 0xFFFF_FFFF] {
            #expect(ExifColorHint.interoperabilityIndex(inTIFF: t.standard(index, exifPointer: target)) == nil)
            #expect(ExifColorHint.interoperabilityIndex(inTIFF: t.standard(index, interopPointer: target)) == nil)
        }
        // IFD0 past the end, or inside the header.
        for ifd0 in [0, 6, size - 1, 0xFFFF_FFFF] {
            var tiff = t.standard(index)
            tiff.replaceSubrange(4..<8, with: t.b.u32(ifd0))
            #expect(ExifColorHint.interoperabilityIndex(inTIFF: tiff) == nil, "IFD0 at \(ifd0)")
        }
        // An out-of-line index whose offset or count runs past the end, or whose offset + count overflows 32 bits.
        let tail = Array("R03\0\0\0".utf8)
        for (count, offset) in [
            (6, 0xFFFF_FFFF), (6, InteropTIFF.end + 1), (0xFFFF_FFFF, InteropTIFF.end), (0x7FFF_FFFF, InteropTIFF.end),
            (0xFFFF_FFFF, 0xFFFF_FFFF), (0x8000_0000, 0x8000_0000), (100, 8),
        ] {
            let entry = t.entry(tag: 0x0001, type: 2, count: count, long: offset)
            #expect(
                ExifColorHint.interoperabilityIndex(inTIFF: t.standard(entry, tail: tail)) == nil,
                "count \(count) at \(offset)")
        }
        // A pointer with a count other than 1 (its value field is then not the offset), or of a type that is not LONG or IFD.
        for (type, count) in [(4, 0), (4, 2), (4, 0xFFFF_FFFF), (3, 1), (9, 1), (2, 1)] {
            let bad = t.entry(tag: 0xA005, type: type, count: count, long: InteropTIFF.interopIFD)
            let tiff = t.layout([
                (8, t.ifd0()), (InteropTIFF.exifIFD, t.ifd([bad, bad])), (InteropTIFF.interopIFD, t.interop(index)),
            ])
            #expect(ExifColorHint.interoperabilityIndex(inTIFF: tiff) == nil, "type \(type) count \(count)")
        }
        // An index of another type.
        for type in [1, 7, 3] {
            let entry = t.entry(tag: 0x0001, type: type, count: 4, inline: Array("R03".utf8) + [0])
            #expect(ExifColorHint.interoperabilityIndex(inTIFF: t.standard(entry)) == nil, "type \(type)")
        }
    }

    @Test("IFDs whose entry counts run past the end are cut short, not read past it", arguments: [true, false])
    func entryCountOverflow(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let index = t.index("R03")
        for (offset, entries) in [
            (8, 0xFFFF), (InteropTIFF.exifIFD, 0xFFFF), (InteropTIFF.interopIFD, 0xFFFF), (InteropTIFF.interopIFD, 3),
        ] {
            var tiff = t.standard(index)
            tiff.replaceSubrange(offset..<offset + 2, with: t.b.u16(entries))
            // The tags sought come first in each IFD, so they are found before the count runs out, except where
            // the count makes the IFD span every later one: then a pointer into it is a pointer back.
            let value = ExifColorHint.interoperabilityIndex(inTIFF: tiff)
            #expect(value == nil || value == "R03", "\(entries) entries at \(offset)")
        }
        // An Interoperability IFD whose index entry is its third, behind a count that runs past the end.
        let late = t.layout([
            (8, t.ifd0()), (InteropTIFF.exifIFD, t.exif()),
            (
                InteropTIFF.interopIFD,
                t.b.u16(0xFFFF) + t.entry(tag: 0x0002, type: 7, count: 4, inline: [0x30, 0x31, 0x30, 0x30])
            ),
        ])
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: late) == nil)
        // An IFD cut in the middle of the entry holding the tag.
        let full = t.standard(index)
        #expect(ExifColorHint.interoperabilityIndex(inTIFF: Array(full[0..<(InteropTIFF.interopIFD + 2 + 11)])) == nil)
        #expect(
            ExifColorHint.interoperabilityIndex(inTIFF: Array(full[0..<(InteropTIFF.interopIFD + 2 + 12)])) == "R03")
    }

    @Test("every truncation of a valid structure gives nil or R03, never a trap", arguments: [true, false])
    func truncations(littleEndian: Bool) {
        let t = InteropTIFF(littleEndian: littleEndian)
        let inline = t.standard(t.index("R03"))
        let outOfLine = t.standard(
            t.entry(tag: 0x0001, type: 2, count: 6, long: InteropTIFF.end), tail: Array("R03\0\0\0".utf8))
        for tiff in [inline, outOfLine] {
            for length in 0...tiff.count {
                let value = ExifColorHint.interoperabilityIndex(inTIFF: Array(tiff[0..<length]))
                #expect(value == nil || value == "R03", "cut at \(length)")
            }
        }
    }

    @Test("the orientation and the hint are read from the same structure")
    func withOrientation() {
        for littleEndian in [true, false] {
            let t = InteropTIFF(littleEndian: littleEndian)
            let tiff = t.layout([
                (
                    8,
                    t.ifd([
                        t.b.entry(tag: 0x0112, type: 3, count: 1, short: 6),
                        t.pointer(tag: 0x8769, to: InteropTIFF.exifIFD),
                    ])
                ),
                (InteropTIFF.exifIFD, t.exif()), (InteropTIFF.interopIFD, t.interop(t.index("R03"))),
            ])
            #expect(ExifOrientationParser.orientation(inTIFF: tiff) == .right)
            #expect(ExifColorHint.isAdobeRGB(inTIFF: tiff))
        }
    }

    @Test("well-formed structures with other tags and IFDs anywhere give the index written (seeded sweep)")
    func validStructures() {
        sweep("a well-formed structure gives its index", seed: 0xA005_0001, cases: 1500) { rng in
            let t = InteropTIFF(littleEndian: rng.chance(0.5))
            func others(_ tags: ClosedRange<Int>) -> [[UInt8]] {
                (0..<rng.int(0...12)).map { _ in
                    t.entry(
                        tag: rng.int(tags), type: rng.int(1...12), count: rng.int(0...1000),
                        long: rng.int(0...0xFFFF_FFFF))
                }
            }
            let text = String((0..<rng.int(0...3)).map { _ in Character(Unicode.Scalar(UInt8(rng.int(0x20...0x7E)))) })
            var ifd0 = others(0x0100...0x0111)
            var exif = others(0x9000...0x9FFF)
            var interop = others(0x0002...0x00FF)
            // Each IFD's size is known before the offsets are drawn; put them in a random order with random gaps.
            let sizes = [ifd0.count + 1, exif.count + 1, interop.count + 1].map { 2 + $0 * 12 + 4 }
            var offsets = [0, 0, 0]
            var next = 8
            for i in [0, 1, 2].shuffled(using: &rng) {
                next += 2 * rng.int(0...20)
                offsets[i] = next
                next += sizes[i]
            }
            ifd0.insert(t.pointer(tag: 0x8769, to: offsets[1], type: rng.pick([4, 13])), at: rng.int(0...ifd0.count))
            exif.insert(t.pointer(tag: 0xA005, to: offsets[2], type: rng.pick([4, 13])), at: rng.int(0...exif.count))
            interop.insert(t.index(text), at: rng.int(0...interop.count))
            let tiff = t.layout(
                ifd0: offsets[0], [(offsets[0], t.ifd(ifd0)), (offsets[1], t.ifd(exif)), (offsets[2], t.ifd(interop))])
            let value = ExifColorHint.interoperabilityIndex(inTIFF: tiff)
            return value == text ? nil : "read \(value ?? "nil"), wrote \(text)"
        }
    }

    @Test("seeded random and mutated structures never trap and give nil or a short ASCII index")
    func mutations() {
        sweep("a mutated structure gives nil or ASCII no longer than the bytes", seed: 0xA005_0003, cases: 6000) {
            rng in
            let t = InteropTIFF(littleEndian: rng.chance(0.5))
            var tiff: [UInt8]
            switch rng.int(below: 4) {
            case 0:
                // Random bytes behind a plausible header: offsets and counts point anywhere.
                tiff =
                    t.layout(ifd0: rng.int(0...120), []) + (0..<rng.int(0...160)).map { _ in UInt8(rng.int(0...255)) }
            case 1:
                // A valid structure with a few bytes overwritten.
                let inline = rng.chance(0.5)
                let entry = inline ? t.index("R03") : t.entry(tag: 1, type: 2, count: 6, long: InteropTIFF.end)
                tiff = t.standard(entry, tail: Array("R03\0\0\0".utf8))
                for _ in 0..<rng.int(1...6) { tiff[rng.int(below: tiff.count)] = UInt8(rng.int(0...255)) }
            case 2:
                // A valid structure with one 4-byte field replaced by an extreme or nearby value (offsets, counts).
                tiff = t.standard(t.index("R03"))
                let at = rng.int(0...(tiff.count - 4))
                let near = rng.int(0...120)
                let value = rng.pick([0, 1, 4, 8, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, tiff.count, near])
                tiff.replaceSubrange(
                    at..<at + 4, with: rng.chance(0.5) ? t.b.u32(value) : t.b.u16(value) + t.b.u16(value))
            default:
                // A valid structure cut anywhere, then mutated.
                tiff = t.standard(t.index("R98"))
                let cut = rng.int(0...tiff.count)
                tiff.removeLast(cut)
                if !tiff.isEmpty { tiff[rng.int(below: tiff.count)] = UInt8(rng.int(0...255)) }
            }
            guard let value = ExifColorHint.interoperabilityIndex(inTIFF: tiff) else { return nil }
            if value.utf8.count > tiff.count || !value.utf8.allSatisfy({ $0 != 0 && $0 < 0x80 }) {
                return "read \(value.utf8.count) bytes from \(tiff.count): \(Array(value.utf8))"
            }
            _ = ExifColorHint.isAdobeRGB(inTIFF: tiff)
            return nil
        }
    }
}
