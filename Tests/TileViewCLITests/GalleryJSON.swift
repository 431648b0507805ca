import Foundation

/// `tileview gallery --json`.
struct GalleryJSON: Decodable {
    struct Step: Decodable, Equatable {
        struct Transition: Decodable, Equatable {
            let index, of: Int
            let fraction: Double
            let from, to: String
        }

        let step: Int
        let move, frame: String?
        let page: String
        let cell: [Int]?
        let resident, loaded, evicted: [String]
        let zoomScale: Double
        let transition: Transition?
    }

    struct Summary: Decodable {
        let frames, maxResident, peakResidentBytes: Int
        let peakRSSBytes: Int?
        let shard: String?
    }

    let steps: [Step]
    let summary: Summary

    static func parse(_ text: String) throws -> GalleryJSON {
        try JSONDecoder().decode(GalleryJSON.self, from: Data(text.utf8))
    }
}
