import TileViewCodecs
import TileViewCore

extension DecodeExercise {
    /// Row streaming with skips, a region and a band of rows, each checked against the whole
    /// stored image when the strict decode vouches for it.
    mutating func exercisePNG(header: ImageHeader, fullStored: ImageBuffer?, strictSucceeded: Bool) {
        let stored = header.storedSize
        streamPNGRows(stored: stored, fullStored: fullStored, strictSucceeded: strictSucceeded)
        rowsInflatedAhead()

        let asked = choices.region(in: stored)
        if let decoded = try? PNGDecoder.decodeRegion(source, region: asked, options: Self.storedOptions) {
            let clipped = asked.intersection(PixelRect(size: stored)) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            law(decoded.region == clipped, "region \(asked) gave \(decoded.region), not \(clipped)")
            law(decoded.image.size == clipped.size, "region \(clipped) came back as \(decoded.image.size) pixels")
            if let fullStored, !clipped.isEmpty {
                law(fullStored.cropped(to: clipped) == decoded.image, "region \(clipped) differs from the whole image")
            }
        }

        let first = choices.pick(-1...stored.height)
        let band = first..<(first + choices.pick(0...stored.height + 1))
        if let decoded = try? PNGDecoder.decodeRows(source, rows: band, options: Self.lenientStoredOptions) {
            law(
                decoded.image.size == decoded.region.size, "rows \(band) as \(decoded.image.size) for \(decoded.region)"
            )
            law(
                decoded.region.isEmpty || (decoded.region.x == 0 && decoded.region.width == stored.width),
                "rows \(band) gave region \(decoded.region) of a \(stored) image")
        }
    }

    /// `PNGRowReader` driven directly, strict: reads and skips of derived sizes to the bottom,
    /// then finish. Whatever rows it delivers equal the whole decode's, and it succeeds exactly
    /// when the whole strict decode does (both decode every row and read to the end).
    private mutating func streamPNGRows(stored: PixelSize, fullStored: ImageBuffer?, strictSucceeded: Bool) {
        var delivered: [Int] = []
        var image = ImageBuffer(width: 0, height: 0)
        var succeeded = false
        do throws(CodecError) {
            let reader = try PNGRowReader(.bytes(bytes), options: Self.storedOptions)
            image = ImageBuffer(width: stored.width, height: stored.height)
            while reader.remainingRows > 0 {
                let chunk = choices.rowChunk()
                let before = reader.nextRow
                if choices.next() % 3 == 0 {
                    try reader.skipRows(chunk)
                } else {
                    let got = try reader.readRows(chunk, into: &image, atRow: before)
                    law(
                        got <= chunk && reader.nextRow == before + got,
                        "asked for \(chunk) rows at \(before), got \(got)")
                    delivered.append(contentsOf: before..<(before + got))
                }
                if reader.nextRow == before { break }
            }
            try reader.finish()
            succeeded = true
        } catch {
            // Strict streaming fails exactly when the strict decode does; checked below.
        }
        law(
            succeeded == strictSucceeded,
            "strict row streaming \(succeeded ? "succeeds" : "fails"), the decode does not")
        guard succeeded, let fullStored else { return }
        let rowBytes = stored.width * 4
        for row in delivered {
            let range = (row * rowBytes)..<((row + 1) * rowBytes)
            law(image.pixels[range] == fullStored.pixels[range], "streamed row \(row) differs from the whole decode's")
        }
    }

    /// Rows inflated ahead (`PNGRowReader.startPipeline`, here with the inflating done by the reading thread) give
    /// libpng's rows, the same error after the same rows, and the same warnings, strict or lenient: whatever the
    /// pipeline does not reproduce must be left to libpng.
    private mutating func rowsInflatedAhead() {
        let options = choices.next() % 2 == 0 ? Self.storedOptions : Self.lenientStoredOptions
        let chunk = max(1, choices.rowChunk())
        let plain = allRows(options: options, ahead: false, chunk: chunk)
        let ahead = allRows(options: options, ahead: true, chunk: chunk)
        law(ahead.rows == plain.rows, "inflated ahead: other rows than libpng's")
        law(
            ahead.error == plain.error,
            "inflated ahead: \(ahead.error ?? "no error"); libpng: \(plain.error ?? "no error")")
        law(ahead.warnings == plain.warnings, "inflated ahead: warnings \(ahead.warnings); libpng: \(plain.warnings)")
    }

    /// Every row read `chunk` at a time (those read before an error, the rest zero), then finish; the error and the
    /// warnings.
    private func allRows(options: DecodeOptions, ahead: Bool, chunk: Int) -> (
        rows: [UInt8], error: String?, warnings: [String]
    ) {
        do throws(CodecError) {
            let reader = try PNGRowReader(.bytes(bytes), options: options)
            if ahead { reader.startPipeline(.serial(count: 2)) }
            let count = reader.rowBytes * reader.header.storedSize.height
            let describe = { (error: CodecError) in "\(error.kind) after \(reader.nextRow) rows: \(error.message)" }
            let (rows, failure) = Self.zeroedRows(count, describe: describe) { (buffer) throws(CodecError) in
                while reader.remainingRows > 0 {
                    let at = reader.nextRow * reader.rowBytes
                    let got = try reader.readRows(
                        chunk, into: UnsafeMutableRawBufferPointer(rebasing: buffer[at...]), rowBytes: reader.rowBytes)
                    if got == 0 { break }
                }
                try reader.finish()
            }
            return (rows, failure, reader.warnings)
        } catch {
            return ([], "\(error.kind): \(error.message)", [])
        }
    }
}
