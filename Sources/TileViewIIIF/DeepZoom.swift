import TileViewCore

/// A Deep Zoom image pyramid: level `maxLevel` is the full image, each level below halves it (rounding up),
/// level 0 is 1 x 1; each level is cut into square tiles of `tileSize` pixels, each extended by `overlap`
/// pixels into its neighbours.
public struct DeepZoomImage: Hashable, Sendable {
    /// The full image's size (at least 1 x 1).
    public var size: PixelSize
    public var tileSize: Int
    public var overlap: Int
    /// The tile file extension, as written in the `.dzi` document.
    public var format: String

    public init(size: PixelSize, tileSize: Int = 256, overlap: Int = 0, format: String = "jpg") {
        self.size = size
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
    }

    /// ceil(log2(max(W, H))): the level of the full image.
    public var maxLevel: Int {
        let longest = max(size.width, size.height)
        var level = 0
        while level < Int.bitWidth - 2, (1 << level) < longest { level += 1 }
        return level
    }

    /// The size of `level`: ceil(W / 2^(maxLevel - level)) x ceil(H / 2^(maxLevel - level)), or nil for a level
    /// outside 0...maxLevel.
    public func levelSize(_ level: Int) -> PixelSize? {
        guard level >= 0, level <= maxLevel else { return nil }
        let divisor = 1 << (maxLevel - level)
        return PixelSize(
            width: IIIFInfo.ceilingDivision(size.width, divisor), height: IIIFInfo.ceilingDivision(size.height, divisor)
        )
    }

    /// The number of tile columns and rows of `level`, or nil for a level out of range.
    public func tileGrid(level: Int) -> (columns: Int, rows: Int)? {
        guard let levelSize = levelSize(level) else { return nil }
        return (
            IIIFInfo.ceilingDivision(levelSize.width, tileSize), IIIFInfo.ceilingDivision(levelSize.height, tileSize)
        )
    }

    /// The pixels of tile (`column`, `row`) of `level`, in that level's pixels, including the overlap on each
    /// side that has a neighbour; nil when the level, column or row is out of range.
    public func tileRect(level: Int, column: Int, row: Int) -> PixelRect? {
        guard let levelSize = levelSize(level), let grid = tileGrid(level: level), column >= 0, row >= 0,
            column < grid.columns, row < grid.rows
        else { return nil }
        let x0 = max(0, column * tileSize - overlap)
        let y0 = max(0, row * tileSize - overlap)
        let x1 = min(levelSize.width, (column + 1) * tileSize + overlap)
        let y1 = min(levelSize.height, (row + 1) * tileSize + overlap)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The pixels of the tile a path names, in its level's pixels; throws a 404 error when the tile does not
    /// exist (level, column or row out of range, or an extension other than `format`).
    public func tileRect(for path: DeepZoomTilePath) throws(ImageRequestError) -> PixelRect {
        guard path.format == format else {
            throw ImageRequestError(.notFound, "tile \"\(path)\": tiles are .\(format) files")
        }
        guard let rect = tileRect(level: path.level, column: path.column, row: path.row) else {
            throw ImageRequestError(.notFound, "tile \"\(path)\": no such tile in a \(size) image")
        }
        return rect
    }

    /// The `.dzi` document: one line of XML.
    public var dziXML: String {
        #"<?xml version="1.0" encoding="UTF-8"?>"#
            + #"<Image xmlns="http://schemas.microsoft.com/deepzoom/2008" TileSize="\#(tileSize)" "#
            + #"Overlap="\#(overlap)" Format="\#(format)"><Size Width="\#(size.width)" Height="\#(size.height)"/>"#
            + "</Image>"
    }
}

/// A Deep Zoom tile path, `{level}/{column}_{row}.{format}`.
public struct DeepZoomTilePath: Hashable, Sendable, CustomStringConvertible {
    public var level: Int
    public var column: Int
    public var row: Int
    public var format: String

    public init(level: Int, column: Int, row: Int, format: String = "jpg") {
        self.level = level
        self.column = column
        self.row = row
        self.format = format
    }

    /// Parses `{level}/{column}_{row}.{format}`: three non-negative integers and an extension of letters and
    /// digits. Throws a 400 error for any other text.
    public init(parsing text: String) throws(ImageRequestError) {
        func fail() -> ImageRequestError {
            .badRequest("tile", text, "expected {level}/{column}_{row}.{format}")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let level = IIIFNumber.integer(parts[0]), let dot = parts[1].lastIndex(of: ".")
        else { throw fail() }
        let name = parts[1][..<dot]
        let ext = parts[1][parts[1].index(after: dot)...]
        let numbers = name.split(separator: "_", omittingEmptySubsequences: false)
        guard numbers.count == 2, let column = IIIFNumber.integer(numbers[0]), let row = IIIFNumber.integer(numbers[1]),
            !ext.isEmpty, ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
        else { throw fail() }
        self.init(level: level, column: column, row: row, format: String(ext))
    }

    public var description: String { "\(level)/\(column)_\(row).\(format)" }
}
