import TileViewCore

/// Finds the EXIF Orientation tag (0x0112) in JPEG bytes or in a TIFF structure (a PNG eXIf
/// chunk, or the payload of a JPEG APP1 "Exif\0\0" segment).
///
/// The input is untrusted: every offset and count is checked against the bytes before it is
/// used, nothing is allocated from a count, and only IFD0 is read (no IFD chain is
/// followed), so the work is bounded by the input length and cannot loop.
public enum ExifOrientationParser {
    /// The orientation in the first APP1 "Exif\0\0" segment of a JPEG, or nil when the JPEG has
    /// none before its first scan or that segment has no usable Orientation tag.
    /// Values outside 1...8 give `.up`, as viewers treat them.
    public static func orientation(inJPEG bytes: [UInt8]) -> ImageOrientation? {
        exifValue(inJPEG: bytes).map(ImageOrientation.init(exifValue:))
    }

    /// The orientation in a TIFF structure ("II" or "MM" byte order, IFD0), or nil.
    public static func orientation(inTIFF bytes: [UInt8]) -> ImageOrientation? {
        exifValue(inTIFF: bytes).map(ImageOrientation.init(exifValue:))
    }

    /// The raw Orientation value of the first APP1 "Exif\0\0" segment (any value, 0 included), or nil.
    public static func exifValue(inJPEG bytes: [UInt8]) -> Int? {
        guard let payload = firstExifPayload(inJPEG: bytes) else { return nil }
        return exifValue(inTIFFSlice: payload)
    }

    /// The raw Orientation value in a TIFF structure, or nil.
    public static func exifValue(inTIFF bytes: [UInt8]) -> Int? {
        exifValue(inTIFFSlice: bytes[...])
    }

    static func exifValue(inTIFFSlice tiff: ArraySlice<UInt8>) -> Int? {
        guard let structure = TIFFStructure(tiff), let ifd0 = structure.ifd0,
            let entry = structure.entry(tag: 0x0112, inIFDAt: ifd0)
        else { return nil }
        // Type 3 = SHORT; count >= 1; a SHORT fits in the value field, so it is stored there.
        guard structure.u16(entry + 2) == 3, structure.u32(entry + 4) >= 1 else { return nil }
        return structure.u16(entry + 8)
    }

    /// The bytes after "Exif\0\0" in the first APP1 segment that starts with it, if one comes
    /// before the first scan. Walks the marker segments by their lengths; stray bytes between
    /// segments are skipped as libjpeg skips them.
    static func firstExifPayload(inJPEG bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let count = bytes.count
        guard count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var i = 2
        while i < count {
            // Find the next 0xFF, then skip fill bytes (0xFF repeated).
            guard bytes[i] == 0xFF else {
                i += 1
                continue
            }
            while i < count && bytes[i] == 0xFF { i += 1 }
            guard i < count else { return nil }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0xD9, 0xDA:  // EOI, SOS: no metadata segment follows in the header
                return nil
            case 0x00, 0x01, 0xD0...0xD8:  // stuffed byte, TEM, RSTn, SOI: no length
                continue
            default:
                break
            }
            guard i <= count - 2 else { return nil }
            let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            if length < 2 && ((0xE0...0xEF).contains(marker) || marker == 0xFE || marker == 0xDC) {
                // libjpeg reads an APPn, COM or DNL length under 2 as an empty segment and goes
                // on after the length bytes (it keeps no APP1 from it); so must the walk, or it
                // misses an Exif segment that libjpeg, and so `ImageHeader`, sees.
                i += 2
                continue
            }
            guard length >= 2, length <= count - i else { return nil }
            let data = (i + 2)..<(i + length)
            if marker == 0xE1 && data.count >= 6
                && bytes[data.lowerBound..<data.lowerBound + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
            {
                return bytes[(data.lowerBound + 6)..<data.upperBound]
            }
            i += length
        }
        return nil
    }
}

