import TileViewCore
import TileViewPaging
import TileViewZoom

/// One frame's record: `step` (the frame's index), `move` (the step's text; null for the initial view), `page`
/// as written in the list or map, `cell` [column, row] (maps only), `resident`, `loaded` and `evicted` as lists
/// of pages, `frame` (the PNG written), `zoomScale` of the current page, and on frames between two pages
/// `transition` {`index`, `of`, `fraction`, `from`, `to`}.
public struct GalleryStepRecord: Encodable, Equatable, Sendable {
    public struct Transition: Encodable, Equatable, Sendable {
        public let index: Int
        public let of: Int
        public let fraction: Double
        public let from: String
        public let to: String
    }

    public let step: Int
    @EncodedAsNull public private(set) var move: String?
    public let page: String
    public let cell: [Int]?
    public let resident: [String]
    public let loaded: [String]
    public let evicted: [String]
    public let frame: String?
    public let zoomScale: Double
    public let transition: Transition?

    /// The record of a planned frame; `framePath` is where it was written.
    public init(_ plan: GalleryFramePlan, pages: GalleryPages, framePath: String?) {
        let names = { (cells: [PageMap.Cell]) in cells.map { pages.name(at: $0) } }
        step = plan.index
        move = plan.action?.description
        page = pages.name(at: plan.position)
        cell = pages.layout.isMap ? [plan.position.column, plan.position.row] : nil
        resident = names(plan.resident)
        loaded = names(plan.loaded)
        evicted = names(plan.evicted)
        frame = framePath
        zoomScale = ZoomSnapshot.rounded(plan.zoom.zoomScale)
        transition = plan.transition.map {
            Transition(
                index: $0.index, of: $0.count, fraction: ZoomSnapshot.rounded($0.fraction),
                from: pages.name(at: $0.from), to: pages.name(at: $0.to))
        }
    }
}
