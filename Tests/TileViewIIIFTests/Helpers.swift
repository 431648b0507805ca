import TileViewCore
import TileViewIIIF

/// The error `body` throws, or nil when it returns.
func requestError(_ body: () throws(ImageRequestError) -> Void) -> ImageRequestError? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// The request parsed from a path, or the error.
func parse(_ path: String) -> Result<IIIFImageRequest, ImageRequestError> {
    do throws(ImageRequestError) { return .success(try IIIFImageRequest(path: path)) } catch { return .failure(error) }
}

/// The request parsed from a path and resolved against `imageSize` under `limits`, or the error.
func resolve(
    _ path: String, _ imageSize: PixelSize, _ limits: IIIFLimits = IIIFLimits()
) -> Result<IIIFResolved, ImageRequestError> {
    do throws(ImageRequestError) {
        return .success(try IIIFImageRequest(path: path).resolve(imageSize: imageSize, limits: limits))
    } catch { return .failure(error) }
}
