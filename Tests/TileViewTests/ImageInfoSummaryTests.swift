import Foundation
import Testing
import TileView
import TileViewCodecs
import TileViewCore

/// `tileview info`'s line says what the header says, in words a person reads as true: singulars for one, and a
/// count that stopped at the most counted says so.
@Suite("Image info summary")
struct ImageInfoSummaryTests {
    static func header(width: Int, height: Int, format: ImageFormat = .tiff, frames: Int = 1) -> ImageHeader {
        ImageHeader(
            format: format, storedSize: PixelSize(width: width, height: height), bitDepth: 8, colorType: "gray",
            components: 1, frames: frames)
    }

    @Test("one level and one tile are said in the singular; more in the plural")
    func singulars() {
        let small = ImageInfo(file: "a.tif", header: Self.header(width: 100, height: 80)).summary
        #expect(small.hasSuffix(", 1 level, 1 tile of 256"), "\(small)")
        let large = ImageInfo(file: "b.tif", header: Self.header(width: 1000, height: 800)).summary
        #expect(large.hasSuffix(", 3 levels, 21 tiles of 256"), "\(large)")
    }

    @Test("pages and frames past the first are counted, and a count that stopped at the limit says 'or more'")
    func pageCounts() throws {
        func summary(_ format: ImageFormat, _ frames: Int) -> String {
            ImageInfo(file: "x", header: Self.header(width: 10, height: 10, format: format, frames: frames)).summary
        }
        #expect(!summary(.tiff, 1).contains("pages"))
        #expect(summary(.tiff, 3).contains(", 3 pages (the first shown),"))
        #expect(summary(.gif, 99_999).contains(", 99999 frames (the first shown),"))
        let limit = ImageHeader.framesCounted
        #expect(
            summary(.tiff, limit).contains(", \(limit) or more pages (the first shown),"), "\(summary(.tiff, limit))")
        #expect(summary(.gif, limit).contains(", \(limit) or more frames (the first shown),"))
        // In JSON, the count and whether it stopped there; nothing more for a count that did not.
        func json(_ frames: Int) throws -> [String: Any] {
            let info = ImageInfo(file: "x", header: Self.header(width: 10, height: 10, frames: frames))
            return try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as? [String: Any])
        }
        #expect(try json(limit)["frames"] as? Int == limit && json(limit)["framesAtLeast"] as? Bool == true)
        #expect(try json(3)["frames"] as? Int == 3 && json(3)["framesAtLeast"] == nil)
    }
}
