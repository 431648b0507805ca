import Foundation
import TileViewGallery
import TileView
import TileViewCodecs
import TileViewCore
import TileViewPaging
import TileViewTestSupport

/// Small generated page images for the gallery tests, written as PNG files.
enum GalleryTestImages {
    /// Page `k`: a base colour that differs per page with a horizontal brightness ramp, opaque.
    static func page(_ k: Int, width: Int, height: Int) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height)
        let base = (r: (k * 67 + 40) % 200, g: (k * 131 + 90) % 200, b: (k * 29 + 150) % 200)
        for y in 0..<height {
            for x in 0..<width {
                let ramp = width > 1 ? x * 55 / (width - 1) : 0
                image[x, y] = RGBA8(
                    r: UInt8(base.r + ramp), g: UInt8(base.g + (y * 30) / max(1, height)), b: UInt8(base.b + ramp / 2))
            }
        }
        return image
    }

    /// One colour all over.
    static func solid(_ colour: RGBA8, width: Int, height: Int) -> ImageBuffer {
        ImageBuffer(width: width, height: height, fill: colour)
    }

    /// Writes `images` as `page-0.png`, `page-1.png`, ... into a fresh folder; returns it and the paths.
    static func folder(_ images: [ImageBuffer], label: String = "gallery") throws -> (URL, [String]) {
        let dir = try Fixtures.temporaryDirectory(label)
        var paths: [String] = []
        for (k, image) in images.enumerated() {
            let url = dir.appendingPathComponent("page-\(k).png")
            try Data(try PNGEncoder.encode(image, options: PNGEncodeOptions())).write(to: url)
            paths.append(url.path)
        }
        return (dir, paths)
    }

    /// `count` distinct pages of `width` x `height` in a fresh folder.
    static func pages(_ count: Int, width: Int = 64, height: Int = 48, label: String = "gallery") throws
        -> (URL, [String])
    {
        try folder((0..<count).map { page($0, width: width, height: height) }, label: label)
    }
}
