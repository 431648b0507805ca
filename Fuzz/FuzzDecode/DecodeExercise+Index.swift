import Foundation
import TileViewCodecs
import TileViewCore

extension DecodeExercise {
    /// The file the entropy index is built over (an index reads a file, not bytes in memory): one a process,
    /// rewritten for every JPEG input.
    static let indexScratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("tileview-fuzz-index-\(ProcessInfo.processInfo.processIdentifier).jpg").path

    /// The entropy index the server builds over every baseline JPEG it serves (`JPEGEntropyIndex`), over a hostile
    /// file: it is refused, or it describes the file, serves any rect of levels 0 to 3 as the strict decode of the
    /// whole file at that level gives it, crops any MCU rect into a JPEG that decodes strictly to its size, and
    /// reads back from its saved bytes to the same crops. `references` holds the strict stored decodes by scale
    /// numerator (8 full size ... 1 for 1/8).
    mutating func exerciseEntropyIndex(header: ImageHeader, references: [Int: ImageBuffer]) {
        guard header.storedSize.pixelCount <= Self.maxPixels,
            FileManager.default.createFile(atPath: Self.indexScratch, contents: Data(bytes))
        else { return }
        defer { try? FileManager.default.removeItem(atPath: Self.indexScratch) }
        guard let index = try? JPEGEntropyIndex(path: Self.indexScratch) else { return }
        law(index.size == header.storedSize, "the index's size \(index.size), the header's \(header.storedSize)")
        law(
            index.mcuColumns * index.mcuSize.width >= index.size.width
                && (index.mcuColumns - 1) * index.mcuSize.width < index.size.width
                && index.mcuRows * index.mcuSize.height >= index.size.height
                && (index.mcuRows - 1) * index.mcuSize.height < index.size.height,
            "\(index.mcuColumns)x\(index.mcuRows) MCUs of \(index.mcuSize) for \(index.size)")

        // Any rect of a level, against the same rect of the strict decode of the whole file at that level.
        let level = choices.pick(0...JPEGEntropyIndex.deepestLevel)
        let numerator = 8 >> level
        let levelSize = JPEGDecoder.scaledSize(of: header.storedSize, scaleNumerator: numerator)
        let rect = choices.region(in: levelSize)
        let reference = references[numerator]
        law(reference != nil, "indexed, but the strict decode at \(numerator)/8 refuses the file")
        if let reference {
            let clipped = rect.intersection(PixelRect(size: levelSize))
            do throws(CodecError) {
                let got = try index.levelRect(rect, level: level, options: Self.storedOptions, color: header.color)
                law(
                    got == (clipped.map { reference.cropped(to: $0) } ?? ImageBuffer(width: 0, height: 0, pixels: [])),
                    "the index's rect \(rect) of level \(level) differs from the strict decode's")
            } catch {
                law(false, "indexed, but the rect \(rect) of level \(level) fails: \(error.kind): \(error.message)")
            }
        }

        // A crop of MCUs, a JPEG of its own, and the same crop from the index read back from its saved bytes.
        let left = choices.pick(0...index.mcuColumns - 1)
        let top = choices.pick(0...index.mcuRows - 1)
        let columns = left..<choices.pick(left + 1...index.mcuColumns)
        let rows = top..<choices.pick(top + 1...index.mcuRows)
        guard let crop = try? index.crop(columns: columns, rows: rows) else {
            law(false, "indexed, but the crop of MCUs \(columns) x \(rows) fails")
            return
        }
        let width = min(columns.upperBound * index.mcuSize.width, index.size.width) - left * index.mcuSize.width
        let height = min(rows.upperBound * index.mcuSize.height, index.size.height) - top * index.mcuSize.height
        let decoded = try? JPEGDecoder.decode(.bytes(crop), options: Self.storedOptions).image
        law(
            decoded?.size == PixelSize(width: width, height: height),
            "the crop of MCUs \(columns) x \(rows) decodes to \(String(describing: decoded?.size)), not \(width)x\(height)"
        )
        guard let saved = try? index.saved() else {
            law(false, "an index that cannot be saved")
            return
        }
        let descriptor = open(Self.indexScratch, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let file = OpenDescriptor(owning: descriptor)
        let loaded = try? JPEGEntropyIndex(loading: saved, descriptor: file)
        law(loaded != nil, "an index refused when read back from its own saved bytes over the same file")
        if let loaded {
            law((try? loaded.crop(columns: columns, rows: rows)) == crop, "the read-back index crops otherwise")
        }

        // Saved bytes damaged (a disk cache's file is read back as untrusted): refused, or an index whose crops
        // fail with an error or give a JPEG, never a crash (AddressSanitizer watches the reads).
        var damaged = saved
        for _ in 0..<choices.pick(1...3) {
            damaged[choices.pick(0...damaged.count - 1)] = UInt8(truncatingIfNeeded: choices.next())
        }
        if choices.next() % 4 == 0 { damaged.removeLast(choices.pick(0...damaged.count)) }
        if let reloaded = try? JPEGEntropyIndex(loading: damaged, descriptor: file) {
            let columns = 0..<choices.pick(1...reloaded.mcuColumns)
            let rows = choices.pick(0...reloaded.mcuRows - 1)..<reloaded.mcuRows
            if let crop = try? reloaded.crop(columns: columns, rows: rows) {
                law(crop.starts(with: [0xFF, 0xD8]), "a crop of a damaged saved index that is not a JPEG")
                _ = try? JPEGDecoder.decode(.bytes(crop), options: Self.lenientStoredOptions)
            }
        }
    }
}
