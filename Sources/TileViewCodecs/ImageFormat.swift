/// An image file format tileview decodes, told apart by the file's first bytes, never its name.
public enum ImageFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    case png
    case jpeg

    /// How many leading bytes `sniff` and `describeUnknown` look at.
    public static let sniffLength = 16

    /// The format whose signature starts `prefix`: PNG's eight-byte signature, or JPEG's SOI
    /// marker followed by the 0xFF of the next marker. Nil for anything else.
    public static func sniff(_ prefix: [UInt8]) -> ImageFormat? {
        if prefix.count >= 8 && prefix[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if prefix.count >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF {
            return .jpeg
        }
        return nil
    }

    /// The name people use for the format.
    public var description: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        }
    }

    /// Why bytes that are neither PNG nor JPEG were refused, naming well-known other formats.
    static func describeUnknown(_ prefix: [UInt8]) -> String {
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + signature.count
                && prefix[offset..<offset + signature.count].elementsEqual(signature)
        }
        let other: String?
        if starts(Array("GIF8".utf8)) {
            other = "GIF"
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            other = "WebP"
        } else if starts(Array("ftyp".utf8), at: 4) {
            other = "HEIF/AVIF"
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            other = "TIFF"
        } else if starts(Array("BM".utf8)) {
            other = "BMP"
        } else {
            other = nil
        }
        if let other { return "this is a \(other) file; only PNG and JPEG are supported" }
        let hex = prefix.prefix(8).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "not a PNG or JPEG file (it starts with \(hex.joined(separator: " ")))"
    }
}
