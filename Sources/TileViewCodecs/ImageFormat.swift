import CImageCodecs

/// An image file format tileview decodes, told apart by the file's first bytes, never its name.
public enum ImageFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case png
    case jpeg
    case webp
    /// HEIF with HEVC (HEIC, what phones write), or any HEIF brand other than AVIF's.
    case heif
    /// HEIF with AV1.
    case avif
    case tiff
    case gif

    /// How many leading bytes `sniff` and `describeUnknown` look at (an ISO media file's brands are in its first
    /// 32).
    public static let sniffLength = 32

    /// The format whose signature starts `prefix`: PNG's eight-byte signature, JPEG's SOI marker followed by the
    /// 0xFF of the next marker, RIFF with WEBP, an ISO media `ftyp` box naming a HEIF or AVIF brand, TIFF's or
    /// BigTIFF's byte-order mark, or GIF87a/GIF89a. Nil for anything else.
    public static func sniff(_ prefix: [UInt8]) -> ImageFormat? {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + signature.count
                && prefix[offset..<offset + signature.count].elementsEqual(signature)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) || starts([0x49, 0x49, 0x2B, 0x00])
            || starts([0x4D, 0x4D, 0x00, 0x2B])
        {
            return .tiff
        }
        if let brands = isoMediaBrands(prefix) {
            if brands.contains(where: { avifBrands.contains($0) }) { return .avif }
            if brands.contains(where: { heifBrands.contains($0) }) { return .heif }
        }
        return nil
    }

    /// The brands of an ISO media file's `ftyp` box (major first, then the compatible ones within the prefix), or
    /// nil when the prefix does not start with one.
    static func isoMediaBrands(_ prefix: [UInt8]) -> [String]? {
        guard prefix.count >= 12, prefix[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(prefix[0]) << 24 | Int(prefix[1]) << 16 | Int(prefix[2]) << 8 | Int(prefix[3])
        func brand(at offset: Int) -> String { String(decoding: prefix[offset..<offset + 4], as: UTF8.self) }
        var brands = [brand(at: 8)]
        var offset = 16
        while offset + 4 <= min(prefix.count, boxSize) {
            brands.append(brand(at: offset))
            offset += 4
        }
        return brands
    }

    /// HEIF brands of still images and sequences whose codec is HEVC or unnamed (libheif reads all of them).
    static let heifBrands: Set<String> = [
        "heic", "heix", "hevc", "hevx", "heim", "heis", "hevm", "hevs", "mif1", "msf1",
    ]
    static let avifBrands: Set<String> = ["avif", "avis"]

    /// The name people use for the format.
    public var description: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        case .heif: return "HEIF"
        case .avif: return "AVIF"
        case .tiff: return "TIFF"
        case .gif: return "GIF"
        }
    }

    /// Why bytes that are none of the formats above were refused, naming well-known other formats.
    static func describeUnknown(_ prefix: [UInt8]) -> String {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + signature.count
                && prefix[offset..<offset + signature.count].elementsEqual(signature)
        }
        let other: String?
        if let brands = isoMediaBrands(prefix) {
            other = "an ISO media file of brand '\(brands[0])' (not HEIF or AVIF)"
        } else if starts(Array("BM".utf8)) {
            other = "a BMP file"
        } else if starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) || starts([0xFF, 0x0A]) {
            other = "a JPEG XL file"
        } else if starts(Array("%PDF".utf8)) {
            other = "a PDF file"
        } else if starts(Array("RIFF".utf8)) {
            other = "a RIFF file that is not WebP"
        } else {
            other = nil
        }
        let supported = "PNG, JPEG, WebP, HEIF, AVIF, TIFF and GIF are supported"
        if let other { return "this is \(other); \(supported)" }
        let hex = prefix.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "not an image file tileview reads (it starts with \(hex.joined(separator: " "))); \(supported)"
    }

    /// The shim's format of the row decoder (nil for PNG and JPEG, which have their own readers).
    var rowDecoderFormat: tv_image_format? {
        switch self {
        case .png, .jpeg: nil
        case .webp: TV_IMAGE_WEBP
        case .heif, .avif: TV_IMAGE_HEIF
        case .tiff: TV_IMAGE_TIFF
        case .gif: TV_IMAGE_GIF
        }
    }
}
