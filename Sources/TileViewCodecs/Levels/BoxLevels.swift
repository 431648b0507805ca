import TileViewCore

/// Several box-reduced levels of one image made in one pass over its rows, byte for byte what
/// `BoxReducer.reduceBand` gives each level alone.
///
/// The factors are powers of two, so a block of factor 2f is the union of four blocks of factor f (clipped alike at
/// the image's right and bottom edges). Each row is summed once, in blocks of the smallest factor; a finished band of
/// those blocks gives its level's row and is added into the next factor's blocks, and so on up. The sums are exact
/// integers (alpha, colour weighted by alpha, and plain colour, as `reduceBand` keeps them), so every level rounds
/// the same totals `reduceBand` would, from about one level's work instead of one per level. A run of pixels whose
/// alpha is all 255 (every pixel of an opaque image) is summed without the weighted totals, which are then 255 times
/// the plain ones.
public struct BoxLevels {
    /// One block's totals: pixels' alpha, colour times alpha, and plain colour.
    struct Sums {
        var alpha: UInt64 = 0
        var red: UInt64 = 0
        var green: UInt64 = 0
        var blue: UInt64 = 0
        var rawRed: UInt64 = 0
        var rawGreen: UInt64 = 0
        var rawBlue: UInt64 = 0

        /// The block's pixel, from its `pixels` pixels' totals: an opaque block's plain mean (the alpha weights are
        /// all equal), a clear block's zeros, else colour weighted by alpha and the mean alpha; rounded to nearest.
        @inline(__always)
        func store(pixels n: UInt64, at o: UnsafeMutablePointer<UInt8>) {
            if alpha == n * 255 {
                o[0] = UInt8((rawRed * 2 + n) / (2 * n))
                o[1] = UInt8((rawGreen * 2 + n) / (2 * n))
                o[2] = UInt8((rawBlue * 2 + n) / (2 * n))
                o[3] = 255
            } else if alpha == 0 {
                (o[0], o[1], o[2], o[3]) = (0, 0, 0, 0)
            } else {
                o[0] = UInt8((red * 2 + alpha) / (2 * alpha))
                o[1] = UInt8((green * 2 + alpha) / (2 * alpha))
                o[2] = UInt8((blue * 2 + alpha) / (2 * alpha))
                o[3] = UInt8((alpha * 2 + n) / (2 * n))
            }
        }

        mutating func add(_ other: Sums) {
            alpha &+= other.alpha
            red &+= other.red
            green &+= other.green
            blue &+= other.blue
            rawRed &+= other.rawRed
            rawGreen &+= other.rawGreen
            rawBlue &+= other.rawBlue
        }
    }

    /// The source's size.
    public let size: PixelSize
    /// Each level's factor, as asked (1: the rows as they are).
    public let factors: [Int]
    /// Each level's pixels, `BoxReducer.reducedSize(of: size, factor:)`, rows top to bottom.
    public private(set) var outputs: [[UInt8]]
    /// The factors above 1, smallest first, each twice the one before (`factors` holds no gaps between them).
    private let chain: [Int]
    /// The block totals of the band being summed, per factor in `chain`.
    private var blocks: [[Sums]]
    /// The next source row.
    private var nextRow = 0

    /// Levels of `size` at `factors`: each 1 or a power of two, the ones above 1 forming a chain that doubles
    /// (8, 16, 32 for instance; a factor may be asked for twice).
    public init(size: PixelSize, factors: [Int]) {
        precondition(
            factors.allSatisfy { $0 >= 1 && $0 & ($0 - 1) == 0 }, "factors are powers of two")
        let chain = Array(Set(factors.filter { $0 > 1 })).sorted()
        precondition(zip(chain, chain.dropFirst()).allSatisfy { $1 == 2 * $0 }, "factors double from one to the next")
        self.size = size
        self.factors = factors
        self.chain = chain
        outputs = factors.map {
            [UInt8](repeating: 0, count: BoxReducer.reducedSize(of: size, factor: $0).pixelCount * 4)
        }
        blocks = chain.map { [Sums](repeating: Sums(), count: (size.width + $0 - 1) / $0) }
    }

    /// Bytes the block totals take beside the outputs, for a source `width` pixels wide: one row of blocks per
    /// factor above 1.
    public static func workingBytes(width: Int, factors: [Int]) -> Int {
        Set(factors.filter { $0 > 1 }).reduce(0) { $0 + (width + $1 - 1) / $1 * MemoryLayout<Sums>.stride }
    }

    /// Adds the next source row (`size.width` RGBA8 pixels); after the last, every output is complete.
    public mutating func add(row: UnsafePointer<UInt8>) {
        precondition(nextRow < size.height, "every row was added")
        let y = nextRow
        nextRow += 1
        for (n, factor) in factors.enumerated() where factor == 1 {
            outputs[n].withUnsafeMutableBufferPointer { out in
                (out.baseAddress! + y * size.width * 4).update(from: row, count: size.width * 4)
            }
        }
        guard let smallest = chain.first else { return }
        blocks[0].withUnsafeMutableBufferPointer { sums in
            Self.sum(row: row, width: size.width, factor: smallest, into: sums)
        }
        let last = y == size.height - 1
        for (k, factor) in chain.enumerated() where (y + 1) % factor == 0 || last {
            let rows = y % factor + 1
            for (n, asked) in factors.enumerated() where asked == factor {
                outputs[n].withUnsafeMutableBufferPointer { out in
                    let width = (size.width + factor - 1) / factor
                    Self.write(
                        blocks[k], rows: rows, factor: factor, sourceWidth: size.width,
                        into: out.baseAddress! + (y / factor) * width * 4)
                }
            }
            if k + 1 < chain.count {
                for (index, sums) in blocks[k].enumerated() { blocks[k + 1][index / 2].add(sums) }
            }
            for index in blocks[k].indices { blocks[k][index] = Sums() }
        }
    }

    /// Adds one row's pixels into blocks of `factor` columns.
    private static func sum(
        row: UnsafePointer<UInt8>, width: Int, factor: Int, into sums: UnsafeMutableBufferPointer<Sums>
    ) {
        for block in sums.indices {
            let x0 = block * factor
            let x1 = min(x0 + factor, width)
            var alpha: UInt64 = 0
            var red: UInt64 = 0
            var green: UInt64 = 0
            var blue: UInt64 = 0
            var p = row + x0 * 4
            for _ in x0..<x1 {
                red &+= UInt64(p[0])
                green &+= UInt64(p[1])
                blue &+= UInt64(p[2])
                alpha &+= UInt64(p[3])
                p += 4
            }
            var run = Sums(alpha: alpha, rawRed: red, rawGreen: green, rawBlue: blue)
            if alpha == UInt64(x1 - x0) * 255 {
                (run.red, run.green, run.blue) = (red &* 255, green &* 255, blue &* 255)
            } else {
                p = row + x0 * 4
                for _ in x0..<x1 {
                    let a = UInt64(p[3])
                    run.red &+= UInt64(p[0]) &* a
                    run.green &+= UInt64(p[1]) &* a
                    run.blue &+= UInt64(p[2]) &* a
                    p += 4
                }
            }
            sums[block].add(run)
        }
    }

    /// One output row from a band's block totals.
    private static func write(
        _ sums: [Sums], rows: Int, factor: Int, sourceWidth: Int, into output: UnsafeMutablePointer<UInt8>
    ) {
        for (block, totals) in sums.enumerated() {
            let x0 = block * factor
            totals.store(pixels: UInt64((min(x0 + factor, sourceWidth) - x0) * rows), at: output + block * 4)
        }
    }
}
