import Foundation
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Folders of grid images for `tileview feed` tests, made once per test process and removed when it exits.
///
/// `images`: `cell-1.png` to `cell-300.png`, 64x48 crops of the sample photos at positions that move with the
/// index (zlib level 1), with `cell-5.jpg` the rocket photo so that the JPEG path runs too. `links(count:)`:
/// `img1` ... symbolic links cycling through them, for longer grids.
enum FeedCommandFolder {
    static let images: URL = {
        do {
            let dir = try Fixtures.temporaryDirectory("tileview-feed-cli-grid")
            cleanup.add(dir.path)
            let sources = try ["astronaut.png", "coffee.png"].map { name in
                try PNGDecoder.decode(.file(path: Fixtures.sampleImages.appendingPathComponent(name).path)).image
            }
            var options = PNGEncodeOptions()
            options.compressionLevel = 1
            for item in 1...300 {
                if item == 5 {
                    try FileManager.default.copyItem(
                        at: Fixtures.sampleImages.appendingPathComponent("rocket.jpg"),
                        to: dir.appendingPathComponent("cell-5.jpg"))
                    continue
                }
                let image = sources[item % sources.count]
                let crop = image.cropped(
                    to: PixelRect(
                        x: (item * 37) % (image.width - 64), y: (item * 23) % (image.height - 48), width: 64, height: 48
                    ))
                try Data(try PNGEncoder.encode(crop, options: options)).write(
                    to: dir.appendingPathComponent("cell-\(item).png"))
            }
            return dir
        } catch {
            fatalError("cannot make the feed test folder: \(error)")
        }
    }()

    /// `count` links `img1` ... to the 300 images, in a fresh folder removed at exit.
    static func links(count: Int) throws -> URL {
        let dir = try Fixtures.temporaryDirectory("tileview-feed-cli-links")
        cleanup.add(dir.path)
        let names = try FileManager.default.contentsOfDirectory(atPath: images.path).sorted()
        for index in 0..<count {
            let target = images.appendingPathComponent(names[index % names.count])
            try FileManager.default.createSymbolicLink(
                at: dir.appendingPathComponent("img\(index + 1).\(target.pathExtension)"), withDestinationURL: target)
        }
        return dir
    }

    private static let cleanup = Cleanup()

    /// Folders to remove when the process exits.
    private final class Cleanup: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []

        init() {
            atexit { FeedCommandFolder.cleanup.removeAll() }
        }

        func add(_ path: String) { lock.withLock { paths.append(path) } }

        func removeAll() {
            for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
