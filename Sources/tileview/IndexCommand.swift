import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCLI
import TileViewCore

/// `tileview index ROOT`: the disk cache `tileview serve` reads (docs/design.md section 16), filled as a batch.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Write the coarse levels of every image under a folder to the disk cache `tileview serve` reads.",
        usage:
            "tileview index <paths> ... [--cache-dir DIR] [--disk-cache-mb MiB] [--shard K/N|auto] [<decoding options>]",
        discussion: """
            Walks each folder given (the ROOT `tileview serve` serves; dot files and folders left out, symbolic \
            links not followed), and takes each image file given, and for each image whose \
            entry is not in the cache yet, decodes every level at most 1024x1024 and writes them as one entry \
            (atomically: an interrupted run leaves whole entries only, and a second run carries on where it \
            stopped, skipping what is there). A server started with the same --cache-dir and decoding options \
            answers the first view of these images from the cache, with no decode; several servers, and \
            several shards of this command, may share the folder. Prints one line per image with -v, and a \
            summary: images indexed, already there, failed, and milliseconds per megapixel. An image that \
            cannot be decoded is named with the reason and makes the exit status 1 (the others are indexed).
            """
    )

    @Argument(help: "Folders whose images are indexed (the ROOT `tileview serve` serves), or image files.")
    var paths: [String]

    @Option(
        name: .customLong("cache-dir"),
        help: ArgumentHelp(
            "The cache folder. Default: $XDG_CACHE_HOME/tileview, else ~/.cache/tileview (as `tileview serve`).",
            valueName: "DIR"))
    var cacheDir: String?

    @Option(
        name: .customLong("disk-cache-mb"),
        help: ArgumentHelp("MiB the cache may hold; the least recently used entries go first.", valueName: "MiB"))
    var diskCacheMB = 1024

    @OptionGroup var shard: ShardOptions
    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give a folder or an image file") }
        guard (1...1 << 24).contains(diskCacheMB) else {
            throw ValidationError("--disk-cache-mb must be 1 to 16777216, got \(diskCacheMB)")
        }
        if cacheDir == "none" || cacheDir?.isEmpty == true { throw ValidationError("--cache-dir needs a folder") }
    }

    func run() throws {
        Report.verbose = decoding.verbose
        let environment = ProcessInfo.processInfo.environment
        guard let folder = cacheDir ?? ServeOptions.defaultCacheFolder(environment) else {
            throw ValidationError("give --cache-dir: there is no $XDG_CACHE_HOME or $HOME to put the cache in")
        }
        let store: CoarseLevelStore
        do throws(TileViewError) {
            store = try CoarseLevelStore(folder: folder, budgetBytes: diskCacheMB << 20)
        } catch {
            Report.error(error.description)
            throw ExitCode.failure
        }
        guard store.writable else {
            Report.error("\(folder): the cache folder cannot be written")
            throw ExitCode.failure
        }
        let shard = try shard.resolve()
        var all: [String] = []
        for path in paths {
            switch FileStatus.of(path)?.kind {
            case .folder: all += Self.images(under: path)
            case .regular: all.append(path)
            default:
                Report.error("\(path): no such file or folder")
                throw ExitCode.failure
            }
        }
        let files = all.enumerated().filter { shard.contains(frame: $0.offset) }.map(\.element)
        Interrupts.install()
        let job = IndexJob(files: files, store: store, options: decoding.decodeOptions)
        let summary = try Report.failures {
            try job.run(
                report: { event in
                    switch event {
                    case .indexed(let path, let levels?) where Report.verbose:
                        Report.standardError("\(path): \(levels) levels\n")
                    case .failed(let error): Report.error(error.description)
                    default: break
                    }
                },
                warn: { Report.warning($0) })
        }
        let elapsed = summary.duration.components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        let images = summary.indexed == 1 ? "image" : "images"
        var line =
            "\(folder): \(summary.indexed) \(images) indexed, \(summary.present) already there, "
            + "\(summary.failed) failed"
        if shard.count > 1 { line += " (shard \(shard))" }
        if summary.pixels > 0 {
            let perMegapixel = Int((milliseconds / (Double(summary.pixels) / 1e6) * 10).rounded())
            line += "; \(perMegapixel / 10).\(perMegapixel % 10) ms per megapixel indexed"
        }
        print(line)
        if summary.failed > 0 { throw ExitCode.failure }
    }

    /// The image files under `root` in natural order, folder by folder (dot names left out, links not followed).
    static func images(under root: String) -> [String] {
        var found: [String] = []
        var folders = [root]
        while !folders.isEmpty {
            let folder = folders.removeFirst()
            guard let names = try? FolderEntries.names(in: folder) else { continue }
            for name in NaturalOrder.sorted(names) where !name.hasPrefix(".") {
                let path = Paths.join(folder, name)
                guard let status = FileStatus.of(path),
                    FileStatus.resolvedPath(path)
                        == Paths.join(
                            FileStatus.resolvedPath(folder) ?? folder, name)
                else { continue }
                switch status.kind {
                case .folder: folders.append(path)
                case .regular where ImageFolder.isImageName(name): found.append(path)
                default: continue
                }
            }
        }
        return found
    }
}
