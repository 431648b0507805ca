import TileViewCodecs
import TileViewCore
import TileViewImage
import TileViewTiling

/// Opening what `tileview zoom` and `tileview info` accept: an image, or a scene (sniffed from the content).
public enum ZoomContentFiles {
    /// Opens `path` as an image (its header only) or, when it is no image format tileview reads and starts as a JSON
    /// object, as a scene (the scene file and its images' headers). Errors name the file. With `headers` an image's
    /// header is read once across calls (a gallery's planning and loading).
    public static func open(
        _ path: String, cacheBudgetBytes: Int = TiledImage.defaultCacheBudgetBytes,
        options: DecodeOptions = DecodeOptions(), headers: PageHeaders? = nil, tileSize: Int = TileGrid.defaultTileSize,
        sharedTiles: TiledImage.SharedTiles? = nil
    ) throws(TileViewError) -> any ZoomContent {
        // The file is opened once: its header and every pixel are read through this descriptor.
        let source: ImageSource
        do {
            source = .descriptor(try OpenDescriptor.open(regularFile: path))
        } catch {
            throw TileViewError(error, path: path)
        }
        let header: ImageHeader
        if let known = headers?.known(path) {
            header = known
        } else {
            do {
                header = try ImageHeader.read(from: source)
            } catch  where error.kind == .unknownFormat {
                return try SceneImage(path: path, cacheBudgetBytes: cacheBudgetBytes, options: options, notImage: error)
            } catch {
                throw TileViewError(error, path: path)
            }
            headers?.remember(header, of: path)
        }
        return try TiledImage(
            source: source, name: path, header: header, tileSize: tileSize, cacheBudgetBytes: cacheBudgetBytes,
            sharedTiles: sharedTiles, options: options)
    }
}
