import TileViewCore

/// The choices one fuzz input makes besides its image bytes: scales, crops and row chunk sizes.
///
/// They come from the input's last eight bytes, so libFuzzer steers them by mutating the tail
/// (bytes after a JPEG's EOI or a PNG's IEND are never decoded) and a reproducer replays the
/// same choices. The bytes seed a SplitMix64 stream that the accessors draw from in order.
struct FuzzChoices {
    private var state: UInt64

    init(_ bytes: [UInt8]) {
        var seed: UInt64 = 0x5449_4C45_5649_4557  // "TILEVIEW"
        for byte in bytes.suffix(8) { seed = seed << 8 | UInt64(byte) }
        state = seed
    }

    /// The next number of the SplitMix64 stream.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (which must not be empty).
    mutating func pick(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A JPEG scale numerator M of M/8, 1...8 (the DCT scalings that shrink or keep the size).
    mutating func scaleNumerator() -> Int { pick(1...8) }

    /// A rect that mostly lies inside `bounds` but may stick out of any side (or miss it
    /// entirely), so that clipping is exercised as well as the interior.
    mutating func region(in bounds: PixelSize) -> PixelRect {
        let w = max(bounds.width, 1)
        let h = max(bounds.height, 1)
        let x = pick(-2...w)
        let y = pick(-2...h)
        return PixelRect(x: x, y: y, width: pick(1...(w + 2)), height: pick(1...(h + 2)))
    }

    /// How many rows the next streaming call asks for: often one, sometimes a band, sometimes many.
    mutating func rowChunk() -> Int {
        switch next() % 4 {
        case 0: return 1
        case 1: return pick(2...17)
        default: return pick(1...300)
        }
    }
}
