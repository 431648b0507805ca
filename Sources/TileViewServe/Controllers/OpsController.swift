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

    /// `/metrics`: the request figures, then the caches'.
    func metricsText() async -> String {
        server.metrics.text()
            + ServerMetrics.cacheText(
                name: "tileview_tile_cache", what: "decoded tiles shared by all images",
                budget: server.tiles.budgetBytes,
                statistics: server.tiles.statistics)
            + ServerMetrics.cacheText(
                name: "tileview_header_cache", what: "image headers (a request reads none for an image kept)",
                budget: type(of: server.tiles).headerBudgetBytes, statistics: server.tiles.headerStatistics)
            + ServerMetrics.counterText(
                "tileview_tile_bands_decoded_total", "Bands of tiles decoded (one row of tiles across a level).",
                server.tiles.bandsDecoded)
            + ServerMetrics.counterText(
                "tileview_tile_index_decodes_total",
                "Rects of tiles decoded alone through a JPEG's entropy index (levels larger than half the tile cache).",
                server.tiles.indexedDecodes)
            + ServerMetrics.counterText(
                "tileview_jpeg_lossless_crops_total",
                "JPEG answers cut from a file's own coefficients, without decoding (a region on the MCU grid at its own size).",
                server.tiles.losslessCrops)
            + ServerMetrics.counterText(
                "tileview_jpeg_index_passes_total", "JPEG entropy indexes built by a pass over the file.",
                server.tiles.indexFigures.built)
            + ServerMetrics.counterText(
                "tileview_jpeg_indexes_loaded_total", "JPEG entropy indexes read from the disk cache instead.",
                server.tiles.indexFigures.loaded)
            + ServerMetrics.counterText(
                "tileview_jpeg_indexes_made_in_parts_total",
                "JPEG entropy indexes a first view's 1/8 pass in parts made on the way (no pass of their own).",
                server.tiles.indexesMadeInParts)
            + ServerMetrics.counterText(
                "tileview_tiff_stored_tiles_total",
                "JPEG answers that were a TIFF's stored tile, sent as stored (or cut by its coefficients at the image's edge).",
                server.tiles.storedTiles)
            + ServerMetrics.counterText(
                "tileview_tile_band_waits_total", "Times a request waited for a band another request was decoding.",
                server.tiles.coalescedWaits)
            + ServerMetrics.cacheText(
                name: "tileview_response_cache", what: "encoded image answers", budget: server.responses.budgetBytes,
                statistics: server.responses.statistics)
            + ServerMetrics.counterText(
                "tileview_requests_coalesced_total",
                "Image requests answered by an identical request in flight.", server.coalescer.joined)
            + workText() + lockText()
            + ServerMetrics.gaugeText("tileview_views_open", "Views held live (image and gallery).", server.views.count)
            + ServerMetrics.counterText("tileview_views_created_total", "Views made.", server.views.counters.created)
            + ServerMetrics.counterText(
                "tileview_views_rebuilt_total", "Views rebuilt from their tokens (made elsewhere, or let go here).",
                server.views.counters.rebuilt)
            + ServerMetrics.counterText(
                "tileview_views_expired_total", "Views let go after being idle too long.", server.views.counters.expired
            )
            + ServerMetrics.counterText(
                "tileview_views_dropped_total", "Views dropped, idle longest first, to keep their number bounded.",
                server.views.counters.dropped)
            + diskCacheText()
    }

    /// `/metrics`: the disk cache's and the indexer's figures (nothing without `--cache-dir`).
    func diskCacheText() -> String {
        guard let store = server.settings.levelStore else { return "" }
        let disk = store.figures
        var text =
            ServerMetrics.gaugeText(
                "tileview_disk_cache_budget_bytes", "The bytes the disk cache may hold.", store.budgetBytes)
            + ServerMetrics.gaugeText("tileview_disk_cache_bytes", "Bytes of entries in the disk cache.", disk.bytes)
            + ServerMetrics.counterText(
                "tileview_disk_cache_hits_total", "Coarse levels read from the disk cache.", disk.hits)
            + ServerMetrics.counterText(
                "tileview_disk_cache_misses_total", "Coarse levels looked for on disk and not found.", disk.misses)
            + ServerMetrics.counterText("tileview_disk_cache_writes_total", "Entries written.", disk.writes)
            + ServerMetrics.counterText(
                "tileview_disk_cache_write_failures_total",
                "Entries that could not be written (a full disk, a "
                    + "read-only folder).", disk.writeFailures)
            + ServerMetrics.counterText(
                "tileview_disk_cache_damaged_total", "Damaged entries removed when read.", disk.damaged)
            + ServerMetrics.counterText(
                "tileview_disk_cache_evicted_total", "Entries removed to keep the bound.", disk.evicted)
        if let indexer = server.indexer {
            let figures = indexer.figures
            text +=
                ServerMetrics.counterText(
                    "tileview_index_indexed_total", "Images whose coarse levels are on disk.", figures.indexed)
                + ServerMetrics.gaugeText("tileview_index_pending", "Images waiting to be indexed.", figures.pending)
                + ServerMetrics.counterText(
                    "tileview_index_failed_total", "Images that could not be indexed.", figures.failed)
            if let watched = indexer.watcher?.figures {
                text += ServerMetrics.gaugeText(
                    "tileview_index_watched_folders", "Folders whose changes start a scan at once (inotify).",
                    watched.watched)
            }
        }
        return text
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

    func workText() -> String {
        let work = server.budget.figures
        let open = server.connections.figures
        return ServerMetrics.gaugeText(
            "tileview_processors",
            "The processors this process may use (affinity mask and cgroup CPU quota); renders run this many at once.",
            SystemInfo.availableProcessors)
            + ServerMetrics.gaugeText(
                "tileview_render_threads", "Renders that may run at once.", server.settings.maxConcurrentRenders)
            + ServerMetrics.gaugeText(
                "tileview_work_budget_bytes", "The bytes renders may hold (--work-mb).", server.budget.budgetBytes)
            + ServerMetrics.gaugeText(
                "tileview_work_bytes", "Bytes renders and answers being written hold now.", work.used)
            + ServerMetrics.gaugeText(
                "tileview_work_peak_bytes", "The most bytes renders have held at once.", work.peak)
            + ServerMetrics.gaugeText("tileview_work_queued", "Renders waiting for their bytes.", work.queued)
            + ServerMetrics.gaugeText(
                "tileview_render_blocks_kept_bytes",
                "Bytes render threads keep between renders for their next mosaic and frame.", RenderBlocks.keptBytes)
            + ServerMetrics.counterText(
                "tileview_work_refused_busy_total", "Renders refused with 503: a full queue or a long wait.", work.busy)
            + ServerMetrics.counterText(
                "tileview_work_refused_too_large_total", "Renders refused with 400: a plan larger than its lane.",
                work.neverFits)
            + ServerMetrics.gaugeText("tileview_connections_open", "Connections open.", open.open)
            + ServerMetrics.counterText(
                "tileview_connections_shed_total", "Connections closed to make room (--max-connections).", open.shed)
            + ServerMetrics.counterText(
                "tileview_connections_refused_total", "Connections closed at once: every one was being answered.",
                open.refused)
    }
}
