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
/// - PNG: rows streamed and box-reduced with the largest whole factor f with 1/f >= s
///   (f = max(1, min(W / cw, H / ch))), keeping one band of f rows; rows below the crop are never decoded.
///   An Adam7 PNG is decoded whole first (W * H * 4 bytes while it runs), as `PNGRowReader` documents;
/// - both through `LevelReader`, the one place a level is read;
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
        do throws(CodecError) {
            let reader = try LevelReader(.file(path: path), options: options)
            let header = reader.header
            let orientation = options.applyOrientation ? header.orientation : .up
            let imageSize = orientation.orientedSize(forStoredSize: header.storedSize)
            let scale: LevelScale =
                switch header.format {
                case .jpeg: LevelScale(numerator: jpegScaleNumerator(imageSize: imageSize, cellSize: cellSize))
                default: LevelScale(boxFactor: boxFactor(imageSize: imageSize, cellSize: cellSize))
                }
            let storedLevel = scale.levelSize(ofStored: header.storedSize)
            let renderer = FrameRenderer(
                geometry: geometry(
                    imageSize: imageSize, levelSize: orientation.orientedSize(forStoredSize: storedLevel),
                    cellSize: cellSize),
                background: background)
            guard let needed = renderer.sourceRect else {
                return (renderer.render(source: ImageBuffer(width: 0, height: 0), sourceOrigin: (0, 0)), [])
            }
            let stored = orientation.storedRect(forOrientedRect: needed, storedSize: storedLevel)
            try reader.start(scale: scale, rect: stored)
            let (pixels, failure) = try reader.readAll()
            // Turned upright and resampled into the cell.
            let origin = orientation.orientedRect(forStoredRect: reader.rect, storedSize: storedLevel)
            var notes = reader.warnings
            if let failure { notes.append(failure + " (the rest of the thumbnail shows the background)") }
            return (renderer.render(source: pixels.applying(orientation), sourceOrigin: (origin.x, origin.y)), notes)
        } catch {
            throw TileViewError(error, path: path)
        }
    }
}
