import TileViewCodecs
import TileViewCore

extension DecodeExercise {
    /// DCT-scaled decodes, a region decode checked against the full decode at its scale, the
    /// scanline reader with a column crop and interleaved skips and reads, and the entropy index.
    mutating func exerciseJPEG(header: ImageHeader, fullStored: ImageBuffer?) {
        let stored = header.storedSize
        var references: [Int: ImageBuffer] = [:]
        references[8] = fullStored
        for numerator in [4, 2, 1] {
            guard let scaled = decodeWholeJPEG(scaleNumerator: numerator) else { continue }
            let expected = JPEGDecoder.scaledSize(of: stored, scaleNumerator: numerator)
            law(scaled.size == expected, "at \(numerator)/8 decoded \(scaled.size), expected \(expected)")
            references[numerator] = scaled
        }

        // A strict region at a derived scale, against the same rect of the whole image at that scale.
        let numerator = choices.scaleNumerator()
        let scaledSize = JPEGDecoder.scaledSize(of: stored, scaleNumerator: numerator)
        let asked = choices.region(in: scaledSize)
        if let decoded = try? JPEGDecoder.decodeRegion(
            source, scaleNumerator: numerator, region: asked, options: Self.storedOptions)
        {
            let clipped = asked.intersection(PixelRect(size: scaledSize)) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            law(decoded.region == clipped, "region \(asked) at \(numerator)/8 gave \(decoded.region), not \(clipped)")
            law(decoded.image.size == clipped.size, "region \(clipped) came back as \(decoded.image.size) pixels")
            if !clipped.isEmpty,
                let reference = references[numerator] ?? decodeWholeJPEG(scaleNumerator: numerator)
            {
                law(
                    reference.cropped(to: clipped) == decoded.image,
                    "region \(clipped) at \(numerator)/8 differs from the same rect of the whole image")
            }
        }

        // A lenient region: damaged data must still give exactly the clipped rect.
        let lenientNumerator = choices.scaleNumerator()
        let lenientSize = JPEGDecoder.scaledSize(of: stored, scaleNumerator: lenientNumerator)
        let lenientAsk = choices.region(in: lenientSize)
        if let decoded = try? JPEGDecoder.decodeRegion(
            source, scaleNumerator: lenientNumerator, region: lenientAsk, options: Self.lenientStoredOptions)
        {
            law(decoded.image.size == decoded.region.size, "lenient region \(decoded.region) as \(decoded.image.size)")
        }

        streamJPEGScanlines(stored: stored)
        eighthInParts()
        exerciseEntropyIndex(header: header, references: references)
    }

    /// The 1/8 scale decoded in 2 to 12 parts (`DecodeParts`, every part as small as a byte) gives libjpeg's rows,
    /// error and warnings, strict or lenient: whatever the parts do not reproduce must be left to libjpeg. Keeping the
    /// entropy index on the way changes none of it, and an index is kept only by a decode in parts asked for one
    /// (its bytes equal the index's own pass: JPEGPartsTests, which has files to build that over).
    private mutating func eighthInParts() {
        let options = choices.next() % 2 == 0 ? Self.storedOptions : Self.lenientStoredOptions
        var parts = DecodeParts.serial(count: choices.pick(2...12))
        parts.keepsEntropyIndex = choices.next() % 2 == 0
        let one = eighthScale(options: options, parts: nil)
        let parted = eighthScale(options: options, parts: parts)
        law(parted.rows == one.rows, "the 1/8 scale in \(parts.count) parts has other rows than libjpeg's")
        law(parted.error == one.error, "in parts: \(parted.error ?? "no error"); libjpeg: \(one.error ?? "no error")")
        law(parted.warnings == one.warnings, "in parts: warnings \(parted.warnings); libjpeg: \(one.warnings)")
        law(
            parted.index == nil || (parts.keepsEntropyIndex && parted.inParts),
            "an entropy index kept without being asked for, or without parts")
        law(parted.index.map { $0.starts(with: Array("TVJX".utf8)) } ?? true, "a kept index not in the saved layout")
    }

