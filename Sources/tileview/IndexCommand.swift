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
        let options = decoding.decodeOptions
        var (indexed, present, failed, pixels) = (0, 0, 0, 0)
        let start = ContinuousClock.now
        for path in files {
            if let signal = Interrupts.stopSignal {
                Report.standardError(
                    "tileview: index: stopped by \(Interrupts.name(of: signal)) after \(indexed + present + failed) "
                        + "of \(files.count) images; run it again to carry on\n")
                throw ExitCode(Interrupts.exitStatus(for: signal))
            }
            do throws(TileViewError) {
                let descriptor = try Self.open(path)
                let image = try TiledImage(
                    source: .descriptor(descriptor), name: path, cacheBudgetBytes: 0, options: options)
                // The one pass on every processor this process may use (a JPEG's 1/8 scale in parts, a PNG's rows
                // inflated ahead), as vips uses them; a shard given one processor keeps one thread.
                image.decodesInParts = true
                guard let key = image.coarseLevelKey else { continue }
                // A large JPEG's entropy index too (docs/design.md section 16): no pass for its first deep tile. The
                // levels' pass makes it on the way; without that pass (levels there already), a pass of its own.
                let indexKey = store.missingIndexKey(descriptor, header: image.header)
                if store.contains(key: key) {
                    let wroteIndex = indexKey.map { key in
                        store.storeIndex(key: key, made: nil, descriptor: descriptor) { Report.warning($0) }
                    }
                    if wroteIndex == true { indexed += 1 } else { present += 1 }
                    continue
                }
                image.keepsEntropyIndex = indexKey != nil
                try Self.planMemory(of: image, limit: options.maxMemoryBytes)
                let levels = try image.decodeCoarseLevels()
                store.store(key: key, levels: levels) { Report.warning($0) }
                if let indexKey {
                    store.storeIndex(key: indexKey, made: image.keptEntropyIndex, descriptor: descriptor) {
                        Report.warning($0)
                    }
                }
                indexed += 1
                pixels += image.imageSize.pixelCount
                if Report.verbose { Report.standardError("\(path): \(levels.count) levels\n") }
            } catch {
                failed += 1
                Report.error(error.description)
            }
        }
        let elapsed = (ContinuousClock.now - start).components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        let images = indexed == 1 ? "image" : "images"
        var summary = "\(folder): \(indexed) \(images) indexed, \(present) already there, \(failed) failed"
        if shard.count > 1 { summary += " (shard \(shard))" }
        if pixels > 0 {
            let perMegapixel = Int((milliseconds / (Double(pixels) / 1e6) * 10).rounded())
            summary += "; \(perMegapixel / 10).\(perMegapixel % 10) ms per megapixel indexed"
        }
        print(summary)
        if failed > 0 { throw ExitCode.failure }
    }

    /// Plans the memory of `image`'s coarse levels before any pixel is decoded: in parts on every processor when
    /// that fits `limit`, else in one pass (which holds less: no file read whole, no records of its parts), else
    /// refused naming the file, what it needs and the limit.
    static func planMemory(of image: TiledImage, limit: Int) throws(TileViewError) {
        if image.coarseLevelsMemory.bytes > limit { image.decodesInParts = false }
        let plan = image.coarseLevelsMemory
        guard plan.bytes <= limit else {
            throw TileViewError(
                .decode, path: image.path,
                reason: "its coarse levels need \(plan), over the memory limit of \(MemoryEstimate.mebibytes(limit)) "
                    + "(--max-memory MiB raises it)")
        }
    }

    static func open(_ path: String) throws(TileViewError) -> OpenDescriptor {
        do throws(CodecError) {
            return try OpenDescriptor.open(regularFile: path)
        } catch {
            throw TileViewError(error, path: path)
        }
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
