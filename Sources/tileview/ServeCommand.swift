import ArgumentParser
import TileView
import TileViewServe

/// `tileview serve ROOT`: IIIF Image API 3.0 and Deep Zoom over the PNG and JPEG files under ROOT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the PNG and JPEG files under a folder over IIIF Image API 3.0 and Deep Zoom, with a viewer.",
        discussion: """
            Nothing is pre-processed: each request decodes only the part and the level of the file it needs. \
            An image's identifier is its path under ROOT, percent-encoded as one segment (albums%2Fbeach.jpg). \
            Routes: /iiif/3/ID/info.json, /iiif/3/ID/REGION/SIZE/ROTATION/QUALITY.FORMAT, /dzi/ID.dzi, \
            /dzi/ID_files/LEVEL/COL_ROW.jpg, /healthz. Only files under ROOT are served (no .., no dotfiles, \
            no symbolic link that leaves ROOT): anything else is 404. SIGINT or SIGTERM stop accepting, finish \
            the requests in flight and exit 0. Limits: idle connections close after 30 s, header blocks over 32 KiB \
            and request bodies over 64 KiB are refused.

            The viewer: open http://HOST:PORT/ in a browser to list the folders and images, zoom one (/view/ID: \
            double click, shift+double click, wheel, drag) or page through a folder (/gallery/FOLDER-ID, arrow \
            keys and swipes; ?circular=1&peek=P&gap=G). Zooming and paging run on the server (/api/views, \
            described at /api/openapi.json), so a view's frame.png is exactly what `tileview zoom` or \
            `tileview gallery` writes after the same gestures and moves.

            OpenSeadragon, in a page served from anywhere (CORS is open):
              OpenSeadragon({id: "viewer", prefixUrl: "images/",
                tileSources: "http://127.0.0.1:8080/iiif/3/photo.jpg/info.json"});
            """
    )

    @Argument(help: "The folder whose PNG and JPEG files are served (sub-folders included).")
    var root: String

    @Option(help: "The address to listen on (127.0.0.1: this machine only).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(name: .customLong("max-area"), help: "The largest response in pixels (width * height).")
    var maxArea = 4096 * 4096

    @Option(
        name: .customLong("cache-mb"),
        help:
            "MiB of memory for the caches: three quarters for decoded tiles shared by all images, one quarter for encoded answers."
    )
    var cacheMB = 256

    @Option(name: .customLong("max-views"), help: "Views (browser tabs) open at most; the one idle longest goes first.")
    var maxViews = 64

    @Option(name: .customLong("view-idle"), help: "Seconds an idle view is kept.")
    var viewIdle = 900.0

    @Flag(help: "Print the viewer's URL on standard output and open it where a desktop is present.")
    var open = false

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        guard maxArea > 0 else { throw ValidationError("--max-area must be a positive number of pixels") }
        guard (0...1 << 20).contains(cacheMB) else {
            throw ValidationError("--cache-mb must be 0 to 1048576, got \(cacheMB)")
        }
        guard (1...100_000).contains(maxViews) else { throw ValidationError("--max-views must be 1 to 100000") }
        guard viewIdle.isFinite, viewIdle > 0, viewIdle <= 86_400 else {
            throw ValidationError("--view-idle must be a number of seconds above 0 and at most 86400")
        }
    }

    func run() async throws {
        Report.verbose = decoding.verbose
        let served: ServeRoot
        do {
            served = try ServeRoot(path: root)
        } catch {
            Report.error(error.description)
            throw ExitCode.failure
        }
        // Tiles of 256 KiB come and go on many threads: each gets its own mapping, returned when freed.
        Allocator.returnLargeBlocksToTheSystem()
        let server = TileServer(
            settings: ServeSettings(
                root: served, host: host, port: port, maxArea: maxArea, cacheBytes: cacheMB << 20,
                options: decoding.decodeOptions, maxViews: maxViews, viewIdleSeconds: viewIdle))
        let first = (try? ImageFolder(path: root).names.first) ?? "IMAGE.jpg"
        Report.standardError(
            "tileview: serving \(root) at http://\(host):\(port)/ "
                + "(IIIF: http://\(host):\(port)/iiif/3/\(ServeRoot.percentEncoded(first))/info.json)\n")
        let application = server.application()
        if open {
            // A server on every address is reached on this machine through the loopback one.
            let local = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
            let url = "http://\(local.contains(":") ? "[\(local)]" : local):\(port)/"
            print("viewer: \(url)")
            Desktop.open(url)
        }
        try await application.runService()
    }
}
