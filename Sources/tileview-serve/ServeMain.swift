import ArgumentParser
import TileView
import TileViewCLI
import TileViewServe

/// `tileview-serve ROOT`: the server of `tileview serve`, which checks the arguments and becomes this executable
/// with the same words. Run alone, it takes the same arguments.
@main
struct ServeMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tileview-serve", abstract: ServeOptions.abstract, discussion: ServeOptions.discussion,
        version: TileViewVersion.string)

    @OptionGroup var options: ServeOptions

    func run() async throws {
        Report.verbose = options.decoding.verbose
        let root = options.root
        let host = options.host
        let port = options.port
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
                root: served, host: host, port: port, maxArea: options.maxArea, cacheBytes: options.cacheMB << 20,
                options: options.decoding.decodeOptions, maxViews: options.maxViews,
                viewIdleSeconds: options.viewIdle))
        let first = (try? ImageFolder(path: root).names.first) ?? "IMAGE.jpg"
        Report.standardError(
            "tileview: serving \(root) at http://\(host):\(port)/ "
                + "(IIIF: http://\(host):\(port)/iiif/3/\(ServeRoot.percentEncoded(first))/info.json)\n")
        let application = server.application()
        if options.open {
            // A server on every address is reached on this machine through the loopback one.
            let local = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
            let url = "http://\(local.contains(":") ? "[\(local)]" : local):\(port)/"
            print("viewer: \(url)")
            Desktop.open(url)
        }
        try await application.runService()
    }
}
