import TileViewCodecs
import TileViewCore
import TileViewRender

/// The thumbnail a grid cell shows: its image scaled to fill the cell and cropped about the centre (aspect
/// fill, as a phone's photo grid does), decoded at the smallest size that still covers the cell.
///
/// Model, for an oriented image W x H and a cell cw x ch (pixels):
/// - fill scale s = max(cw / W, ch / H): the image covers the cell on both axes and overflows on one, which is
///   cropped equally on both sides (image frame origin ((cw - W s) / 2, (ch - H s) / 2) in cell space);
/// - JPEG: libjpeg's DCT scaling M/8 with the smallest M in 1...8 for which M/8 >= s (the scaled image still has
///   at least one pixel per cell pixel), M = 8 when the cell enlarges the image; only the iMCU columns around
///   the cropped part are transformed and only its rows are read (rows above are skipped);
/// - PNG: rows streamed through `BoxReducer` with the largest whole factor f with 1/f >= s
///   (f = max(1, min(W / cw, H / ch))), keeping one band of f rows; rows below the crop are never decoded.
///   An Adam7 PNG is decoded whole first (W * H * 4 bytes while it runs), as `PNGRowReader` documents;
/// - the decoded pixels (a "level" of the image) are resampled to the cell by `FrameRenderer` (Lanczos-3 when
///   shrinking, Catmull-Rom when enlarging) over `background`, exactly as a zoomed frame is.
/// The file is opened once per thumbnail and its header read then (the header is what picks the scale).
public enum CellThumbnail {
    /// The fill scale `max(cw / W, ch / H)` (viewport pixels per image pixel).
    public static func fillScale(imageSize: PixelSize, cellSize: PixelSize) -> Double {
        guard !imageSize.isEmpty else { return 1 }
        return max(
            Double(cellSize.width) / Double(imageSize.width), Double(cellSize.height) / Double(imageSize.height))
    }

    /// The smallest M in 1...8 with M/8 >= the fill scale, decided exactly in integers: M W >= 8 cw and
    /// M H >= 8 ch. 8 when no M reaches (the cell enlarges the image).
    public static func jpegScaleNumerator(imageSize: PixelSize, cellSize: PixelSize) -> Int {
        for m in 1...8
        where m * imageSize.width >= 8 * cellSize.width && m * imageSize.height >= 8 * cellSize.height {
            return m
        }
        return 8
    }

    /// The largest whole box factor f with 1/f >= the fill scale: max(1, min(W / cw, H / ch)).
    public static func boxFactor(imageSize: PixelSize, cellSize: PixelSize) -> Int {
        guard cellSize.width > 0, cellSize.height > 0 else { return 1 }
        return max(1, min(imageSize.width / cellSize.width, imageSize.height / cellSize.height))
    }

    /// Where the image lies in the cell and which level it is drawn from: fill scale, centred crop.
    public static func geometry(imageSize: PixelSize, levelSize: PixelSize, cellSize: PixelSize) -> FrameGeometry {
        let s = fillScale(imageSize: imageSize, cellSize: cellSize)
        let origin = Point(
            x: (Double(cellSize.width) - Double(imageSize.width) * s) / 2,
            y: (Double(cellSize.height) - Double(imageSize.height) * s) / 2)
        return FrameGeometry(
            frameSize: cellSize, zoomScale: s, imageFrameOrigin: origin, imageSize: imageSize, levelSize: levelSize)
    }

    /// The thumbnail of the image file `path` at `cellSize`, over `background`, and the decoder's warnings.
    ///
    /// Strict (`options.lenient` false): any decoding problem throws, naming the file. Lenient: the rows decoded
    /// before an error are kept (the rest show the background) and the error becomes a warning; a file that
    /// cannot be opened as an image still throws.
    public static func render(
        file path: String, cellSize: PixelSize, background: RGBA8 = .black, options: DecodeOptions = DecodeOptions()
    ) throws(TileViewError) -> (image: ImageBuffer, warnings: [String]) {
        do {
            switch try ImageFormat.detect(in: .file(path: path)) {
            case .jpeg: return try renderJPEG(path, cellSize, background, options)
            case .png: return try renderPNG(path, cellSize, background, options)
            }
        } catch {
            throw TileViewError(error, path: path)
        }
    }

    /// The decoded band: stored (un-oriented) level pixels, their rect in the stored level, and what went wrong.
    private struct Band {
        var pixels: ImageBuffer
        var rect: PixelRect
        var failure: CodecError?
    }

