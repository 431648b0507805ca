import ArgumentParser
import TileView
import TileViewServe

/// `tileview serve ROOT`: IIIF Image API 3.0 and Deep Zoom over the PNG and JPEG files under ROOT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the PNG and JPEG files under a folder over IIIF Image API 3.0 and Deep Zoom.",
        discussion: """
            Nothing is pre-processed: each request decodes only the part and the level of the file it needs. \
            An image's identifier is its path under ROOT, percent-encoded as one segment (albums%2Fbeach.jpg). \
            Routes: /iiif/3/ID/info.json, /iiif/3/ID/REGION/SIZE/ROTATION/QUALITY.FORMAT, /dzi/ID.dzi, \
            /dzi/ID_files/LEVEL/COL_ROW.jpg, /healthz. Only files under ROOT are served (no .., no dotfiles, \
            no symbolic link that leaves ROOT): anything else is 404. SIGINT or SIGTERM stop accepting, finish \
            the requests in flight and exit 0. Limits: idle connections close after 30 s, header blocks over 32 KiB \
            and request bodies (none is needed) are refused.

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

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        guard maxArea > 0 else { throw ValidationError("--max-area must be a positive number of pixels") }
        guard (0...1 << 20).contains(cacheMB) else {
            throw ValidationError("--cache-mb must be 0 to 1048576, got \(cacheMB)")
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
                options: decoding.decodeOptions))
        let first = (try? ImageFolder(path: root).names.first) ?? "IMAGE.jpg"
        Report.standardError(
            "tileview: serving \(root) at http://\(host):\(port)/ "
                + "(IIIF: http://\(host):\(port)/iiif/3/\(ServeRoot.percentEncoded(first))/info.json)\n")
        try await server.application().runService()
    }
}
