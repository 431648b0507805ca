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
        let base = tiff.startIndex
        let count = tiff.count
        func byte(_ offset: Int) -> Int { Int(tiff[base + offset]) }
        guard count >= 8 else { return nil }
        let littleEndian: Bool
        switch (byte(0), byte(1)) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        // Callers check `offset + 2 <= count` / `offset + 4 <= count` first.
        func u16(_ offset: Int) -> Int {
            littleEndian ? byte(offset) | byte(offset + 1) << 8 : byte(offset) << 8 | byte(offset + 1)
        }
        func u32(_ offset: Int) -> Int {
            littleEndian
                ? u16(offset) | u16(offset + 2) << 16
                : u16(offset) << 16 | u16(offset + 2)
        }
        guard u16(2) == 42 else { return nil }
        let ifd = u32(4)
        guard ifd >= 8, ifd <= count - 2 else { return nil }
        let entries = u16(ifd)
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard entry <= count - 12 else { return nil }
            guard u16(entry) == 0x0112 else { continue }
            // Type 3 = SHORT; count >= 1; a SHORT fits in the value field, so it is stored there.
            guard u16(entry + 2) == 3, u32(entry + 4) >= 1 else { return nil }
            return u16(entry + 8)
        }
        return nil
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
