import Testing
import TileViewPaging

/// The classic map of docs/design.md section 4.
enum ClassicMap {
    static let text = """
        1 . 2
        3 4 5
        . 6 7
        . . 8
        """

    static func map() throws -> PageMap { try PageMap(parsing: text) }

    static func cell(_ name: String) throws -> PageMap.Cell {
        try #require(try map().cell(ofPage: name))
    }
}
