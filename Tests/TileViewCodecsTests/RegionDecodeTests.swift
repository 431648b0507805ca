import Testing
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

@Suite("Region and streaming decode")
struct RegionDecodeTests {
    static let jpegFiles = [
        "jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_422_q90.jpg", "jpeg/gen_chelsea_440_q90.jpg",
        "jpeg/gen_chelsea_444_q90.jpg", "jpeg/gen_chelsea_420_progressive.jpg", "jpeg/gen_chelsea_gray.jpg",
        "jpeg/gen_chelsea_420_restart1.jpg", "jpeg/mozilla-jpg-size-33x33.jpg", "jpeg/gen_17x9_420.jpg",
    ]
    static let pngFiles = [
        "png/basn6a08.png", "png/basi2c16.png", "png/gen_palette4_trns_37x23.png", "png/gen_adam7_rgb_17x9.png",
        "png/gen_multi_idat_48x32.png", "png/basn0g01.png",
    ]

    /// A seeded random rect inside `size` (at least one pixel).
    static func randomRect(in size: PixelSize, using generator: inout SplitMix64) -> PixelRect {
        let x = Int.random(in: 0..<size.width, using: &generator)
        let y = Int.random(in: 0..<size.height, using: &generator)
        let width = Int.random(in: 1...(size.width - x), using: &generator)
        let height = Int.random(in: 1...(size.height - y), using: &generator)
        return PixelRect(x: x, y: y, width: width, height: height)
    }

