import Foundation

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