    /// The whole 1/8 scale as rows (those read before an error, the rest zero), the error, the warnings, whether
    /// parts made it and the entropy index they kept.
    private func eighthScale(options: DecodeOptions, parts: DecodeParts?) -> (
        rows: [UInt8], error: String?, warnings: [String], inParts: Bool, index: [UInt8]?
    ) {
        do throws(CodecError) {
            let reader = try JPEGScanlineReader(.bytes(bytes), options: options)
            let window = try reader.start(scaleNumerator: 1, parts: parts)
            let (rows, failure) = Self.zeroedRows(window.outputSize.pixelCount * 4) { (buffer) throws(CodecError) in
                _ = try reader.readRows(window.outputSize.height, into: buffer, rowBytes: window.rowBytes)
                try reader.finish()
            }
            return (rows, failure, reader.warnings, reader.decodedByParts, reader.entropyIndex)
        } catch {
            return ([], "\(error.kind): \(error.message)", [], false, nil)
        }
    }

    /// The whole stored image at `scaleNumerator`/8, strict, or nil when it does not decode.
    private func decodeWholeJPEG(scaleNumerator: Int) -> ImageBuffer? {
        try? JPEGDecoder.decode(source, scaleNumerator: scaleNumerator, options: Self.storedOptions).image
    }

    /// The scanline reader driven directly: a derived scale and column crop, then skips and
    /// reads of derived sizes to the bottom, then finish.
    private mutating func streamJPEGScanlines(stored: PixelSize) {
        let numerator = choices.scaleNumerator()
        let options = choices.next() % 2 == 0 ? Self.storedOptions : Self.lenientStoredOptions
        let scaled = JPEGDecoder.scaledSize(of: stored, scaleNumerator: numerator)
        var crop: Range<Int>?
        if choices.next() % 3 != 0 {
            let lower = choices.pick(-1...scaled.width)
            crop = lower..<(lower + choices.pick(0...scaled.width + 1))
        }
        do throws(CodecError) {
            let reader = try JPEGScanlineReader(.bytes(bytes), options: options)
            let window = try reader.start(scaleNumerator: numerator, cropColumns: crop)
            law(window.scaledSize == scaled, "the window's scaled size \(window.scaledSize), expected \(scaled)")
            checkWindow(window.columns, crop: crop, width: scaled.width)
            let rows = UnsafeMutableRawBufferPointer.allocate(byteCount: max(window.rowBytes * 17, 1), alignment: 16)
            defer { rows.deallocate() }
            while reader.remainingRows > 0 {
                let chunk = min(choices.rowChunk(), 17)
                let before = reader.nextRow
                if choices.next() % 3 == 0 {
                    try reader.skipRows(chunk)
                } else {
                    let got = try reader.readRows(chunk, into: rows, rowBytes: window.rowBytes)
                    law(got <= chunk, "asked for \(chunk) rows, got \(got)")
                }
                if reader.nextRow == before { break }
            }
            try reader.finish()
        } catch {
            return
        }
    }

    /// The columns libjpeg delivers hold the requested crop (left edge moved down to the iMCU
    /// grid, right edge kept) and stay inside the scaled image.
    private func checkWindow(_ columns: Range<Int>, crop: Range<Int>?, width: Int) {
        law(columns.lowerBound >= 0 && columns.upperBound <= width, "window columns \(columns) outside 0..<\(width)")
        guard let crop else {
            law(columns == 0..<width, "no crop asked, window \(columns)")
            return
        }
        let lower = min(max(crop.lowerBound, 0), width)
        let upper = min(max(crop.upperBound, lower), width)
        if upper > lower && upper - lower < width {
            law(
                columns.lowerBound <= lower && columns.upperBound == upper,
                "crop \(lower)..<\(upper) gave window \(columns)")
        } else {
            law(columns == 0..<width, "crop \(crop) needs no window, got \(columns)")
        }
    }
}
