/// Editing a JPEG's marker segments in tests.
public enum JPEGSegments {
    /// `jpeg` without its segments of `marker` (0xE2: the APP2 ICC_PROFILE markers), walked by their lengths up to
    /// the first SOS; the entropy-coded data after it is kept as it is.
    public static func removing(_ marker: UInt8, from jpeg: [UInt8]) -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard at + 2 + length <= jpeg.count else { break }
            if jpeg[at + 1] != marker { out += jpeg[at..<(at + 2 + length)] }
            at += 2 + length
        }
        return out + jpeg[min(at, jpeg.count)...]
    }
}
