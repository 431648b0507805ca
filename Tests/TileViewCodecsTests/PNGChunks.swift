/// Takes PNG files apart into chunks and puts them back together, for building test files
/// (APNG frames, eXIf chunks, forged headers) around what the encoder writes.
enum PNGChunks {
    struct Chunk {
        var type: String
        var data: [UInt8]
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks of a well-formed PNG, in order.
    static func split(_ png: [UInt8]) -> [Chunk] {
        var chunks: [Chunk] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(bigEndian32(png, at: i))
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            chunks.append(Chunk(type: type, data: Array(png[(i + 8)..<(i + 8 + length)])))
            i += 12 + length
        }
        return chunks
    }

    /// A PNG file of these chunks, each with its length and CRC.
    static func join(_ chunks: [Chunk]) -> [UInt8] {
        var out = signature
        for chunk in chunks {
            let typeBytes = Array(chunk.type.utf8)
            out += bytes32(UInt32(chunk.data.count))
            out += typeBytes
            out += chunk.data
            out += bytes32(crc32(typeBytes + chunk.data))
        }
        return out
    }

    static func bytes32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func bytes16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    static func bigEndian32(_ bytes: [UInt8], at i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
    }

    /// CRC-32 as PNG uses it (ISO 3309, reflected, polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// Builds TIFF structures (the payload of EXIF) in either byte order.
struct TIFFBuilder {
    var littleEndian: Bool

    func u16(_ value: Int) -> [UInt8] {
        let v = UInt16(truncatingIfNeeded: value)
        return littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)]
    }

    func u32(_ value: Int) -> [UInt8] {
        let v = UInt32(truncatingIfNeeded: value)
        let big = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return littleEndian ? big.reversed() : big
    }

    /// One IFD entry: tag, type, count and the 4-byte value field (a SHORT sits in its first two bytes).
    func entry(tag: Int, type: Int, count: Int, short value: Int) -> [UInt8] {
        u16(tag) + u16(type) + u32(count) + u16(value) + [0, 0]
    }

    /// A TIFF header and IFD0 holding `entries`, with IFD0 at `ifdOffset` (padding before it).
    func tiff(entries: [[UInt8]], ifdOffset: Int = 8) -> [UInt8] {
        var out: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        out += u16(42) + u32(ifdOffset)
        out += [UInt8](repeating: 0, count: max(0, ifdOffset - 8))
        out += u16(entries.count)
        for e in entries { out += e }
        out += u32(0)  // no next IFD
        return out
    }

    /// A TIFF whose IFD0 has a few other tags and then Orientation = `value`.
    func orientationTIFF(_ value: Int) -> [UInt8] {
        tiff(entries: [
            entry(tag: 0x010F, type: 2, count: 1, short: 0),  // Make (ASCII), value ignored
            entry(tag: 0x0110, type: 2, count: 1, short: 0),  // Model
            entry(tag: 0x0112, type: 3, count: 1, short: value),
            entry(tag: 0x011A, type: 5, count: 1, short: 0),  // XResolution (RATIONAL)
        ])
    }
}

/// A minimal JPEG marker stream: SOI, the given APPn segments, then SOS and EOI (no image data;
/// only the EXIF parser reads it).
func jpegMarkers(_ segments: [(marker: UInt8, data: [UInt8])]) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    for segment in segments {
        out += [0xFF, segment.marker] + PNGChunks.bytes16(UInt16(segment.data.count + 2)) + segment.data
    }
    return out + [0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
}

let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
