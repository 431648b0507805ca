/// The address of one tile: its level of detail, its column and its row in that level's grid.
///
/// Level 0 is the full-size oriented image; level L is the image scaled by about 2^-L (see
/// `LevelPyramid`). Columns and rows count tiles from the top left of the level.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var level: Int
    public var column: Int
    public var row: Int

    public init(level: Int, column: Int, row: Int) {
        self.level = level
        self.column = column
        self.row = row
    }

    public var description: String { "L\(level)/\(column),\(row)" }
}
