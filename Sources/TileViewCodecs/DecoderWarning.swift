/// Sorts the warnings decoders report into benign notes and the ones a user must see.
///
/// libpng reports a problem in an ancillary chunk (colour profile, gamma, text, time, physical
/// size, background, significant bits, EXIF...) as a warning and skips the chunk: the pixels are
/// exactly what they would be without the chunk, because decoding applies no colour management
/// (docs/design.md section 8). Such a warning is benign. libpng prefixes it with the chunk's name, and the
/// PNG specification marks a chunk ancillary by a lowercase first letter, so `iCCP: known
/// incorrect sRGB profile`, `tEXt: CRC error` or `gAMA: gamma value does not match sRGB` are
/// recognised by their prefix alone.
///
/// Everything else matters: a warning about a critical chunk (`IHDR`, `PLTE`, `IDAT`, `IEND`), any
/// libjpeg warning (premature end, corrupt data: kept only in lenient mode), and the error that cut
/// a lenient decode short.
public enum DecoderWarning {
    /// True when `text`, one warning as a decoder reports it (possibly with a ` (N times)` tally),
    /// is a libpng note about an ancillary chunk that leaves the pixels unchanged.
    public static func isBenign(_ text: String) -> Bool {
        let bytes = Array(text.utf8.prefix(6))
        guard bytes.count == 6, bytes[4] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: " ") else { return false }
        let name = bytes[0..<4]
        guard name.allSatisfy(isASCIILetter) else { return false }
        // Bit 5 of the first byte set (a lowercase letter): the chunk is ancillary.
        return isASCIILowercase(name[name.startIndex])
    }

    /// True when some tail of `line` after a `": "` separator (or the whole line) is a benign
    /// warning: for lines that name their file first, `photo.png: iCCP: known incorrect sRGB profile`.
    public static func isBenign(line: String) -> Bool {
        if isBenign(line) { return true }
        var rest = Substring(line)
        while let separator = rest.firstRange(of: ": ") {
            rest = rest[separator.upperBound...]
            if isBenign(String(rest)) { return true }
        }
        return false
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || isASCIILowercase(byte)
    }

    private static func isASCIILowercase(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
