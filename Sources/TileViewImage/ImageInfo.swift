import TileViewCodecs
import TileViewCore
import TileViewSystem
import TileViewTiling

/// What `tileview info` reports about one file: the header and the tile pyramid the file would get.
public struct ImageInfo: Codable, Equatable, Sendable {
    public var file: String
    public var format: String
    /// Stored size (before orientation).
    public var width: Int
    public var height: Int
    /// EXIF orientation, 1-8 (1 when the file has none).
    public var orientation: Int
    /// Size after orientation: what a viewer shows.
    public var orientedWidth: Int
    public var orientedHeight: Int
    public var bitDepth: Int
    public var colorType: String
    public var components: Int
    public var progressive: Bool
    public var interlaced: Bool
    public var chromaSubsampling: String?
    /// How the pixels are compressed where the format has a choice (WebP "VP8"/"VP8L", HEIF "HEVC"/"AV1", TIFF
    /// "LZW", "JPEG", ...); nil for PNG and JPEG.
    public var compression: String?
    /// Pages, frames or top-level images in the file; the first is shown (docs/design.md section 15).
    public var frames: Int
    /// True when the count stopped at `ImageHeader.framesCounted` (a TIFF or GIF of that many or more); absent
    /// otherwise.
    public var framesAtLeast: Bool?
    /// Reduced copies a TIFF stores (a pyramid), [width, height] each, largest first; levels of that size are read
    /// from them.
    public var storedLevels: [[Int]]
    /// The colour space (docs/design.md section 14): the profile's name ("Adobe RGB (1998)"), "sRGB", "sRGB (assumed)".
    public var color: String
    /// Why a profile the file carries is not used, when it is not.
    public var colorProblem: String?
    /// Levels of detail of the tiled model (level 0 is full size).
    public var levels: Int
    public var tileSize: Int
    /// Tiles over all levels.
    public var tiles: Int
    /// How the photo was taken, from its EXIF (absent without it).
    public var exif: ExifFields?

    public init(file: String, header: ImageHeader, tileSize: Int = TileGrid.defaultTileSize) {
        let pyramid = LevelPyramid(imageSize: header.orientedSize, tileSize: tileSize)
        self.file = file
        format = header.format.rawValue
        width = header.storedSize.width
        height = header.storedSize.height
        orientation = header.orientation.rawValue
        orientedWidth = header.orientedSize.width
        orientedHeight = header.orientedSize.height
        bitDepth = header.bitDepth
        colorType = header.colorType
        components = header.components
        progressive = header.isProgressive
        interlaced = header.isInterlaced
        chromaSubsampling = header.chromaSubsampling
        compression = header.compression
        frames = header.frames
        framesAtLeast = header.frames >= ImageHeader.framesCounted ? true : nil
        storedLevels = header.format == .tiff ? header.storedLevels.map { [$0.width, $0.height] } : []
        exif = header.exif
        color = header.color.name
        colorProblem = header.color.problem
        levels = pyramid.levelCount
        self.tileSize = tileSize
        tiles = pyramid.tileCount
    }

    /// Reads the header of `path`.
    public static func read(file path: String, tileSize: Int = TileGrid.defaultTileSize) throws(TileViewError)
        -> ImageInfo
    {
        ImageInfo(file: path, header: try ImageFiles.header(ofFile: path), tileSize: tileSize)
    }

    /// One line for people: `photo.jpg: JPEG 6000x4000 (shown 4000x6000, orientation 6), 8-bit ycbcr 4:2:0, ...`
    public var summary: String {
        let name = ImageFormat(rawValue: format)?.description ?? format.uppercased()
        var parts = ["\(name) \(width)x\(height)"]
        if orientation != 1 {
            parts[0] += " (shown \(orientedWidth)x\(orientedHeight), orientation \(orientation))"
        }
        var sample = "\(bitDepth)-bit \(colorType)"
        if let chromaSubsampling { sample += " \(chromaSubsampling)" }
        if let compression { sample += ", \(compression)" }
        parts.append(sample)
        parts.append(colorProblem == nil ? color : "\(color) (profile ignored: \(colorProblem!))")
        if progressive { parts.append("progressive") }
        if interlaced { parts.append("interlaced") }
        let copies = storedLevels.count
        if copies > 0 { parts.append("a pyramid of \(copies) reduced \(copies == 1 ? "copy" : "copies")") }
        if frames - (frames > copies ? copies : 0) > 1 {
            let counted = framesAtLeast == true ? "\(frames) or more" : "\(frames)"
            parts.append("\(counted) \(format == "tiff" ? "pages" : "frames") (the first shown)")
        }
        parts.append("\(levels) level\(levels == 1 ? "" : "s"), \(tiles) tile\(tiles == 1 ? "" : "s") of \(tileSize)")
        return "\(file): " + parts.joined(separator: ", ")
    }
}
