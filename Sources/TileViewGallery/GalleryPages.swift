import TileViewCore
import TileViewPaging

/// The pages of a gallery: the layout they form, each page's name as the user wrote it, and its file.
///
/// Three sources (docs/design.md section 4): files listed on the command line (names and paths as written), a folder
/// (its image files in natural order, named by file name; see `GalleryPages+Files.swift` in TileView), or a page
/// map (names as written in the map, paths relative to the map file's folder). Pages are kept in page order;
/// `position(ofPage:)` and `pageIndex(at:)` of the layout translate between the two.
public struct GalleryPages: Sendable {
    public typealias Cell = PageMap.Cell

    /// The shape: linear or circular list, or a map.
    public let layout: PageLayout
    /// Each page's name as written in the list or map, in page order (packed: a folder's pages may be many).
    public let names: PackedStrings
    /// Each page's file path, in page order.
    public let paths: PackedStrings

    /// Pages from explicit names and paths (the same count), in page order.
    public init(layout: PageLayout, names: some Sequence<String>, paths: some Sequence<String>) {
        self.layout = layout
        self.names = PackedStrings(names)
        self.paths = PackedStrings(paths)
        precondition(
            self.names.count == layout.count && self.paths.count == layout.count, "one name and path per page")
    }

    /// The files given on the command line, in that order; a circular list when `circular`.
    public init(files: [String], circular: Bool = false) {
        self.init(layout: circular ? .circular(files.count) : .linear(files.count), names: files, paths: files)
    }

    /// The pages of a map: a cell's text is its name, and its path is that text relative to the folder of
    /// `mapPath` (an absolute cell path stays as it is).
    public init(map: PageMap, mapPath: String) {
        let folder = mapPath.lastIndex(of: "/").map { String(mapPath[...$0]) } ?? ""
        let names = map.pageCells.map { map.page(at: $0) ?? "" }
        self.init(layout: .map(map), names: names, paths: names.map { $0.hasPrefix("/") ? $0 : folder + $0 })
    }

    public var count: Int { layout.count }

    /// The name of the page at `position` as written (empty when no page is there).
    public func name(at position: Cell) -> String {
        layout.pageIndex(at: position).map { names[$0] } ?? ""
    }

    /// The file of the page at `position` (empty when no page is there).
    public func path(at position: Cell) -> String {
        layout.pageIndex(at: position).map { paths[$0] } ?? ""
    }

    /// The page `text` picks as the first page: a page written exactly `text` (the first in page order), else a
    /// page index from 0. Nil when it is neither. A name wins over an index, so `--start 6` on a map whose pages
    /// are named 1 to 8 starts at the page named 6.
    public func position(forStart text: String) -> Cell? {
        if let index = names.firstIndex(of: text) { return layout.position(ofPage: index) }
        guard let index = Int(text), index >= 0, index < count else { return nil }
        return layout.position(ofPage: index)
    }

    /// Why `text` picks no first page (`position(forStart:)` is nil), as the command and the server say it.
    public func startProblem(_ text: String) -> String {
        "'\(text)' is neither a page as written nor an index from 0 to \(count - 1)"
    }
}