    private static func renderJPEG(_ path: String, _ cellSize: PixelSize, _ background: RGBA8, _ options: DecodeOptions)
        throws(CodecError) -> (image: ImageBuffer, warnings: [String])
    {
        let reader = try JPEGScanlineReader(.file(path: path), options: options)
        let orientation = options.applyOrientation ? reader.header.orientation : .up
        let imageSize = orientation.orientedSize(forStoredSize: reader.header.storedSize)
        let m = jpegScaleNumerator(imageSize: imageSize, cellSize: cellSize)
        let storedLevel = JPEGDecoder.scaledSize(of: reader.header.storedSize, scaleNumerator: m)
        let renderer = FrameRenderer(
            geometry: geometry(
                imageSize: imageSize, levelSize: orientation.orientedSize(forStoredSize: storedLevel),
                cellSize: cellSize),
            background: background)
        guard let needed = renderer.sourceRect else {
            return (renderer.render(source: ImageBuffer(width: 0, height: 0), sourceOrigin: (0, 0)), [])
        }
        let stored = orientation.storedRect(forOrientedRect: needed, storedSize: storedLevel)
        // One column beyond each side: fancy upsampling treats the crop window's edges as image edges.
        let window = try reader.start(scaleNumerator: m, cropColumns: (stored.x - 1)..<(stored.maxX + 1))
        try reader.skipRows(stored.y)
        var band = Band(
            pixels: ImageBuffer(width: window.columns.count, height: stored.height),
            rect: PixelRect(
                x: window.columns.lowerBound, y: stored.y, width: window.columns.count, height: stored.height))
        let first = reader.nextRow
        do throws(CodecError) {
            let got = try reader.readRows(stored.height, into: &band.pixels)
            guard got == stored.height else { throw CodecError(.truncated, "JPEG rows end early") }
            try reader.finish()
        } catch {
            guard options.lenient, reader.nextRow > first else { throw error }
            band.failure = error
        }
        return finish(band, reader.warnings, orientation, storedLevel, renderer)
    }

    private static func renderPNG(_ path: String, _ cellSize: PixelSize, _ background: RGBA8, _ options: DecodeOptions)
        throws(CodecError) -> (image: ImageBuffer, warnings: [String])
    {
        let reader = try PNGRowReader(.file(path: path), options: options)
        let full = reader.header.storedSize
        let orientation = options.applyOrientation ? reader.header.orientation : .up
        let imageSize = orientation.orientedSize(forStoredSize: full)
        let factor = boxFactor(imageSize: imageSize, cellSize: cellSize)
        let storedLevel = BoxReducer.reducedSize(of: full, factor: factor)
        let renderer = FrameRenderer(
            geometry: geometry(
                imageSize: imageSize, levelSize: orientation.orientedSize(forStoredSize: storedLevel),
                cellSize: cellSize),
            background: background)
        guard let needed = renderer.sourceRect else {
            return (renderer.render(source: ImageBuffer(width: 0, height: 0), sourceOrigin: (0, 0)), [])
        }
        let stored = orientation.storedRect(forOrientedRect: needed, storedSize: storedLevel)
        let rows = (stored.y * factor)..<min(stored.maxY * factor, full.height)
        let columns = (stored.x * factor)..<min(stored.maxX * factor, full.width)
        var band = Band(pixels: ImageBuffer(width: stored.width, height: stored.height), rect: stored)
        let rowBytes = reader.rowBytes
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * factor, alignment: 16)
        defer { scratch.deallocate() }
        let first = reader.nextRow
        do throws(CodecError) {
            try reader.skipRows(rows.lowerBound)
            for outRow in 0..<stored.height {
                let wanted = min(factor, rows.upperBound - (rows.lowerBound + outRow * factor))
                let got = try reader.readRows(wanted, into: scratch, rowBytes: rowBytes)
                guard got == wanted else { throw CodecError(.truncated, "PNG image data ends early") }
                band.pixels.pixels.withUnsafeMutableBufferPointer { out in
                    BoxReducer.reduceBand(
                        scratch.baseAddress!.assumingMemoryBound(to: UInt8.self), rowBytes: rowBytes, rows: got,
                        columns: columns, factor: factor, into: out.baseAddress! + outRow * stored.width * 4)
                }
            }
            try reader.finish()
        } catch {
            guard options.lenient, reader.nextRow > first + rows.lowerBound else { throw error }
            band.failure = error
        }
        return finish(band, reader.warnings, orientation, storedLevel, renderer)
    }

    /// Turns the band upright and resamples it into the cell.
    private static func finish(
        _ band: Band, _ warnings: [String], _ orientation: ImageOrientation, _ storedLevel: PixelSize,
        _ renderer: FrameRenderer
    ) -> (image: ImageBuffer, warnings: [String]) {
        let upright = band.pixels.applying(orientation)
        let origin = orientation.orientedRect(forStoredRect: band.rect, storedSize: storedLevel)
        var notes = warnings
        if let failure = band.failure {
            notes.append(failure.message + " (the rest of the thumbnail shows the background)")
        }
        return (renderer.render(source: upright, sourceOrigin: (origin.x, origin.y)), notes)
    }
}
