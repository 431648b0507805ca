/// `rotated(clockwiseQuarterTurns:)` is the orientation that shows the stored image as this one does, then turned
/// clockwise: how a viewer's rotation is composed with the file's EXIF orientation, so that the tiled model decodes
/// the rotated image as it decodes any oriented one.
extension ImageOrientation: QuarterTurnable {
    /// This orientation followed by one clockwise quarter turn. Found by comparing pixel mappings over a small
    /// image of unequal sides: turning an oriented image of W x H clockwise puts oriented pixel (x, y) at
    /// (H - 1 - y, x).
    public var turnedClockwise: ImageOrientation {
        let stored = PixelSize(width: 3, height: 2)
        let oriented = orientedSize(forStoredSize: stored)
        return ImageOrientation.allCases.first { candidate in
            let turned = candidate.orientedSize(forStoredSize: stored)
            guard turned.width == oriented.height, turned.height == oriented.width else { return false }
            for ry in 0..<turned.height {
                for rx in 0..<turned.width {
                    // The turned pixel (rx, ry) shows oriented pixel (ry, H - 1 - rx).
                    let expected = storedPixel(atOrientedX: ry, y: oriented.height - 1 - rx, storedSize: stored)
                    let actual = candidate.storedPixel(atOrientedX: rx, y: ry, storedSize: stored)
                    if expected != actual { return false }
                }
            }
            return true
        }!
    }
}
