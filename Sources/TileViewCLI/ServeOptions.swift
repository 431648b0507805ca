import ArgumentParser

/// The arguments of `tileview serve`, parsed twice: by `tileview`, which checks them and hands the same words to
/// `tileview-serve` (the executable that holds the HTTP server), and by `tileview-serve`, which runs the server.
public struct ServeOptions: ParsableArguments {
    public init() {}

    /// The abstract and discussion of both commands' help and of the man page.
    public static let abstract =
        "Serve the PNG and JPEG files under a folder over IIIF Image API 3.0 and Deep Zoom, with a viewer."
    public static let discussion = """
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

        The server is the executable tileview-serve, installed beside tileview: `tileview serve` checks its \
        arguments and becomes tileview-serve (the same process). Keeping the HTTP stack out of tileview \
        halves the start-up of every other command.
        """

    @Argument(help: "The folder whose PNG and JPEG files are served (sub-folders included).")
    public var root: String

    @Option(help: "The address to listen on (127.0.0.1: this machine only).")
    public var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    public var port = 8080

    @Option(name: .customLong("max-area"), help: "The largest response in pixels (width * height).")
    public var maxArea = 4096 * 4096

    @Option(
        name: .customLong("cache-mb"),
        help:
            "MiB of memory for the caches: three quarters for decoded tiles shared by all images, one quarter for encoded answers."
    )
    public var cacheMB = 256

    @Option(name: .customLong("max-views"), help: "Views (browser tabs) open at most; the one idle longest goes first.")
    public var maxViews = 64

    @Option(name: .customLong("view-idle"), help: "Seconds an idle view is kept.")
    public var viewIdle = 900.0

    @Flag(help: "Print the viewer's URL on standard output and open it where a desktop is present.")
    public var open = false

    @OptionGroup public var decoding: DecodeOptionGroup

    public func validate() throws {
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
}
