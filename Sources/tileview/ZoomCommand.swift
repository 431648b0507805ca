import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCore
import TileViewZoom

/// `tileview zoom FILE --tap X,Y`: the viewport after double taps and other gestures, as PNG and JSON.
struct ZoomCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zoom",
        abstract: "Zoom into an image the way UIScrollView does and write what the viewport shows.",
        discussion: """
            The image starts at fit (the minimum scale). Gestures apply in the order given on the command \
            line; --tap X,Y is short for --gesture "double-tap X,Y". Gesture forms (viewport pixels unless \
            noted): "double-tap X,Y", "two-finger-tap", "pinch F X,Y", "pan DX,DY", "zoom-to X,Y,W,H" \
            (image pixels). Without -o and --json the frame goes to NAME.zoom.png in the current folder. \
            With --json and no -o only the header is read and nothing is decoded.
            """
    )

    @Argument(help: "A PNG or JPEG file.")
    var file: String

    @Option(help: "Viewport size in pixels, WxH (default: 1024x768).", transform: ViewportSize.parse)
    var viewport = ViewportSize(width: 1024, height: 768)

    @Option(
        name: [.customLong("tap"), .customLong("gesture")],
        help: ArgumentHelp(
            "--tap X,Y: a double tap at a viewport point; --gesture GESTURE: a gesture (see above). Both keep the order given.",
            valueName: "X,Y | GESTURE"))
    var steps: [String] = []

    @Option(name: .customLong("max-scale"), help: "Maximum zoom scale (viewport pixels per image pixel).")
    var maxScale: Double = 1.0

    @Option(name: .customLong("double-tap-step"), help: "Scale factor of a double tap and a two-finger tap.")
    var doubleTapStep: Double = 1.5

    @Option(help: "Background colour of the margins, RRGGBB or RRGGBBAA.")
    var background = RGBA8.black

    @Option(name: .shortAndLong, help: "The PNG file to write the final frame to.")
    var output: String?

    @Option(help: "Write the frame before and after every gesture into this folder (frame-0000.png, ...).")
    var frames: String?

    @Flag(help: "Print the final zoom state as JSON on standard output.")
    var json = false

    @Flag(help: "Print decode and cache statistics to standard error.")
    var stats = false

    @OptionGroup var decoding: DecodeOptionGroup

    func validate() throws {
        guard maxScale.isFinite, maxScale > 0 else { throw ValidationError("--max-scale must be a positive number") }
        guard doubleTapStep.isFinite, doubleTapStep >= 1 else {
            throw ValidationError("--double-tap-step must be a number of at least 1")
        }
        _ = try orderedGestures()
    }

    /// Taps and gestures in command-line order (`--tap` and `--gesture` fill one list, so their order is kept):
    /// a value that starts with a number, what `--tap` takes, is a double tap there.
    func orderedGestures() throws -> [ZoomGesture] {
        try steps.map { text in
            let isPoint = text.first.map { $0.isNumber || "-+.".contains($0) } ?? false
            do {
                return try ZoomGesture(parsing: isPoint ? "double-tap \(text)" : text)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() throws {
        Report.verbose = decoding.verbose
        try Report.failures {
            let job = ZoomJob(
                file: file, viewport: viewport.pixelSize, gestures: try orderedGestures(), maximumScale: maxScale,
                doubleTapStep: doubleTapStep, background: background,
                output: output ?? (json ? nil : Self.defaultOutput(for: file)), framesFolder: frames,
                options: decoding.decodeOptions)
            let result = try job.run()
            if output == nil, let written = result.output { print(written) }
            for warning in result.image.warnings { Report.warning("\(file): \(warning)") }
            if json { print(try Report.json(ZoomReport(result))) }
            if stats { Report.statistics(of: result.image) }
        }
    }

    /// `photo.zoom.png` in the current folder for `path/to/photo.jpg`.
    static func defaultOutput(for path: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return "\(name).zoom.png"
    }
}

extension Report {
    static func statistics(of image: TiledImage) {
        let s = image.statistics
        standardError(
            """
            tileview: stats: \(image.path): \(image.decodePasses) decode passes, \(s.tilesDecoded) tiles decoded, \
            \(image.bytesDecoded) bytes of level pixels decoded (\(image.streamedBytes) streamed without tiles), cache \(s.hits) hits / \(s.misses) misses, peak \(s.peakBytes) bytes, \
            resident \(image.residentBytes) bytes

            """)
    }
}
