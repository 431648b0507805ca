import TileViewCore
import TileViewGallery
import TileViewRender

/// Decodes the regions of one frame on a worker thread, for `PageLoader.startDecoding`.
///
/// The images are handed over: from `start` until `wait` returns only the worker touches them (the loader
/// refuses to be used meanwhile), and joining the thread orders the worker's writes before the caller's reads.
/// That hand-over is what makes the unchecked `Sendable` sound.
///
/// The worker is a thread of its own (`WorkerThread`), as a single frame's renderer is (`FramePipeline`), not a
/// thread of Dispatch's pool: galleries were faster so (docs/benchmarks.md, "The renderer on a thread of its own").
final class PageDecodeJob: @unchecked Sendable {
    /// One request's work: decode level pixels of an image, render a draw's part straight from the decoder (an
    /// image that keeps no tiles: its region need not be held), or render a page whole (a scene).
    enum Work {
        case decode(TiledImage, PageRegionRequest)
        case stream(TiledImage, PageRegionRequest, FrameRenderer)
        case render(any ZoomContent, PageRegionRequest)
    }

    private let work: [Work?]
    private var worker: WorkerThread<Void>?
    private var results: [DecodedPageRegion?] = []
    private var failure: TileViewError?
    private var started = false
    private var finished = false

    init(work: [Work?]) {
        self.work = work
    }

    func start() {
        started = true
        guard !work.isEmpty else { return }
        // The worker renders streamed pages from a decoding thread's rows: neither preempts the other.
        worker = WorkerThread.start { BatchScheduling.run { self.run() } }
    }

    private func run() {
        for item in work {
            do {
                switch item {
                case nil:
                    results.append(nil)
                case .decode(let image, let request):
                    let region = try image.region(request.rect, level: request.level)
                    results.append(
                        region.map { DecodedPageRegion(buffer: $0.buffer, originX: $0.origin.x, originY: $0.origin.y) })
                case .stream(let image, let request, let renderer):
                    let part = try image.renderPrefetched(renderer, level: request.level)
                    results.append(DecodedPageRegion(renderedPart: part.image, decodedBytes: part.heldBytes))
                case .render(let content, let request):
                    guard let rendering = request.rendering else {
                        results.append(nil)
                        continue
                    }
                    let zoom = rendering.zoom
                    let page = try content.rotated(clockwiseQuarterTurns: zoom.rotation.quarterTurns)
                    let frame = try page.render(
                        zoom, displacedBy: .zero, background: rendering.background, filter: .automatic)
                    results.append(DecodedPageRegion(buffer: frame.image, originX: 0, originY: 0))
                }
            } catch {
                failure = error
                return
            }
        }
    }

    /// Waits for the worker; returns one region per request or rethrows the first error.
    func wait() throws(TileViewError) -> [DecodedPageRegion?] {
        guard started, !finished else { return [] }
        worker?.join()
        worker = nil
        finished = true
        if let failure { throw failure }
        let results = self.results
        self.results = []
        return results
    }
}
