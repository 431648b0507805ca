import Foundation
import TileViewCodecs
import TileViewCore

/// Generated test images written as files: gallery pages, grid folders for feeds, and reading them back.
public enum TestPages {
    /// Page `k`: a base colour that differs per page with a horizontal brightness ramp, opaque.
    public static func page(_ k: Int, width: Int, height: Int) -> ImageBuffer {
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

    /// Writes `image` as a PNG file at `url`.
    public static func writePNG(_ image: ImageBuffer, to url: URL, options: PNGEncodeOptions = PNGEncodeOptions())
        throws
    {
        try Data(try PNGEncoder.encode(image, options: options)).write(to: url)
    }

    /// Pages 0, 1, ... of `width` x `height` written into `dir` as PNGs under `names`; returns their paths.
    @discardableResult
    public static func write(_ names: [String], into dir: URL, width: Int = 40, height: Int = 30) throws -> [String] {
        try write(names.indices.map { page($0, width: width, height: height) }, into: dir, names: names)
    }

    /// `count` pages of `width` x `height` written into `dir` as `page-0.png`, `page-1.png`, ...; returns their
    /// paths.
    @discardableResult
    public static func pages(_ count: Int, into dir: URL, width: Int, height: Int) throws -> [String] {
        try write((0..<count).map { "page-\($0).png" }, into: dir, width: width, height: height)
    }

    /// `images` written into `dir` as PNGs under `names` (default `page-0.png`, `page-1.png`, ...); returns
    /// their paths.
    @discardableResult
    public static func write(_ images: [ImageBuffer], into dir: URL, names: [String]? = nil) throws -> [String] {
        try images.enumerated().map { k, image in
            let url = dir.appendingPathComponent(names?[k] ?? "page-\(k).png")
            try writePNG(image, to: url)
            return url.path
        }
    }

    /// A folder of `count` grid images `cell-1` ... `cell-<count>`, removed when the test process exits.
    ///
    /// Item `i` is a copy of `copies[i]` where there is one (keeping its extension); otherwise a crop of the
    /// sample photo `sources[i % sources.count]` of `size(i)` at ((i * 37) % (w - width), (i * 23) % (h - height)),
    /// written as `cell-<i>.png` with zlib level 1.
    public static func gridFolder(
        _ label: String, count: Int, sources: [String], copies: [Int: URL] = [:],
        size: (Int) -> PixelSize = { _ in PixelSize(width: 64, height: 48) }
    ) throws -> URL {
        let dir = try TemporaryFolder.untilExit(label)
        let images = try sources.map { name in
            try PNGDecoder.decode(.file(path: Fixtures.sampleImages.appendingPathComponent(name).path)).image
        }
        var options = PNGEncodeOptions()
        options.compression = .level(1)
        for item in 1...count {
            if let source = copies[item] {
                try FileManager.default.copyItem(
                    at: source, to: dir.appendingPathComponent("cell-\(item).\(source.pathExtension)"))
                continue
            }
            let image = images[item % images.count]
            let crop = size(item)
            let x = (item * 37) % (image.width - crop.width)
            let y = (item * 23) % (image.height - crop.height)
            try writePNG(
                image.cropped(to: PixelRect(x: x, y: y, width: crop.width, height: crop.height)),
                to: dir.appendingPathComponent("cell-\(item).png"), options: options)
        }
        return dir
    }

    /// The decoded pixels of an image file.
    public static func pixels(_ path: String) throws -> ImageBuffer {
        try ImageDecoder.decode(.file(path: path)).image
    }

    /// The files in `dir` named like frames (`frame-...`), sorted; none when the folder is missing.
    public static func frames(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix("frame-") }
            .sorted()
    }
}
