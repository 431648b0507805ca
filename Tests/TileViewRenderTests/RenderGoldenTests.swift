import Foundation
import Testing
import TileViewCore
import TileViewRender
import TileViewTestSupport

/// One golden frame: a named render whose bytes are pinned by their SHA-256 in
/// `Tests/Goldens/render/<name>.json` (`RECORD_GOLDENS=1` rewrites the files).
struct RenderGolden: Sendable, CustomStringConvertible {
    let name: String
    let level: @Sendable () -> ImageBuffer
    let geometry: FrameGeometry
    let filter: ResampleFilter
    let background: RGBA8

    var description: String { name }

    /// What the JSON file holds.
    struct Record: Codable, Equatable {
        var name: String
        var width: Int
        var height: Int
        var sha256: String
    }

    static let all: [RenderGolden] = [
        RenderGolden(
            name: "shrink-lanczos3", level: { TestImages.photo(width: 97, height: 71, seed: 1) },
            geometry: FrameGeometry(
                frameSize: PixelSize(width: 48, height: 40), zoomScale: 0.37, imageFrameOrigin: Point(x: 3.3, y: 5.7),
                imageSize: PixelSize(width: 97, height: 71)),
            filter: .automatic, background: .black),
        RenderGolden(
            name: "enlarge-catmull-rom", level: { TestImages.photo(width: 23, height: 17, seed: 2) },
            geometry: FrameGeometry(
                frameSize: PixelSize(width: 64, height: 48), zoomScale: 3.3,
                imageFrameOrigin: Point(x: -10.25, y: 2.5), imageSize: PixelSize(width: 23, height: 17)),
            filter: .automatic, background: RGBA8(r: 30, g: 30, b: 30)),
        RenderGolden(
            name: "enlarge-bilinear", level: { TestImages.noise(width: 12, height: 9, seed: 3) },
            geometry: FrameGeometry(
                frameSize: PixelSize(width: 40, height: 30), zoomScale: 2.75, imageFrameOrigin: Point(x: 4.6, y: 1.2),
                imageSize: PixelSize(width: 12, height: 9)),
            filter: .bilinear, background: .black),
        RenderGolden(
            name: "translucent-over-clear", level: { TestImages.noise(width: 50, height: 40, seed: 4, alpha: true) },
            geometry: FrameGeometry(
                frameSize: PixelSize(width: 36, height: 36), zoomScale: 0.8, imageFrameOrigin: Point(x: -2.5, y: 3.25),
                imageSize: PixelSize(width: 50, height: 40)),
            filter: .lanczos3, background: RGBA8(r: 0, g: 0, b: 0, a: 0)),
        RenderGolden(
            name: "level2-fit", level: { TestImages.photo(width: 76, height: 51, seed: 5) },
            geometry: FrameGeometry(
                frameSize: PixelSize(width: 64, height: 48), zoomScale: 64.0 / 301,
                imageFrameOrigin: Point(x: 0, y: (48 - 203 * 64.0 / 301) / 2),
                imageSize: PixelSize(width: 301, height: 203),
                levelSize: PixelSize(width: 76, height: 51)),
            filter: .automatic, background: .black),
    ]

    func render() -> ImageBuffer {
        FrameRenderer(geometry: geometry, filter: filter, background: background)
            .render(source: level(), sourceOrigin: (0, 0))
    }
}

@Suite("Render goldens")
struct RenderGoldenTests {
    @Test("golden frames keep their bytes", arguments: RenderGolden.all)
    func goldenFrameKeepsItsBytes(golden: RenderGolden) throws {
        let frame = golden.render()
        let record = RenderGolden.Record(
            name: golden.name, width: frame.width, height: frame.height, sha256: SHA256.hex(frame.pixels))
        try Golden.assertJSON(record, "render/\(golden.name).json")
    }
}
