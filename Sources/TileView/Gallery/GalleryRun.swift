import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewPaging

/// Renders planned gallery frames: loads and evicts pages as each frame's resident set says, decodes the next
/// frame's pages on a worker while the current frame is rendered, encodes and writes frames on other workers,
/// and measures memory.
///
/// Pipeline, for frame i: take the regions decoded for frame i; move the loader on to frame i+1 (evict the
/// pages leaving, open those entering, keep tiles only of pages frame i+2 shows too, release the rest) and start
/// decoding frame i+1's regions on a worker; render frame i from its regions; hand it to the writer, whose
/// workers encode and write up to `writerConcurrency` frames at once (`submit` waits while that many are in
/// flight). A page that keeps no tiles (the usual case: a page the next frame does not show) is not decoded
/// into a region at all: the worker renders its part of frame i+1 straight from the decoder's rows, the decoder
/// on a thread of its own (`PageLoader.startDecoding`). So decoding, resampling and encoding overlap on two
/// cores, while the decoded pixels in memory are those of two frames' kept pages and regions at most (a ring of
/// rows for a streamed page), and at most `writerConcurrency` + 2 frames. With a shard, only its frames are
/// rendered and the loader moves straight from one rendered frame's resident set to the next.
public enum GalleryRun {
    /// Measurements of one rendered frame, taken right after it was rendered.
    public struct FrameSample: Hashable, Sendable {
        /// Decoded bytes held for the resident pages when the frame's regions were ready: their tile caches
        /// plus the regions the frame is rendered from.
        public let residentBytes: Int
        /// The process's resident set size (VmRSS), when the system reports it.
        public let rssBytes: Int?
    }

    /// Renders the frames of `run`'s shard but those an earlier run finished (`FrameRun.isReused`) with `loader`,
    /// handing each to `run` (written into its folder, if it has one); calls `onFrame` after each render, in frame
    /// order. A stop (SIGINT or SIGTERM) comes before the next frame: the frames in flight land whole, then it
    /// throws an `.interrupted` error.
    public static func render(
        _ frames: [GalleryFramePlan], run: FrameRun, loader: PageLoader, compositor: GalleryCompositor,
        onFrame: (GalleryFramePlan, FrameSample) -> Void = { _, _ in }
    ) throws(TileViewError) -> GallerySummaryRecord {
        let shard = run.plan.shard
        let ours = frames.filter { shard.contains(frame: $0.index) }
        let selected = ours.filter { !run.isReused(frame: $0.index) }
        var peakBytes = 0

        /// Moves the loader on to selected frame `n` and starts decoding its regions; returns its draws.
        func prepare(_ n: Int) throws(TileViewError) -> [GalleryCompositor.Draw] {
            let frame = selected[n]
            let shown = Set(frame.placements.map(\.position))
            let shownNext = n + 1 < selected.count ? Set(selected[n + 1].placements.map(\.position)) : []
            try loader.makeResident(frame.resident, keepingTiles: shown.intersection(shownNext))
            loader.trim(keeping: shown)
            let draws = compositor.draws(for: frame, loader: loader)
            loader.startDecoding(compositor.requests(for: draws), renderers: compositor.renderers(for: draws))
            return draws
        }

        try run.perform { (run) throws(TileViewError) in
            do throws(TileViewError) {
                var draws = selected.isEmpty ? [] : try prepare(0)
                for (n, frame) in selected.enumerated() {
                    try run.write(frame: frame.index) { () throws(TileViewError) -> ImageBuffer in
                        let regions = try loader.finishDecoding()
                        let heldBytes = loader.residentBytes + regions.reduce(0) { $0 + ($1?.byteCount ?? 0) }
                        peakBytes = max(peakBytes, heldBytes)
                        let frameDraws = draws
                        if n + 1 < selected.count { draws = try prepare(n + 1) }
                        let image = compositor.render(frameDraws, regions: regions)
                        onFrame(frame, FrameSample(residentBytes: heldBytes, rssBytes: ProcessMemory.residentBytes))
                        return image
                    }
                }
            } catch {
                _ = try? loader.finishDecoding()
                throw error
            }
        }
        loader.evictAll()
        return GallerySummaryRecord(
            frames: selected.count, reused: run.plan.resume ? ours.count - selected.count : nil,
            maxResident: selected.map(\.resident.count).max() ?? 0,
            peakResidentBytes: peakBytes, peakRSSBytes: ProcessMemory.peakResidentBytes,
            decodePasses: loader.decodePasses, bytesDecoded: loader.bytesDecoded, loads: loader.loadCount,
            evictions: loader.evictionCount, shard: shard == .whole ? nil : shard.description)
    }
}
