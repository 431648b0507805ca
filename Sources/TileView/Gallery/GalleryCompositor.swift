import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewRender
import TileViewTiling

/// Draws a planned gallery frame from the pages' tiled images: every visible page at its own zoom state in its
/// own frame, clipped to the viewport, over the background.
///
/// Each visible part of a page is one `FrameRenderer` render: the geometry of the page's zoom state (whose
/// viewport is the page frame) moved by the whole pixels the frame is clipped by, at the level docs/design.md section 7
/// picks for the page's scale. A page whose frame is the whole viewport (plain paging at rest) is therefore
/// drawn with exactly the geometry `TiledImage.render` uses, and gives the same bytes as `tileview zoom` on that
/// page. Gaps and uncovered margins show the background. Rendering reads only the decoded regions it is given
/// (`PageLoader.finishDecoding`), so a frame can be rendered while the loader decodes the next one.
public struct GalleryCompositor: Sendable {
    public typealias Cell = PageMap.Cell

    public let viewport: PixelSize
    public let background: RGBA8
    public let filter: ResampleFilter

    /// One visible part of one page: where it goes in the frame and how it is drawn.
    public struct Draw: Sendable {
        public let position: Cell
        /// The part of the viewport the page covers.
        public let part: PixelRect
        /// The level of detail drawn (0 for a page rendered whole).
        public let level: Int
        /// Resamples the page's level pixels; nil for a page rendered whole by its content (a scene).
        public let renderer: FrameRenderer?
        /// Clockwise quarter turns of the page's image (its zoom state's rotation).
        public let turns: Int
        /// For a page rendered whole: what to render, and where the page frame lies in the viewport.
        let rendering: PageRegionRequest.Rendering?
        let pageFrame: PixelRect

        /// The level pixels the part reads, nil when it shows no image pixel (or the page renders itself).
        public var sourceRect: PixelRect? { renderer?.sourceRect }

        /// What to decode (or render) for the part; nil when it shows no image pixel.
        public var request: PageRegionRequest? {
            if let rendering { return PageRegionRequest(position: position, rendering: rendering) }
            return sourceRect.map { PageRegionRequest(position: position, level: level, rect: $0, turns: turns) }
        }
    }

    /// How a page is drawn: from the level pyramid of its image (turned as asked), or rendered whole by its
    /// content (a scene).
    public enum PageSource {
        case pyramid(LevelPyramid)
        case rendered
    }

    /// The draws of `frame`; `source(position, turns)` says how a page turned by `turns` clockwise quarter turns
    /// is drawn (pages without one are skipped).
    public func draws(for frame: GalleryFramePlan, source: (Cell, Int) -> PageSource?) -> [Draw] {
        let bounds = PixelRect(size: viewport)
        return frame.placements.compactMap { placement in
            let zoom = placement.zoom
            let turns = zoom.rotation.quarterTurns
            guard let kind = source(placement.position, turns), let part = placement.frame.intersection(bounds) else {
                return nil
            }
            guard case .pyramid(let pyramid) = kind else {
                return Draw(
                    position: placement.position, part: part, level: 0, renderer: nil, turns: turns,
                    rendering: PageRegionRequest.Rendering(zoom: zoom, background: background),
                    pageFrame: placement.frame)
            }
            let origin = zoom.imageFrame.origin
            let (geometry, level) = pyramid.frameGeometry(
                frameSize: part.size, zoomScale: zoom.zoomScale,
                imageFrameOrigin: Point(
                    x: origin.x + Double(placement.frame.x - part.x), y: origin.y + Double(placement.frame.y - part.y)))
            return Draw(
                position: placement.position, part: part, level: level,
                renderer: FrameRenderer(geometry: geometry, filter: filter, background: background), turns: turns,
                rendering: nil, pageFrame: placement.frame)
        }
    }

    /// The draws of `frame` for the pages `loader` holds.
    public func draws(for frame: GalleryFramePlan, loader: PageLoader) -> [Draw] {
        draws(for: frame) { position, turns in
            if let image = loader.image(at: position, turns: turns) { return .pyramid(image.pyramid) }
            return loader.content(at: position) == nil ? nil : .rendered
        }
    }

    /// The level pixels the draws read, one request per draw that shows image pixels, in draw order: what to
    /// decode before rendering.
    public func requests(for draws: [Draw]) -> [PageRegionRequest] {
        draws.compactMap(\.request)
    }

    /// The renderers of the draws that make `requests(for: draws)`, in the same order (nil for a page rendered
    /// whole): what lets the loader render a part straight from the decoder (`PageLoader.startDecoding`).
    public func renderers(for draws: [Draw]) -> [FrameRenderer?] {
        draws.filter { $0.request != nil }.map(\.renderer)
    }

    /// Renders the frame, exactly `viewport` pixels, from `regions`: the decoded `requests(for: draws)`, in
    /// order (a nil region, or a missing one, leaves that part to the background; a part the loader rendered
    /// already is taken as it is).
    public func render(_ draws: [Draw], regions: [DecodedPageRegion?]) -> ImageBuffer {
        var remaining = regions[...]
        func renderPart(_ draw: Draw) -> ImageBuffer {
            let region = draw.request != nil ? remaining.popFirst() ?? nil : nil
            guard let renderer = draw.renderer else {
                // A page rendered whole: its frame's visible part.
                var part = ImageBuffer(width: draw.part.width, height: draw.part.height, fill: background)
                if let region, region.buffer.size == draw.pageFrame.size {
                    let inPage = PixelRect(
                        x: draw.part.x - draw.pageFrame.x, y: draw.part.y - draw.pageFrame.y, width: draw.part.width,
                        height: draw.part.height)
                    part.copy(inPage, of: region.buffer, to: (0, 0))
                }
                return part
            }
            if let region {
                if region.isRenderedPart { return region.buffer }
                return renderer.render(source: region.buffer, sourceOrigin: (region.originX, region.originY))
            }
            return renderer.render(source: ImageBuffer(width: 0, height: 0), sourceOrigin: (0, 0))
        }
        if draws.count == 1, draws[0].part == PixelRect(size: viewport) {
            return renderPart(draws[0])
        }
        var frame = ImageBuffer(width: viewport.width, height: viewport.height, fill: background)
        for draw in draws {
            frame.copy(PixelRect(size: draw.part.size), of: renderPart(draw), to: (draw.part.x, draw.part.y))
        }
        return frame
    }

    /// Decodes what `frame` needs with `loader` and renders it (the one-call form, without overlap).
    public func render(_ frame: GalleryFramePlan, loader: PageLoader) throws(TileViewError) -> ImageBuffer {
        let draws = self.draws(for: frame, loader: loader)
        return render(draws, regions: try loader.decode(requests(for: draws)))
    }
}
