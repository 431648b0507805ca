import ArgumentParser
import TileView
import TileViewCLI
import TileViewCodecs
import TileViewCore

/// `tileview info FILE... [--json]`: what each file is, from its header alone.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract:
            "Print format, size, orientation, sample layout, colour space, levels and tiles of image files (and scenes).",
        usage: "tileview info <files> ... [--json] [<decoding options>]",
        discussion: """
            Reads only the headers. With --json prints a JSON array with one object per file; a file \
            that cannot be read gets an object with "file" and "error". Any failure makes the exit status 1. \
            The decoding options apply as a decode would: with --no-orient the size, levels and tiles are \
            those of the stored layout and the orientation shown is 1 (none applied); a file over \
            --max-pixels is an error. A scene (a JSON file of coloured rects and images) is reported with its \
            size in points, its layers and the header of each image it draws.
            """
    )

    @Argument(help: "Image files, or scenes (the format comes from the content, not the name).")
    var files: [String]

    @Flag(help: "Print JSON instead of one line per file.")
    var json = false

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
    }

    /// One entry of the JSON array: the info, or the error for that file.
    struct Entry: Encodable {
        let info: Info?
        let file: String
        let error: String?

        func encode(to encoder: any Encoder) throws {
            switch info {
            case .image(let info): try info.encode(to: encoder)
            case .scene(let info): try info.encode(to: encoder)
            case nil:
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(file, forKey: .file)
                try c.encode(error, forKey: .error)
            }
        }

        enum CodingKeys: String, CodingKey { case file, error }
    }

    /// An image's info or a scene's.
    enum Info {
        case image(ImageInfo)
        case scene(SceneInfo)

        var summary: String {
            switch self {
            case .image(let info): info.summary
            case .scene(let info): info.summary
            }
        }
    }

    /// What `file` is, as a decode with `options` would see it: without `applyOrientation` the
    /// stored layout (orientation 1, levels of the stored size); over `maxPixels` an error. A scene is read
    /// with the headers of its images.
    static func info(of file: String, options: DecodeOptions) throws(TileViewError) -> Info {
        let content = try ZoomContentFiles.open(file, cacheBudgetBytes: 0, options: options)
        if let scene = content as? SceneImage { return .scene(SceneInfo(scene)) }
        guard let image = content as? TiledImage else {
            throw TileViewError(.decode, path: file, reason: "not an image or a scene")
        }
        var header = image.header
        header.orientation = image.orientation
        return .image(ImageInfo(file: file, header: header))
    }

    func run() throws {
        var entries: [Entry] = []
        var failed = false
        for file in files {
            do {
                // Only headers are read: no memory limit applies.
                var options = decoding.decodeOptions
                options.maxMemoryBytes = .max
                let info = try Self.info(of: file, options: options)
                entries.append(Entry(info: info, file: file, error: nil))
                if !json { print(info.summary) }
            } catch {
                failed = true
                Report.error(error.description)
                entries.append(Entry(info: nil, file: file, error: error.reason))
            }
        }
        if json { print(try Report.json(entries)) }
        if failed { throw ExitCode.failure }
    }
}