    @Test("a JPEG region at any scale equals that rect of the full decode at the scale", arguments: jpegFiles)
    func jpegRegions(file: String) throws {
        let seed = UInt64(file.utf8.count) &* 0x9E37_79B9
        var generator = SplitMix64(seed: seed)
        let source = ImageSource.file(path: TestImages.corpus(file))
        for scale in 1...8 {
            let full = try JPEGDecoder.decode(
                source, scaleNumerator: scale, options: DecodeOptions(applyOrientation: false))
            for round in 0..<12 {
                let rect = Self.randomRect(in: full.image.size, using: &generator)
                let region = try JPEGDecoder.decodeRegion(source, scaleNumerator: scale, region: rect)
                #expect(region.region == rect)
                let expected = full.image.cropped(to: rect)
                let same = region.image == expected
                #expect(
                    same,
                    "\(file) scale \(scale)/8 rect \(rect) (seed \(seed), round \(round)): \(region.image.differenceSummary(from: expected))"
                )
            }
        }
    }

    @Test("libjpeg's scaled size is ceil(W * M / 8), for every M from 1 to 16")
    func scaledSizes() throws {
        for file in ["jpeg/gen_17x9_420.jpg", "jpeg/mozilla-jpg-size-15x15.jpg", "jpeg/gen_4097x3_420.jpg"] {
            let reader = try JPEGScanlineReader(.file(path: TestImages.corpus(file)))
            let stored = reader.header.storedSize
            for scale in 1...16 {
                let expected = PixelSize(
                    width: Int((Double(stored.width * scale) / 8).rounded(.up)),
                    height: Int((Double(stored.height * scale) / 8).rounded(.up)))
                #expect(JPEGDecoder.scaledSize(of: stored, scaleNumerator: scale) == expected)
                let decoded = try JPEGDecoder.decode(.file(path: TestImages.corpus(file)), scaleNumerator: scale)
                #expect(decoded.image.size == expected, "\(file) at \(scale)/8")
            }
        }
    }

    @Test("a crop window starts on the iMCU grid at or left of the asked column and ends where asked")
    func cropWindows() throws {
        let path = TestImages.corpus("jpeg/gen_chelsea_420_q90.jpg")
        var generator = SplitMix64(seed: 42)
        for scale in [1, 2, 4, 8] {
            for _ in 0..<10 {
                let reader = try JPEGScanlineReader(.file(path: path))
                let width = JPEGDecoder.scaledSize(of: reader.header.storedSize, scaleNumerator: scale).width
                let lower = Int.random(in: 0..<(width - 1), using: &generator)
                let upper = Int.random(in: (lower + 1)..<width, using: &generator)
                let window = try reader.start(scaleNumerator: scale, cropColumns: lower..<upper)
                // 4:2:0: the iMCU is 16 pixels at full size, 2 * scale at scale/8.
                #expect(window.columns.lowerBound % (2 * scale) == 0 && window.columns.lowerBound <= lower)
                #expect(window.columns.lowerBound > lower - 2 * scale)
                #expect(window.columns.upperBound == upper, "scale \(scale) asked \(lower)..<\(upper)")
                try reader.finish()
            }
        }
    }

    @Test(
        "JPEG rows read in random runs with skips equal the full decode's rows, at any scale and crop",
        arguments: jpegFiles.prefix(6))
    func jpegStreaming(file: String) throws {
        let seed: UInt64 = 0x5CA7_0001
        var generator = SplitMix64(seed: seed)
        let source = ImageSource.bytes(try Fixtures.bytes(file))
        for scale in [1, 3, 8] {
            let full = try JPEGDecoder.decode(
                source, scaleNumerator: scale, options: DecodeOptions(applyOrientation: false))
            for round in 0..<4 {
                // Every other round crops; the window's first and last columns are left out of the
                // comparison (fancy upsampling treats them as image edges, see JPEGDecoder.cropMargin).
                let lower = round % 2 == 1 ? Int.random(in: 0..<(full.image.width - 3), using: &generator) : 0
                let upper =
                    round % 2 == 1
                    ? Int.random(in: (lower + 3)...full.image.width, using: &generator) : full.image.width
                let reader = try JPEGScanlineReader(source)
                let window = try reader.start(scaleNumerator: scale, cropColumns: lower..<upper)
                let edges = window.columns.count < full.image.width ? 1 : 0
                var row = 0
                while row < full.image.height {
                    let run = Int.random(in: 1...Int.random(in: 1...24, using: &generator), using: &generator)
                    if Bool.random(using: &generator) {
                        row += try reader.skipRows(run)
                    } else {
                        var band = ImageBuffer(width: window.columns.count, height: min(run, full.image.height - row))
                        let got = try reader.readRows(run, into: &band)
                        #expect(got == band.height)
                        let inner = PixelRect(x: edges, y: 0, width: band.width - 2 * edges, height: got)
                        let expected = full.image.cropped(
                            to: PixelRect(x: window.columns.lowerBound + edges, y: row, width: inner.width, height: got)
                        )
                        let same = band.cropped(to: inner) == expected
                        #expect(
                            same,
                            "\(file) \(scale)/8 window \(window.columns) rows from \(row) (seed \(seed)): \(band.cropped(to: inner).differenceSummary(from: expected))"
                        )
                        row += got
                    }
                    #expect(reader.nextRow == row)
                }
                try reader.finish()
            }
        }
    }

    @Test(
        "a skip that starts inside an iMCU row after another skip still lands on the right rows",
        arguments: [
            "jpeg/gen_chelsea_444_q90.jpg", "jpeg/gen_chelsea_422_q90.jpg", "jpeg/gen_chelsea_440_q90.jpg",
            "jpeg/gen_chelsea_420_q90.jpg", "jpeg/gen_chelsea_gray.jpg",
        ])
    func consecutiveSkips(file: String) throws {
        // libjpeg-turbo 2.1's jpeg_skip_scanlines returns stale rows here (upstream issue #915);
        // the shim only hands it whole iMCU rows.
        let source = ImageSource.file(path: TestImages.corpus(file))
        let full = try JPEGDecoder.decode(source, options: DecodeOptions(applyOrientation: false)).image
        for (first, second) in [(14, 11), (3, 5), (9, 30), (1, 1), (17, 16)] {
            let reader = try JPEGScanlineReader(source)
            try reader.start()
            try reader.skipRows(first)
            try reader.skipRows(second)
            var band = ImageBuffer(width: full.width, height: 12)
            _ = try reader.readRows(12, into: &band)
            let same = band == full.cropped(to: PixelRect(x: 0, y: first + second, width: full.width, height: 12))
            #expect(same, "\(file): skip \(first), skip \(second), read 12")
            try reader.finish()
        }
    }

    @Test("PNG rows and regions equal the full decode, interlaced or not", arguments: pngFiles)
    func pngRegions(file: String) throws {
        let seed: UInt64 = 0x0050_4E47
        var generator = SplitMix64(seed: seed)
        let source = ImageSource.file(path: TestImages.corpus(file))
        let full = try PNGDecoder.decode(source).image
        for round in 0..<16 {
            let rect = Self.randomRect(in: full.size, using: &generator)
            let region = try PNGDecoder.decodeRegion(source, region: rect)
            let expected = full.cropped(to: rect)
            let same = region.image == expected
            #expect(
                same,
                "\(file) rect \(rect) (seed \(seed), round \(round)): \(region.image.differenceSummary(from: expected))"
            )
            let rows = try PNGDecoder.decodeRows(source, rows: rect.y..<rect.maxY)
            #expect(rows.region == PixelRect(x: 0, y: rect.y, width: full.width, height: rect.height))
            let sameRows = rows.image == full.cropped(to: rows.region)
            #expect(
                sameRows,
                "\(file) rows \(rect.y)..<\(rect.maxY): \(rows.image.differenceSummary(from: full.cropped(to: rows.region)))"
            )
        }
    }

    @Test("PNG rows read in random runs with skips equal the full decode's rows", arguments: pngFiles)
    func pngStreaming(file: String) throws {
        let seed: UInt64 = 0x0050_4E48
        var generator = SplitMix64(seed: seed)
        let full = try PNGDecoder.decode(.file(path: TestImages.corpus(file))).image
        let reader = try PNGRowReader(.bytes(try Fixtures.bytes(file)))
        var row = 0
        while row < full.height {
            let run = Int.random(in: 1...7, using: &generator)
            if Bool.random(using: &generator) {
                row += try reader.skipRows(run)
            } else {
                var band = ImageBuffer(width: full.width, height: min(run, full.height - row))
                let got = try reader.readRows(run, into: &band)
                let expected = full.cropped(to: PixelRect(x: 0, y: row, width: full.width, height: got))
                let same = band == expected
                #expect(same, "\(file) rows from \(row): \(band.differenceSummary(from: expected))")
                row += got
            }
        }
        #expect(reader.remainingRows == 0)
        try reader.finish()
    }

    @Test("regions are clipped to the image")
    func clipping() throws {
        let source = ImageSource.file(path: TestImages.corpus("jpeg/gen_17x9_420.jpg"))
        let clipped = try JPEGDecoder.decodeRegion(source, region: PixelRect(x: 10, y: -5, width: 100, height: 8))
        #expect(clipped.region == PixelRect(x: 10, y: 0, width: 7, height: 3))
        #expect(clipped.image.size == PixelSize(width: 7, height: 3))
        let outside = try JPEGDecoder.decodeRegion(source, region: PixelRect(x: 40, y: 0, width: 5, height: 5))
        #expect(outside.image.size == PixelSize(width: 0, height: 0))
    }
}
