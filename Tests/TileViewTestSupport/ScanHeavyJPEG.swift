import TileViewCore

/// Progressive JPEGs whose scans cost a pass over the image each (tests of the decoders' scan limit).
public enum ScanHeavyJPEG {
    /// A flat gray progressive JPEG of `size` (three components, 4:4:4): one interleaved DC scan, then for every
    /// component and every AC coefficient a scan of its own, refined `refinements` times (each scan valid and
    /// nothing but end-of-band runs, as a spec-abiding encoder could write it), then `repeats` copies of the last
    /// scan (a progression libjpeg warns about). 1 + 189 x (1 + refinements) + repeats scans.
    public static func progressive(_ size: PixelSize, refinements: Int, repeats: Int = 0) -> [UInt8] {
        func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        let blocks = ((size.width + 7) / 8) * ((size.height + 7) / 8)
        var bits = BitWriter()
        var file: [UInt8] = [0xFF, 0xD8]
        file += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        file += segment(0xC2, [8] + be16(size.height) + be16(size.width) + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
        // DC: one symbol, category 0, coded "0". AC: EOBr (r << 4) for r = 0...14, four bits each.
        file += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0])
        let endOfBandSymbols: [UInt8] = (0..<15).map { UInt8($0 << 4) }
        file += segment(0xC4, [0x10, 0, 0, 0, 15] + [UInt8](repeating: 0, count: 12) + endOfBandSymbols)
        func scan(_ components: [UInt8], _ coefficient: UInt8, _ high: Int, _ low: Int) -> [UInt8] {
            var body: [UInt8] = [UInt8(components.count)]
            for component in components { body += [component + 1, 0] }
            body += [coefficient, coefficient, UInt8(high << 4 | low)]
            return segment(0xDA, body)
        }
        for _ in 0..<blocks * 3 { bits.put(0, count: 1) }
        file += scan([0, 1, 2], 0, 0, 0) + bits.finish()
        var left = blocks
        while left > 0 {
            let run = min(left, 32_767)
            let r = Int.bitWidth - 1 - run.leadingZeroBitCount
            bits.put(r, count: 4)
            bits.put(run - 1 << r, count: r)
            left -= run
        }
        let endOfBands = bits.finish()
        var last: [UInt8] = []
        for component: UInt8 in 0..<3 {
            for coefficient: UInt8 in 1...63 {
                last = scan([component], coefficient, 0, refinements) + endOfBands
                file += last
                for low in stride(from: refinements - 1, through: 0, by: -1) {
                    last = scan([component], coefficient, low + 1, low) + endOfBands
                    file += last
                }
            }
        }
        for _ in 0..<repeats { file += last }
        return file + [0xFF, 0xD9]
    }

    /// Bits into bytes, most significant first, a 0 stuffed after each 0xFF; `finish` pads with ones.
    struct BitWriter {
        var bytes: [UInt8] = []
        var accumulator = 0
        var count = 0

        mutating func put(_ value: Int, count bits: Int) {
            for shift in stride(from: bits - 1, through: 0, by: -1) {
                accumulator = accumulator << 1 | (value >> shift & 1)
                count += 1
                if count == 8 {
                    bytes.append(UInt8(accumulator))
                    if accumulator == 0xFF { bytes.append(0) }
                    (accumulator, count) = (0, 0)
                }
            }
        }

        mutating func finish() -> [UInt8] {
            while count != 0 { put(1, count: 1) }
            defer { bytes = [] }
            return bytes
        }
    }
}