/// A checked reading of a TIFF structure (the payload of EXIF): its byte order, its header and
/// the entries of its IFDs, shared by the Exif readers of this module.
///
/// The bytes are untrusted. Offsets that come from the bytes (IFD offsets, pointers) are checked
/// by the methods that take them; `u16` and `u32` themselves trust their caller to have checked
/// `offset + 2 <= count` / `offset + 4 <= count` first.
struct TIFFStructure {
    let bytes: ArraySlice<UInt8>
    let littleEndian: Bool

    /// The number of bytes of the structure; offsets run from 0 (the byte-order mark).
    var count: Int { bytes.count }

    /// nil unless the bytes start with a TIFF header: "II" or "MM", then 42.
    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= 8 else { return nil }
        let base = bytes.startIndex
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        self.bytes = bytes
        guard u16(2) == 42 else { return nil }
    }

    func byte(_ offset: Int) -> Int { Int(bytes[bytes.startIndex + offset]) }

    func u16(_ offset: Int) -> Int {
        littleEndian ? byte(offset) | byte(offset + 1) << 8 : byte(offset) << 8 | byte(offset + 1)
    }

    func u32(_ offset: Int) -> Int {
        littleEndian ? u16(offset) | u16(offset + 2) << 16 : u16(offset) << 16 | u16(offset + 2)
    }

    /// The offset of IFD0, when it lies past the header with room for its entry count.
    var ifd0: Int? { isIFDOffset(u32(4)) ? u32(4) : nil }

    /// Whether an IFD may start at `offset`: past the 8-byte header, with its 2-byte entry count
    /// inside the bytes.
    func isIFDOffset(_ offset: Int) -> Bool { offset >= 8 && offset <= count - 2 }

    /// The offset of the first 12-byte entry with `tag` in the IFD at `ifd` (an offset that passed
    /// `isIFDOffset`), or nil when the IFD has none or is cut short before it. The work is bounded
    /// by the bytes: an entry count past the end stops at the first entry that does not fit.
    func entry(tag: Int, inIFDAt ifd: Int) -> Int? {
        for index in 0..<u16(ifd) {
            let entry = ifd + 2 + index * 12
            guard entry <= count - 12 else { return nil }
            if u16(entry) == tag { return entry }
        }
        return nil
    }

    /// The bytes the IFD at `ifd` spans as far as they are present: its entry count and its
    /// entries (not the next-IFD offset nor the values stored elsewhere), so that a pointer into
    /// an IFD already read can be refused.
    func span(ofIFDAt ifd: Int) -> Range<Int> {
        ifd..<min(count, ifd + 2 + u16(ifd) * 12)
    }

    /// The value of the entry at `entry` read as an offset to another IFD: type LONG (4) or IFD
    /// (13), count 1, pointing at a place an IFD may start outside every IFD in `visited`; nil
    /// otherwise, so that a pointer back into an IFD already read (a loop) gives nil.
    func ifdPointer(at entry: Int, outside visited: [Range<Int>]) -> Int? {
        let type = u16(entry + 2)
        guard type == 4 || type == 13, u32(entry + 4) == 1 else { return nil }
        let target = u32(entry + 8)
        guard isIFDOffset(target), !visited.contains(where: { $0.contains(target) }) else { return nil }
        return target
    }

    /// The bytes of the entry at `entry` when it is of type ASCII (2): the value field itself for
    /// a count up to 4, else the `count` bytes at the offset it holds, which must lie inside the
    /// structure; nil otherwise. The slice ends before the first NUL.
    func ascii(at entry: Int) -> ArraySlice<UInt8>? {
        guard u16(entry + 2) == 2 else { return nil }
        let length = u32(entry + 4)
        let start: Int
        if length <= 4 {
            start = entry + 8
        } else {
            start = u32(entry + 8)
            guard length <= count, start <= count - length else { return nil }
        }
        let value = bytes[(bytes.startIndex + start)..<(bytes.startIndex + start + length)]
        return value.firstIndex(of: 0).map { value[..<$0] } ?? value
    }
}
