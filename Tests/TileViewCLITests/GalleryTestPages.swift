import Foundation
import TileViewCodecs
import TileViewCore
import TileViewTestSupport

/// Small generated page images and the `--json` shape of `tileview gallery`, for the end-to-end tests.
enum GalleryTestPages {
    /// Page `k`: a colour that differs per page, with a ramp across.
    static func page(_ k: Int, width: Int = 40, height: Int = 30) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBA8(
                    r: UInt8((k * 67 + 40 + x) % 256), g: UInt8((k * 131 + 90 + y) % 256),
                    b: UInt8((k * 29 + 150) % 256))
            }
        }
        return image
    }

    /// Writes `image` as a PNG at `url`.
    static func write(_ image: ImageBuffer, to url: URL) throws {
        try Data(try PNGEncoder.encode(image, options: PNGEncodeOptions())).write(to: url)
    }

    /// `names.count` pages written into `dir` under those names; returns their paths.
    @discardableResult
    static func write(_ names: [String], into dir: URL, width: Int = 40, height: Int = 30) throws -> [String] {
        try names.enumerated().map { k, name in
            let url = dir.appendingPathComponent(name)
            try write(page(k, width: width, height: height), to: url)
            return url.path
        }
    }

    /// The decoded pixels of a PNG file.
    static func pixels(_ path: String) throws -> ImageBuffer {
        try ImageDecoder.decode(.file(path: path)).image
    }

    /// Files in `dir` named like frames, sorted.
    static func frames(in dir: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasPrefix("frame-") }
            .sorted()
    }
}

/// `tileview gallery --json`.
struct GalleryJSON: Decodable {
    struct Step: Decodable, Equatable {
        struct Transition: Decodable, Equatable {
            let index: Int
            let of: Int
            let fraction: Double
            let from: String
            let to: String
        }

        let step: Int
        let move: String?
        let page: String
        let cell: [Int]?
        let resident: [String]
        let loaded: [String]
        let evicted: [String]
        let frame: String?
        let zoomScale: Double
        let transition: Transition?
    }

    struct Summary: Decodable {
        let frames: Int
        let maxResident: Int
        let peakResidentBytes: Int
        let peakRSSBytes: Int?
        let shard: String?
    }

    let steps: [Step]
    let summary: Summary

    static func parse(_ text: String) throws -> GalleryJSON {
        try JSONDecoder().decode(GalleryJSON.self, from: Data(text.utf8))
    }
}
