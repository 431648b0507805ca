/// The colour hint of EXIF for a source with no ICC profile: the InteroperabilityIndex of the
/// Interoperability IFD, where "R03" means Adobe RGB (1998) (the DCF rule; "R98" is the sRGB
/// basic rule, "THM" a thumbnail).
///
/// The path is IFD0's tag 0x8769 (the Exif IFD pointer), then the Exif IFD's tag 0xA005 (the
/// Interoperability IFD pointer), then that IFD's tag 0x0001 (ASCII). The input is untrusted, as
/// for `ExifOrientationParser`: every offset and count is checked against the bytes before it is
/// used, nothing is allocated from a count, each of the three IFDs is read at most once, and a
/// pointer that falls outside the bytes or back into an IFD already read gives nil, so the work
/// is bounded by the input length and cannot loop.
public enum ExifColorHint {
    /// The InteroperabilityIndex in a TIFF structure ("II" or "MM" byte order; the payload of a
    /// JPEG APP1 "Exif\0\0" segment or a PNG eXIf chunk), up to its first NUL, or nil when there
    /// is none or a step of the way to it is malformed. Only 7-bit ASCII is returned.
    public static func interoperabilityIndex(inTIFF bytes: [UInt8]) -> String? {
        interoperabilityIndex(inTIFFSlice: bytes[...])
    }

    /// Whether the InteroperabilityIndex of a TIFF structure is "R03": Adobe RGB (1998).
    public static func isAdobeRGB(inTIFF bytes: [UInt8]) -> Bool {
        interoperabilityIndex(inTIFF: bytes) == "R03"
    }

    static func interoperabilityIndex(inTIFFSlice tiff: ArraySlice<UInt8>) -> String? {
        guard let structure = TIFFStructure(tiff), let ifd0 = structure.ifd0 else { return nil }
        var visited = [structure.span(ofIFDAt: ifd0)]
        guard let exifEntry = structure.entry(tag: 0x8769, inIFDAt: ifd0),
            let exifIFD = structure.ifdPointer(at: exifEntry, outside: visited)
        else { return nil }
        visited.append(structure.span(ofIFDAt: exifIFD))
        guard let interopEntry = structure.entry(tag: 0xA005, inIFDAt: exifIFD),
            let interopIFD = structure.ifdPointer(at: interopEntry, outside: visited),
            let indexEntry = structure.entry(tag: 0x0001, inIFDAt: interopIFD),
            let value = structure.ascii(at: indexEntry),
            value.allSatisfy({ $0 < 0x80 })
        else { return nil }
        return String(decoding: value, as: Unicode.ASCII.self)
    }
}
