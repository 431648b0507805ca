import Foundation
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

#if canImport(Glibc)
    import Glibc
#endif

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
            return try make()
        } catch {
            fatalError("cannot make the feed test folder: \(error)")
        }
    }()

    static func make() throws -> URL {
        let dir = try Fixtures.temporaryDirectory("tileview-feed-grid")
        removeAtExit(dir.path)
        let sources = try ["astronaut.png", "chelsea.png", "coffee.png"].map { name in
            try PNGDecoder.decode(.file(path: Fixtures.sampleImages.appendingPathComponent(name).path)).image
        }
        var options = PNGEncodeOptions()
        options.compressionLevel = 1
        for item in 1...count {
            if let source = copies[item] {
                try FileManager.default.copyItem(
                    at: source, to: dir.appendingPathComponent("cell-\(item).\(source.pathExtension)"))
                continue
            }
            let image = sources[item % sources.count]
            let size = item % 7 == 0 ? (24, 24) : (item % 10 == 0 ? (48, 64) : (64, 48))
            let x = (item * 37) % (image.width - size.0)
            let y = (item * 23) % (image.height - size.1)
            let crop = image.cropped(to: PixelRect(x: x, y: y, width: size.0, height: size.1))
            let bytes = try PNGEncoder.encode(crop, options: options)
            try Data(bytes).write(to: dir.appendingPathComponent("cell-\(item).png"))
        }
        return dir
    }

    private static let cleanup = Cleanup()

    private static func removeAtExit(_ path: String) {
        cleanup.add(path)
    }

    /// Folders to remove when the process exits.
    private final class Cleanup: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []

        init() {
            atexit { FeedTestFolder.cleanup.removeAll() }
        }

        func add(_ path: String) { lock.withLock { paths.append(path) } }

        func removeAll() {
            for path in lock.withLock({ paths }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
