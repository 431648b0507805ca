import TileViewCore
import TileViewGallery
import TileViewPaging
import TileViewRender
import TileViewTiling

/// Draws a planned gallery frame from the pages' tiled images: every visible page at its own zoom state in its
/// own frame, clipped to the viewport, over the background.
///
/// Each visible part of a page is one `FrameRenderer` render: the geometry of the page's zoom state (whose
/// viewport is the page frame) moved by the whole pixels the frame is clipped by, at the level DESIGN section 7
/// picks for the page's scale. A page whose frame is the whole viewport (plain paging at rest) is therefore
/// drawn with exactly the geometry `TiledImage.render` uses, and gives the same bytes as `tileview zoom` on that
/// page. Gaps and uncovered margins show the background. Rendering reads only the decoded regions it is given
/// (`PageLoader.finishDecoding`), so a frame can be rendered while the loader decodes the next one.
public struct GalleryCompositor: Sendable {
    public typealias Cell = PageMap.Cell

    public let viewport: PixelSize
    public let background: RGBA8
    public let filter: ResampleFilter

    public init(viewport: PixelSize, background: RGBA8 = .black, filter: ResampleFilter = .automatic) {
        self.viewport = viewport
        self.background = background
        self.filter = filter
    }

    /// One visible part of one page: where it goes in the frame and how it is resampled.
    public struct Draw: Sendable {
        public let position: Cell
        /// The part of the viewport the page covers.
        public let part: PixelRect
        /// The level of detail drawn.
        public let level: Int
        public let renderer: FrameRenderer

        /// The level pixels the part reads, nil when it shows no image pixel.
        public var sourceRect: PixelRect? { renderer.sourceRect }

        /// What to decode for the part; nil when it shows no image pixel.
        public var request: PageRegionRequest? {
            sourceRect.map { PageRegionRequest(position: position, level: level, rect: $0) }
        }
    }

    /// The draws of `frame`; `pyramid` gives the level pyramid of a page (pages without one are skipped).
    public func draws(for frame: GalleryFramePlan, pyramid: (Cell) -> LevelPyramid?) -> [Draw] {
        let bounds = PixelRect(size: viewport)
        return frame.placements.compactMap { placement in
            guard let pyramid = pyramid(placement.position), let part = placement.frame.intersection(bounds) else {
                return nil
            }
            let zoom = placement.zoom
            let level = pyramid.level(forZoomScale: zoom.zoomScale)
            let origin = zoom.imageFrame.origin
            let geometry = FrameGeometry(
                frameSize: part.size, zoomScale: zoom.zoomScale,
                imageFrameOrigin: Point(
                    x: origin.x + Double(placement.frame.x - part.x), y: origin.y + Double(placement.frame.y - part.y)),
                imageSize: pyramid.imageSize, levelSize: pyramid.levelSize(ofLevel: level))
            return Draw(
                position: placement.position, part: part, level: level,
                renderer: FrameRenderer(geometry: geometry, filter: filter, background: background))
        }
    }

    /// The draws of `frame` for the pages `loader` holds.
    public func draws(for frame: GalleryFramePlan, loader: PageLoader) -> [Draw] {
        draws(for: frame) { loader.image(at: $0)?.pyramid }
    }

    /// The level pixels the draws read, one request per draw that shows image pixels, in draw order: what to
    /// decode before rendering.
    public func requests(for draws: [Draw]) -> [PageRegionRequest] {
        draws.compactMap(\.request)
    }

    /// Renders the frame, exactly `viewport` pixels, from `regions`: the decoded `requests(for: draws)`, in
    /// order (a nil region, or a missing one, leaves that part to the background).
    public func render(_ draws: [Draw], regions: [DecodedPageRegion?]) -> ImageBuffer {
        var remaining = regions[...]
        func renderPart(_ draw: Draw) -> ImageBuffer {
            if draw.request != nil, let region = remaining.popFirst() ?? nil {
                return draw.renderer.render(source: region.buffer, sourceOrigin: (region.originX, region.originY))
            }
            return draw.renderer.render(source: ImageBuffer(width: 0, height: 0), sourceOrigin: (0, 0))
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
