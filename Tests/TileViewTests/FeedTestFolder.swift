import Foundation
import TileViewCore
import TileViewTestSupport

/// A folder of 300 small images for feed tests, made once per test process and removed when it exits.
///
/// `cell-1` to `cell-300` (natural order matters: `cell-2` before `cell-10`). Most are 64x48 PNGs cropped from
/// the sample photos at positions that move with the index, written with zlib level 1; every 10th is a 48x64
/// portrait crop and every 7th a 24x24 crop (thumbnails then enlarge it). A few are real files, to cover every
/// decoding path: `cell-3.jpg` an EXIF orientation 6 JPEG, `cell-4.png` an RGBA PNG, `cell-6.jpg` the 1411x1411
/// retina photo (decoded at 1/8), `cell-8.png` an Adam7 PNG, `cell-9.jpg` the rocket photo.
enum FeedTestFolder {
    static let count = 300

    /// Files copied in as they are: item number -> source.
    static let copies: [Int: URL] = [
        3: Fixtures.corpusRoot.appendingPathComponent("jpeg/exif_Landscape_6.jpg"),
        4: Fixtures.corpusRoot.appendingPathComponent("png/basn6a08.png"),
        6: Fixtures.sampleImages.appendingPathComponent("retina.jpg"),
        8: Fixtures.corpusRoot.appendingPathComponent("png/basi0g08.png"),
        9: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
    ]

    /// The folder; made on first use.
    static let url: URL = {
        do {
            return try TestPages.gridFolder(
                "tileview-feed-grid", count: count, sources: ["astronaut.png", "chelsea.png", "coffee.png"],
                copies: copies
            ) { item in
                item % 7 == 0
                    ? PixelSize(width: 24, height: 24)
                    : (item % 10 == 0 ? PixelSize(width: 48, height: 64) : PixelSize(width: 64, height: 48))
            }
        } catch {
            fatalError("cannot make the feed test folder: \(error)")
        }
    }()
}
