import TileViewCore
import TileViewTiling

extension LevelPyramid {
    /// A frame of `frameSize` showing this pyramid's image at `zoomScale` viewport pixels per image pixel
    /// (`zoomScaleY` down, when it differs), its top left at `imageFrameOrigin` in the frame; drawn from the level
    /// the larger scale picks (`level(forZoomScale:)`). The one way a frame's geometry is made from a pyramid.
    /// `level`, when given, is drawn from instead (`coarsestLevel(from:coveringScaleX:scaleY:)` of a region).
    public func frameGeometry(
        frameSize: PixelSize, zoomScale: Double, zoomScaleY: Double? = nil, imageFrameOrigin: Point, level: Int? = nil
    ) -> (geometry: FrameGeometry, level: Int) {
        let level = level ?? self.level(forZoomScale: max(zoomScale, zoomScaleY ?? zoomScale))
        let geometry = FrameGeometry(
            frameSize: frameSize, zoomScale: zoomScale, zoomScaleY: zoomScaleY, imageFrameOrigin: imageFrameOrigin,
            imageSize: imageSize, levelSize: levelSize(ofLevel: level))
        return (geometry, level)
    }
}
