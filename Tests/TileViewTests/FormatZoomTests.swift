import Foundation
import Testing
import TileView
import TileViewTestSupport

/// Every format zooms as a PNG of its decoded pixels does (docs/design.md section 15): the frames at fit and after
/// gestures are byte for byte those of the same pixels stored as a PNG, so the render-quality bounds checked for
/// PNG and JPEG hold for every format; where the file or its decoder gives levels of its own (a TIFF pyramid's
/// copies, a WebP's scaled decodes) the coarse levels come from those, close to the box-reduced ones.
@Suite("Zooming every format")
struct FormatZoomTests {
    /// Formats whose levels are box-reduced from the whole image, as a PNG's are (an animated WebP is not scaled by
    /// libwebp).
    static let files = [
        "webp/animated-3frames.webp", "heif/plain.heic", "heif/irot-imir-5.heic", "avif/10bit-422.avif",
        "tiff/rgb8-tile-jpeg.tif",
        "tiff/orientation-6.tif", "tiff/rgba16-tile-none.tif", "tiff/cmyk8-strip-lzw.tif", "tiff/rgb8-tile-deflate.tif",
        "gif/interlaced.gif", "gif/transparent.gif",
    ]

    /// The upright pixels of `path` a colour-managed screen shows, written as a plain PNG in `dir`; its path.
    static func pngCopy(of path: String, in dir: URL) throws -> String {
        let decoded = try ImageDecoder.decode(.file(path: path), options: DecodeOptions(color: .srgb))
        let png = dir.appendingPathComponent("decoded.png").path
        try Data(PNGEncoder.encode(decoded.image)).write(to: URL(fileURLWithPath: png))
        return png
    }

    /// The mean difference of the bytes of two frames of one size.
    static func meanDifference(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
        Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
    }

    /// `path` and its PNG copy (`pngCopy`) in zoom sessions of one view: gestures go to both, frames are compared.
    struct Twins {
        let original: ZoomSession
        let copy: ZoomSession

        init(_ path: String, png: String, view: ViewSettings) throws {
            original = ZoomSession(image: try TiledImage(path: path), view: view)
            copy = ZoomSession(image: try TiledImage(path: png), view: view)
        }

        func apply(_ gesture: ZoomGesture) throws {
            try original.apply(gesture)
            try copy.apply(gesture)
        }

        /// The frames both show now.
        func frames() throws -> (original: ImageBuffer, copy: ImageBuffer) {
            (try original.render().image, try copy.render().image)
        }

        /// Whether both show the same frame, byte for byte (compared outside `#expect`: the buffers are large).
        func sameFrame() throws -> Bool {
            let (a, b) = try frames()
            return a == b
        }
    }

    @Test("frames equal those of the decoded pixels saved as PNG, at fit and after seeded gestures", arguments: files)
    func framesEqualThePNGs(_ file: String) throws {
        let path = FormatCorpus.root.appendingPathComponent(file).path
        try TemporaryFolder.with("format-zoom") { dir in
            let png = try Self.pngCopy(of: path, in: dir)
            var rng = SplitMix64(seed: UInt64(file.utf8.count))
            for trial in 0..<3 {
                let viewport = PixelSize(width: 60 + rng.int(below: 200), height: 60 + rng.int(below: 200))
                let view = ViewSettings(viewport: viewport, maximumScale: 4, background: RGBA8(r: 30, g: 40, b: 50))
                let twins = try Twins(path, png: png, view: view)
                #expect(try twins.sameFrame(), "\(file) at fit, trial \(trial)")
                for gesture in SceneRenderTests.gestures(&rng, viewport: viewport.asSize) + [
                    .doubleTap(viewportPoint: Point(x: 20, y: 20))
                ] {
                    try twins.apply(gesture)
                    #expect(try twins.sameFrame(), "\(file) after \(gesture)")
                }
            }
        }
    }

    @Test(
        "a pyramid TIFF shows its stored copies at coarse levels, close to its first page reduced, and the page at 1:1",
        arguments: ["tiff/pyramid-jpeg.tif", "tiff/pyramid-subifd-jpeg.tif"])
    func pyramidFrames(_ file: String) throws {
        let path = FormatCorpus.root.appendingPathComponent(file).path
        try TemporaryFolder.with("format-pyramid") { dir in
            let png = try Self.pngCopy(of: path, in: dir)
            let view = ViewSettings(viewport: PixelSize(width: 160, height: 120), maximumScale: 4)
            let twins = try Twins(path, png: png, view: view)
            // At fit (1200x900 in 160x120: level 2, the 300x225 copy) the frames differ, but little.
            let (a, b) = try twins.frames()
            let differs = a != b
            #expect(differs, "the stored copy is what is shown")
            let mean = Self.meanDifference(a, b)
            #expect(mean < 3, "mean difference \(mean)")
            // Zoomed in to 1:1 and beyond: level 0, the first page, the same bytes.
            try twins.apply(.zoomTo(imageRect: Rect(x: 500, y: 400, width: 160, height: 120)))
            #expect(try twins.sameFrame(), "the first page at 1:1")
        }
    }

    @Test(
        "a WebP's coarse levels are libwebp's scaled decodes, close to the image box-reduced; level 0 is the image",
        arguments: ["webp/lossy-q80.webp", "webp/lossless-alpha.webp", "webp/exif-orientation-6.webp"])
    func webpLevels(_ file: String) throws {
        let path = FormatCorpus.root.appendingPathComponent(file).path
        try TemporaryFolder.with("format-webp") { dir in
            let png = try Self.pngCopy(of: path, in: dir)
            let header = try ImageHeader.read(from: .file(path: path))
            #expect(header.storedLevels.first == BoxReducer.reducedSize(of: header.storedSize, factor: 2))
            // 128x96 in 40x30: level 1 (or 2), from a scaled decode.
            let view = ViewSettings(viewport: PixelSize(width: 40, height: 30), maximumScale: 4)
            let twins = try Twins(path, png: png, view: view)
            #expect(LevelScale.pyramidLevel(1, header: header).storedLevel == 1, "level 1 is a scaled decode")
            // libwebp's area-averaging rescaler equals a 2x2 box on most pixels; the frames are close.
            let (a, b) = try twins.frames()
            let mean = Self.meanDifference(a, b)
            #expect(mean < 3, "\(file): mean difference \(mean)")
            try twins.apply(.zoomTo(imageRect: Rect(x: 10, y: 10, width: 20, height: 15)))
            #expect(try twins.sameFrame(), "\(file): level 0 is the image")
        }
    }

    @Test("a format decoded whole is decoded once however many frames and regions are drawn")
    func decodedOnce() throws {
        let path = FormatCorpus.root.appendingPathComponent("heif/plain.heic").path
        let image = try TiledImage(path: path, cacheBudgetBytes: 1 << 20)
        let session = ZoomSession(
            image: image, view: ViewSettings(viewport: PixelSize(width: 100, height: 80), maximumScale: 4))
        _ = try session.render()
        for x in stride(from: 5.0, to: 95, by: 15) {
            try session.apply(.doubleTap(viewportPoint: Point(x: x, y: 40)))
            _ = try session.render()
        }
        #expect(image.decodePasses >= 2, "several regions were drawn")
        #expect(image.residentBytes >= 128 * 96 * 4, "the whole decode is kept while the image is open")
        image.releaseAll()
        #expect(image.residentBytes == 0)
    }
}
