/// What a photo's EXIF says about how it was taken (docs/design.md section 17's info panel): camera, lens,
/// exposure, aperture, ISO, focal length, date taken and GPS position. Read from the header's EXIF (no pixel is
/// decoded); each field is nil when absent or malformed.
///
/// The input is untrusted, read as `ExifOrientationParser` and `ExifColorHint` read it: every offset and count is
/// checked, IFD0, the Exif IFD (0x8769) and the GPS IFD (0x8825) are each read once, a pointer back into an IFD
/// already read gives nothing, and text is kept to printable ASCII of at most 64 bytes.
public struct ExifFields: Codable, Sendable, Equatable {
    /// Make and model (0x010F, 0x0110), the make left out when the model already starts with it.
    public var camera: String?
    /// LensModel (0xA434).
    public var lens: String?
    /// ExposureTime (0x829A) as a photographer writes it: "1/250 s", "0.5 s", "2 s".
    public var exposure: String?
    /// FNumber (0x829D).
    public var fNumber: Double?
    /// PhotographicSensitivity (0x8827).
    public var iso: Int?
    /// FocalLength (0x920A), millimetres.
    public var focalLength: Double?
    /// DateTimeOriginal (0x9003) as stored: "YYYY:MM:DD HH:MM:SS".
    public var taken: String?
    /// GPS latitude and longitude in degrees (north and east positive).
    public var latitude: Double?
    public var longitude: Double?

    public init() {}

    /// Whether no field is known.
    public var isEmpty: Bool { self == ExifFields() }

    /// The fields of a TIFF structure (the payload of a JPEG APP1 "Exif\0\0" segment, a PNG eXIf chunk, a HEIF or
    /// WebP Exif block); nil when it holds none of them.
    public static func read(inTIFF bytes: [UInt8]) -> ExifFields? {
        guard let structure = TIFFStructure(bytes[...]), let ifd0 = structure.ifd0 else { return nil }
        var fields = ExifFields()
        var visited = [structure.span(ofIFDAt: ifd0)]
        let make = text(structure, 0x010F, ifd0)
        let model = text(structure, 0x0110, ifd0)
        if let model, let make, !model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first ?? "") {
            fields.camera = make + " " + model
        } else {
            fields.camera = model ?? make
        }
        if let entry = structure.entry(tag: 0x8769, inIFDAt: ifd0),
            let exif = structure.ifdPointer(at: entry, outside: visited)
        {
            visited.append(structure.span(ofIFDAt: exif))
            fields.lens = text(structure, 0xA434, exif)
            if let time = rationals(structure, 0x829A, exif, count: 1)?.first, time > 0 {
                fields.exposure = time < 1 ? "1/\(Int((1 / time).rounded())) s" : "\(formatted(time)) s"
            }
            fields.fNumber = rationals(structure, 0x829D, exif, count: 1)?.first.map { ($0 * 10).rounded() / 10 }
            fields.iso = short(structure, 0x8827, exif)
            fields.focalLength = rationals(structure, 0x920A, exif, count: 1)?.first.map { ($0 * 10).rounded() / 10 }
            fields.taken = text(structure, 0x9003, exif)
        }
        if let entry = structure.entry(tag: 0x8825, inIFDAt: ifd0),
            let gps = structure.ifdPointer(at: entry, outside: visited)
        {
            func degrees(_ tag: Int, _ refTag: Int, negative: String) -> Double? {
                guard let dms = rationals(structure, tag, gps, count: 3), let ref = text(structure, refTag, gps) else {
                    return nil
                }
                let value = dms[0] + dms[1] / 60 + dms[2] / 3600
                guard value.isFinite else { return nil }
                return ((ref == negative ? -value : value) * 1e6).rounded() / 1e6
            }
            fields.latitude = degrees(0x0002, 0x0001, negative: "S").flatMap { abs($0) <= 90 ? $0 : nil }
            fields.longitude = degrees(0x0004, 0x0003, negative: "W").flatMap { abs($0) <= 180 ? $0 : nil }
        }
        return fields.isEmpty ? nil : fields
    }

    /// `value` with at most one decimal, and none when it is whole.
    static func formatted(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// The ASCII value of `tag` in the IFD at `ifd`: printable characters, trimmed, at most 64; nil when empty.
    static func text(_ structure: TIFFStructure, _ tag: Int, _ ifd: Int) -> String? {
        guard let entry = structure.entry(tag: tag, inIFDAt: ifd), let value = structure.ascii(at: entry) else {
            return nil
        }
        let printable = value.prefix(64).filter { $0 >= 0x20 && $0 < 0x7F }
        let text = String(decoding: printable, as: Unicode.ASCII.self).trimmed(" ")
        return text.isEmpty ? nil : text
    }

    /// The first value of `tag` when it is a SHORT or LONG.
    static func short(_ structure: TIFFStructure, _ tag: Int, _ ifd: Int) -> Int? {
        guard let entry = structure.entry(tag: tag, inIFDAt: ifd), structure.u32(entry + 4) >= 1 else { return nil }
        switch structure.u16(entry + 2) {
        case 3: return structure.u16(entry + 8)
        case 4: return structure.u32(entry + 8)
        default: return nil
        }
    }

    /// `count` RATIONALs (type 5) of `tag`, stored at the offset the entry holds, which must lie inside the bytes;
    /// nil when absent, of another type or count, or a denominator is 0.
    static func rationals(_ structure: TIFFStructure, _ tag: Int, _ ifd: Int, count: Int) -> [Double]? {
        guard let entry = structure.entry(tag: tag, inIFDAt: ifd), structure.u16(entry + 2) == 5,
            structure.u32(entry + 4) == count
        else { return nil }
        let offset = structure.u32(entry + 8)
        guard offset >= 8, offset <= structure.count - 8 * count else { return nil }
        var values: [Double] = []
        for n in 0..<count {
            let numerator = structure.u32(offset + 8 * n)
            let denominator = structure.u32(offset + 8 * n + 4)
            guard denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }
}

extension String {
    /// The string without `character` at either end.
    fileprivate func trimmed(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
