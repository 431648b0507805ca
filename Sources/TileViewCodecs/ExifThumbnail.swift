/// The JPEG thumbnail a camera embeds in a JPEG's EXIF (IFD1's JPEGInterchangeFormat and
/// JPEGInterchangeFormatLength, tags 0x0201 and 0x0202): a viewer's placeholder that costs no decode.
///
/// The input is untrusted, read as `ExifOrientationParser` reads it: every offset and length is checked against
/// the bytes, IFD1 must lie outside IFD0, and the thumbnail must start with a JPEG's SOI and end with its EOI.
/// The thumbnail is stored as the camera wrote it, in the stored orientation (not turned by the Orientation tag).
public enum ExifThumbnail {
    /// The thumbnail's bytes in the first APP1 "Exif\0\0" segment of `bytes` (the start of a JPEG file, up to its
    /// first scan), or nil when there is none.
    public static func jpeg(inJPEG bytes: [UInt8]) -> [UInt8]? {
        guard let payload = ExifOrientationParser.firstExifPayload(inJPEG: bytes) else { return nil }
        return jpeg(inTIFF: payload)
    }

    /// The thumbnail in an EXIF TIFF structure, or nil.
    static func jpeg(inTIFF tiff: ArraySlice<UInt8>) -> [UInt8]? {
        guard let structure = TIFFStructure(tiff), let ifd0 = structure.ifd0 else { return nil }
        let next = ifd0 + 2 + structure.u16(ifd0) * 12
        guard next <= structure.count - 4 else { return nil }
        let ifd1 = structure.u32(next)
        guard structure.isIFDOffset(ifd1), !structure.span(ofIFDAt: ifd0).contains(ifd1),
            let start = long(structure, tag: 0x0201, ifd: ifd1), let length = long(structure, tag: 0x0202, ifd: ifd1),
            length >= 4, start >= 8, start <= structure.count - length
        else { return nil }
        let base = tiff.startIndex + start
        let thumbnail = Array(tiff[base..<(base + length)])
        guard thumbnail[0] == 0xFF, thumbnail[1] == 0xD8, thumbnail[2] == 0xFF,
            thumbnail[length - 2] == 0xFF, thumbnail[length - 1] == 0xD9
        else { return nil }
        return thumbnail
    }

    /// `thumbnail` with an EXIF segment of its own right after its SOI holding only `orientation` (1 to 8), so
    /// that a browser turns it as the image is turned (a thumbnail is stored unturned, and carries no EXIF); the
    /// thumbnail as it is for orientation 1.
    public static func oriented(_ thumbnail: [UInt8], orientation: Int) -> [UInt8] {
        guard (2...8).contains(orientation), thumbnail.count >= 2 else { return thumbnail }
        let segment: [UInt8] = [
            0xFF, 0xE1, 0x00, 0x22,  // APP1, 34 bytes with the length
            0x45, 0x78, 0x69, 0x66, 0x00, 0x00,  // "Exif\0\0"
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // big-endian TIFF, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(orientation), 0x00, 0x00,  // Orientation
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        return Array(thumbnail[0..<2]) + segment + Array(thumbnail[2...])
    }

    /// The value of the entry `tag` of the IFD at `ifd` when it is one LONG (or one SHORT).
    private static func long(_ structure: TIFFStructure, tag: Int, ifd: Int) -> Int? {
        guard let entry = structure.entry(tag: tag, inIFDAt: ifd), structure.u32(entry + 4) == 1 else { return nil }
        switch structure.u16(entry + 2) {
        case 4: return structure.u32(entry + 8)
        case 3: return structure.u16(entry + 8)
        default: return nil
        }
    }
}
