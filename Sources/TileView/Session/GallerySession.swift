import TileViewCore
import TileViewGallery
import TileViewPaging

/// A gallery being looked at step by step: the planner of `tileview gallery` fed one move, gesture or drag at
/// a time, with a loader that keeps the pages of the current frame resident (at most three) and draws it.
///
/// `tileview gallery` plans a whole script and renders its frames (`GalleryRun`); a session applies the same
/// steps to the same planner (`GalleryJob.makePlanner`) and renders the frame at rest after the last one with
/// the same compositor, so the frame after the same steps is the same PNG (`renderPNG`). Only the last planned
/// frame is kept, so a long walk costs no memory. Each step moves the loader to the new frame's resident set
/// (headers only); pixels are decoded when a frame is rendered. Not thread-safe: one session is used from one
/// thread at a time.
public final class GallerySession {
    public typealias Cell = PageMap.Cell

    public let job: GalleryJob
    private var planner: GalleryPlanner
    private let loader: PageLoader

    /// A session on `job`'s start page (its script is not applied); reads the headers of the resident pages.
    /// With `sharedTiles`, pages keep their tiles in that cache (see `PageLoader`).
    public init(job: GalleryJob, sharedTiles: PageLoader.SharedTilesNamer? = nil) throws(TileViewError) {
        self.job = job
        planner = try job.makePlanner()
        loader = job.makeLoader(sharedTiles: sharedTiles)
        try loader.makeResident(current.resident)
    }

    /// A session restored at a frame at rest (see `GalleryPlanner.init(restoring:...)`, which `job`'s pages and
    /// settings must match): its frames and records are those of the session it was written down from.
    public init(job: GalleryJob, restoring planner: GalleryPlanner) throws(TileViewError) {
        self.job = job
        self.planner = planner
        loader = job.makeLoader(sharedTiles: nil)
        try loader.makeResident(current.resident)
    }

    /// The planner as it stands: what a session is written down from.
    public var state: GalleryPlanner { planner }

    /// The frame at rest after the last step: the current page, its zoom, the resident set and its change.
    public var current: GalleryFramePlan { planner.frames[planner.frames.count - 1] }

    /// The step record of the current frame, as `tileview gallery --json` prints it (without a frame file).
    public var record: GalleryStepRecord { GalleryStepRecord(current, pages: job.pages, framePath: nil) }

    /// The pages the loader holds open now, in page order (never more than three).
    public var loadedPages: [Cell] { loader.residentPositions }

    /// Applies one step; a page that becomes resident has its header read (an unreadable one throws, naming
    /// the file, and the session stays as it was before the step).
    public func apply(_ action: GalleryAction) throws(TileViewError) {
        var next = planner
        try next.apply(action)
        next.forgetFramesBeforeLast()
        try loader.makeResident(next.frames[next.frames.count - 1].resident)
        planner = next
    }

    /// Draws the current frame: exactly the viewport's pixels.
    public func render() throws(TileViewError) -> ImageBuffer {
        let frame = current
        let shown = Set(frame.placements.map(\.position))
        // The pages shown keep their tiles: the next step (a gesture, a peek) most often shows them again.
        try loader.makeResident(frame.resident, keepingTiles: shown)
        loader.trim(keeping: shown)
        return try job.compositor.render(frame, loader: loader)
    }

    /// The current frame as the PNG file `tileview gallery` writes for it.
    public func renderPNG() throws(TileViewError) -> [UInt8] {
        try ImageFiles.encodePNG(try render(), naming: job.pages.path(at: current.position))
    }

    /// What decoding for the current frame holds at its peak beside the frame and its tiles: the largest of the
    /// resident pages' (`ZoomContent.decodePeakBytes`; the pages are decoded one at a time), or of a page the frame
    /// draws turned, what its draw reads (`TiledImage.decodePeakBytes(level:source:)`: the stored block under the
    /// rows of tiles it touches).
    public var decodePeakBytes: Int {
        let drawn = job.compositor.draws(for: current, loader: loader).compactMap { draw -> Int? in
            guard let source = draw.renderer?.sourceRect, let image = loader.image(at: draw.position, turns: draw.turns)
            else { return nil }
            return image.decodePeakBytes(level: draw.level, source: source)
        }
        let resident = loader.residentPositions.compactMap { loader.content(at: $0)?.decodePeakBytes }
        return (drawn + resident).max() ?? 0
    }

    /// Decoder warnings of the pages so far (lenient mode), by file.
    public var warnings: [(path: String, message: String)] { loader.warnings }
}
