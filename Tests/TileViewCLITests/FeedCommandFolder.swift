import Foundation
import TileViewCore
import TileViewTestSupport

/// Folders of grid images for `tileview feed` tests, made once per test process and removed when it exits.
///
/// `images`: `cell-1.png` to `cell-300.png`, 64x48 crops of the sample photos at positions that move with the
/// index (zlib level 1), with `cell-5.jpg` the rocket photo so that the JPEG path runs too. `links(count:)`:
/// `img1` ... symbolic links cycling through them, for longer grids.
enum FeedCommandFolder {
    static let images: URL = {
        do {
            return try TestPages.gridFolder(
                "tileview-feed-cli-grid", count: 300, sources: ["astronaut.png", "coffee.png"],
                copies: [5: Fixtures.sampleImages.appendingPathComponent("rocket.jpg")])
        } catch {
            fatalError("cannot make the feed test folder: \(error)")
        }
    }()

    /// `count` links `img1` ... to the 300 images, in a fresh folder removed at exit.
    static func links(count: Int) throws -> URL {
        let dir = try TemporaryFolder.untilExit("tileview-feed-cli-links")
        let names = try FileManager.default.contentsOfDirectory(atPath: images.path).sorted()
        for index in 0..<count {
            let target = images.appendingPathComponent(names[index % names.count])
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent("img\(index + 1).\(target.pathExtension)"), withDestinationURL: target)
        }
        return dir
    }
}
