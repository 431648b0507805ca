import TileViewCodecs
import TileViewCore

extension DecodeExercise {
    /// WebP, HEIF, AVIF, TIFF and GIF: `ImageRowReader` with reads and skips of derived sizes, and a region through
    /// `LevelReader`, each checked against the whole stored image when the strict decode vouches for it.
    mutating func exerciseRows(header: ImageHeader, fullStored: ImageBuffer?, strictSucceeded: Bool) {
        let stored = header.storedSize
        var delivered: [Int] = []
        var image: [UInt8] = []
        let rowBytes = stored.width * 4
        var succeeded = false
        do throws(CodecError) {
            // The reader refuses an image over the pixel limit before anything is allocated for its rows here.
            let reader = try ImageRowReader(.bytes(bytes), format: header.format, options: Self.storedOptions)
            law(reader.header == header, "the row reader's header \(reader.header) differs from \(header)")
            image = [UInt8](repeating: 0, count: stored.pixelCount * 4)
            while reader.remainingRows > 0 {
                let chunk = choices.rowChunk()
                let before = reader.nextRow
                if choices.next() % 3 == 0 {
                    try reader.skipRows(chunk)
                } else {
                    let result = image.withUnsafeMutableBytes { raw in
                        Result { () throws(CodecError) -> Int in
                            try reader.readRows(
                                chunk, into: UnsafeMutableRawBufferPointer(rebasing: raw[(before * rowBytes)...]),
                                rowBytes: rowBytes)
                        }
                    }
                    let got = try result.get()
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
            // A strict streaming read may fail where the whole decode fails too; checked below.
        }
        if strictSucceeded {
            law(succeeded || delivered.count < stored.height, "strict row streaming fails where the decode succeeds")
        }
        if succeeded, let fullStored, !Self.undefinedOnDamage.contains(header.format) {
            for row in delivered {
                let range = (row * rowBytes)..<((row + 1) * rowBytes)
                law(image[range] == fullStored.pixels[range], "streamed row \(row) differs from the whole decode's")
            }
        }

        // A TIFF's stored JPEG tile, whole or cut by the image's edge (tv_jpeg_cut on hostile streams): when it is
        // given, it decodes to at most one tile, or fails with an error.
        if header.format == .tiff,
            let reader = try? ImageRowReader(.bytes(bytes), format: .tiff, options: Self.storedOptions)
        {
            let level = Int(choices.next() % UInt64(reader.header.storedDirectories.count))
            let tileSize = choices.next() % 2 == 0 ? 256 : 128
            let column = Int(choices.next() % 4)
            let row = Int(choices.next() % 4)
            // A level's own IFD, or (one time in four) any offset at all: a directory read alone is hostile too.
            let directory =
                choices.next() % 4 == 0
                ? choices.next() % UInt64(bytes.count + 16) : reader.header.storedDirectories[level]
            if let tile = try? ImageRowReader.storedJPEGTile(
                in: .bytes(bytes), directory: directory, column: column, row: row, tileSize: tileSize),
                let decoded = try? ImageDecoder.decode(.bytes(tile), options: Self.storedOptions)
            {
                let size = decoded.image.size
                law(
                    size.width <= tileSize && size.height <= tileSize,
                    "stored tile (\(directory), \(column), \(row)) of \(tileSize) decodes to \(size)")
            }
        }

        let asked = choices.region(in: stored)
        if let reader = try? LevelReader(
            source, format: header.format, scale: LevelScale(), rect: asked, options: Self.storedOptions),
            let (region, _) = try? reader.readAll()
        {
            let clipped = asked.intersection(PixelRect(size: stored)) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            law(reader.rect == clipped, "region \(asked) gave \(reader.rect), not \(clipped)")
            if let fullStored, !clipped.isEmpty, !Self.undefinedOnDamage.contains(header.format) {
                law(fullStored.cropped(to: clipped) == region, "region \(clipped) differs from the whole image")
            }
        }
    }
}
