import Hummingbird
import TileViewSystem

/// The operator's routes: `/healthz` (`ok` while the server serves) and `/metrics` (Prometheus text: requests,
/// caches, the work budget, connections and views).
struct OpsController: Sendable {
    let server: TileServer

    func addRoutes(to router: Router<ServeRequestContext>) {
        router.get("/healthz", use: health)
        router.get("/metrics", use: metrics)
    }

    @Sendable func health(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        TileServer.text(.ok, "ok")
    }

    @Sendable func metrics(_ request: Request, _ context: ServeRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: await metricsText())))
    }

    /// `/metrics`: the request figures, the caches', the work budget's and the connections', the locks', the
    /// views', then the disk cache's.
    func metricsText() async -> String {
        server.metrics.text() + ServerMetrics.text(cacheSamples() + workSamples()) + lockText()
            + ServerMetrics.text(viewSamples() + diskCacheSamples())
    }

    /// The shared tile, header and response caches, and what the tiles' decoding did.
    func cacheSamples() -> [ServerMetrics.Sample] {
        let tiles = server.tiles
        return ServerMetrics.cacheSamples(
            name: "tileview_tile_cache", what: "decoded tiles shared by all images", budget: tiles.budgetBytes,
            statistics: tiles.statistics)
            + ServerMetrics.cacheSamples(
                name: "tileview_header_cache", what: "image headers (a request reads none for an image kept)",
                budget: type(of: tiles).headerBudgetBytes, statistics: tiles.headerStatistics)
            + [
                .counter(
                    "tileview_tile_bands_decoded_total", "Bands of tiles decoded (one row of tiles across a level).",
                    tiles.bandsDecoded),
                .counter(
                    "tileview_tile_band_failures_total",
                    "Band decodes that failed (a band that failed on the file's data is not decoded again until the file changes).",
                    tiles.failedBandPasses),
                .counter(
                    "tileview_tile_index_decodes_total",
                    "Rects of tiles decoded alone through a JPEG's entropy index (levels larger than half the tile cache).",
                    tiles.indexedDecodes),
                .counter(
                    "tileview_jpeg_lossless_crops_total",
                    "JPEG answers cut from a file's own coefficients, without decoding (a region on the MCU grid at its own size).",
                    tiles.losslessCrops),
                .counter(
                    "tileview_jpeg_index_passes_total", "JPEG entropy indexes built by a pass over the file.",
                    tiles.indexFigures.built),
                .counter(
                    "tileview_jpeg_indexes_loaded_total", "JPEG entropy indexes read from the disk cache instead.",
                    tiles.indexFigures.loaded),
                .counter(
                    "tileview_jpeg_indexes_made_in_parts_total",
                    "JPEG entropy indexes a first view's 1/8 pass in parts made on the way (no pass of their own).",
                    tiles.indexesMadeInParts),
                .counter(
                    "tileview_tiff_stored_tiles_total",
                    "JPEG answers that were a TIFF's stored tile, sent as stored (or cut by its coefficients at the image's edge).",
                    tiles.storedTiles),
                .counter(
                    "tileview_tile_band_waits_total",
                    "Times a request waited for a band another request was decoding.", tiles.coalescedWaits),
            ]
            + ServerMetrics.cacheSamples(
                name: "tileview_response_cache", what: "encoded image answers", budget: server.responses.budgetBytes,
                statistics: server.responses.statistics)
            + [
                .counter(
                    "tileview_requests_coalesced_total", "Image requests answered by an identical request in flight.",
                    server.coalescer.joined)
            ]
    }

    /// The views held live, and what happened to them.
    func viewSamples() -> [ServerMetrics.Sample] {
        let counters = server.views.counters
        return [
            .gauge("tileview_views_open", "Views held live (image and gallery).", server.views.count),
            .gauge(
                "tileview_views_bytes", "About what the views held live hold, beside their tiles.", server.views.bytes),
            .counter("tileview_views_created_total", "Views made.", counters.created),
            .counter(
                "tileview_views_rebuilt_total", "Views rebuilt from their tokens (made elsewhere, or let go here).",
                counters.rebuilt),
            .counter("tileview_views_expired_total", "Views let go after being idle too long.", counters.expired),
            .counter(
                "tileview_views_dropped_total",
                "Views dropped, idle longest first, or not kept, to keep their number and bytes bounded.",
                counters.dropped),
        ]
    }

    /// The disk cache's and the indexer's figures (none without `--cache-dir`).
    func diskCacheSamples() -> [ServerMetrics.Sample] {
        guard let store = server.settings.levelStore else { return [] }
        let disk = store.figures
        var samples: [ServerMetrics.Sample] = [
            .gauge("tileview_disk_cache_budget_bytes", "The bytes the disk cache may hold.", store.budgetBytes),
            .gauge("tileview_disk_cache_bytes", "Bytes of entries in the disk cache.", disk.bytes),
            .counter("tileview_disk_cache_hits_total", "Coarse levels read from the disk cache.", disk.hits),
            .counter(
                "tileview_disk_cache_misses_total", "Coarse levels looked for on disk and not found.", disk.misses),
            .counter("tileview_disk_cache_writes_total", "Entries written.", disk.writes),
            .counter(
                "tileview_disk_cache_write_failures_total",
                "Entries that could not be written (a full disk, a read-only folder).", disk.writeFailures),
            .counter("tileview_disk_cache_damaged_total", "Damaged entries removed when read.", disk.damaged),
            .counter("tileview_disk_cache_evicted_total", "Entries removed to keep the bound.", disk.evicted),
        ]
        if let indexer = server.indexer {
            let figures = indexer.figures
            samples += [
                .counter("tileview_index_indexed_total", "Images whose coarse levels are on disk.", figures.indexed),
                .gauge("tileview_index_pending", "Images waiting to be indexed.", figures.pending),
                .counter("tileview_index_failed_total", "Images that could not be indexed.", figures.failed),
            ]
            if let watched = indexer.watcher?.figures {
                samples.append(
                    .gauge(
                        "tileview_index_watched_folders", "Folders whose changes start a scan at once (inotify).",
                        watched.watched))
            }
        }
        return samples
    }

    /// Each shared lock of the request path: how often it was taken and how often a thread waited for it, the
    /// evidence of what serialises requests (docs/benchmarks.md).
    func lockText() -> String {
        var locks = server.tiles.lockContention.map { ("tile_cache_" + $0.lock, $0.acquisitions, $0.waits) }
        for (name, figures) in [
            ("responses", server.responses.lockContention), ("metrics", server.metrics.lockContention),
            ("work_budget", server.budget.lockContention), ("connections", server.connections.lockContention),
            ("views", server.views.lockContention), ("coalescer", server.coalescer.lockContention),
        ] {
            locks.append((name, figures.acquisitions, figures.waits))
        }
        var text = "# HELP tileview_lock_acquisitions_total Times a shared lock was taken.\n"
        text += "# TYPE tileview_lock_acquisitions_total counter\n"
        for lock in locks { text += "tileview_lock_acquisitions_total{lock=\"\(lock.0)\"} \(lock.1)\n" }
        text += "# HELP tileview_lock_waits_total Times a thread found a shared lock held and waited.\n"
        text += "# TYPE tileview_lock_waits_total counter\n"
        for lock in locks { text += "tileview_lock_waits_total{lock=\"\(lock.0)\"} \(lock.2)\n" }
        return text
    }

    /// The processors and render threads, the work budget, and the connections.
    func workSamples() -> [ServerMetrics.Sample] {
        let work = server.budget.figures
        let open = server.connections.figures
        return [
            .gauge(
                "tileview_processors",
                "The processors this process may use (affinity mask and cgroup CPU quota); renders run this many at once.",
                SystemInfo.availableProcessors),
            .gauge("tileview_render_threads", "Renders that may run at once.", server.settings.maxConcurrentRenders),
            .gauge("tileview_work_budget_bytes", "The bytes renders may hold (--work-mb).", server.budget.budgetBytes),
            .gauge("tileview_work_bytes", "Bytes renders and answers being written hold now.", work.used),
            .gauge("tileview_work_peak_bytes", "The most bytes renders have held at once.", work.peak),
            .gauge("tileview_work_queued", "Renders waiting for their bytes.", work.queued),
            .gauge(
                "tileview_render_blocks_kept_bytes",
                "Bytes render threads keep between renders for their next mosaic and frame.", RenderBlocks.keptBytes),
            .counter(
                "tileview_work_refused_busy_total", "Renders refused with 503: a full queue or a long wait.", work.busy),
            .counter(
                "tileview_work_refused_too_large_total", "Renders refused with 400: a plan larger than its lane.",
                work.neverFits),
            .gauge("tileview_connections_open", "Connections open.", open.open),
            .counter(
                "tileview_connections_shed_total", "Connections closed to make room (--max-connections).", open.shed),
            .counter(
                "tileview_connections_refused_total", "Connections closed at once: every one was being answered.",
                open.refused),
        ]
    }
}
