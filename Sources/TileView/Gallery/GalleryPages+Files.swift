import TileViewCore
import TileViewGallery
import TileViewPaging

extension GalleryPages {
    /// The image files of folder `path` in natural name order (`img2` before `img10`), as a linear or
    /// circular list (`ImageFolder` picks the files). Pages are decoded by content, so a damaged `.jpg` is an
    /// error when it is shown, not a silently skipped page. A page's name is its file name.
    public static func reading(folder path: String, circular: Bool = false) throws(TileViewError) -> GalleryPages {
        let folder = try ImageFolder(path: path)
        return GalleryPages(
            layout: circular ? .circular(folder.count) : .linear(folder.count), names: folder.names,
            paths: folder.names.indices.map(folder.filePath(ofItem:)))
    }

    /// Reads a page map file (docs/design.md section 4): errors name the file, with line numbers for bad content.
    public static func reading(mapFile path: String) throws(TileViewError) -> GalleryPages {
        let text = try TextFile.read(path)
        do throws(PageMapError) {
            return GalleryPages(map: try PageMap(parsing: text), mapPath: path)
        } catch {
            throw TileViewError(.input, path: path, reason: error.description)
        }
    }
}

extension GalleryScript {
    /// Reads a script file; an unreadable file is a `.read` error and a bad line an `.input` error, both naming
    /// the file (and the line).
    public static func reading(file path: String) throws(TileViewError) -> GalleryScript {
        let text = try TextFile.read(path)
        do throws(GalleryScriptError) {
            return try GalleryScript(parsing: text)
        } catch {
            throw TileViewError(.input, path: path, reason: error.description)
        }
    }
}
