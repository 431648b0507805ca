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

    @Option(name: .customLong("tap"), help: ArgumentHelp("A double tap at a viewport point.", valueName: "X,Y"))
    var taps: [String] = []

    @Option(name: .customLong("gesture"), help: ArgumentHelp("A gesture (see above).", valueName: "GESTURE"))
    var gestures: [String] = []

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

    /// Taps and gestures in command-line order.
    func orderedGestures() throws -> [ZoomGesture] {
        var texts: [String] = []
        var tapIndex = 0
        var gestureIndex = 0
        for argument in CommandLine.arguments.dropFirst() {
            if argument == "--tap" || argument.hasPrefix("--tap="), tapIndex < taps.count {
                texts.append("double-tap \(taps[tapIndex])")
                tapIndex += 1
            } else if argument == "--gesture" || argument.hasPrefix("--gesture="), gestureIndex < gestures.count {
                texts.append(gestures[gestureIndex])
                gestureIndex += 1
            }
        }
        // Anything not matched above (an unusual spelling) keeps its own order after the rest.
        texts += taps[tapIndex...].map { "double-tap \($0)" } + gestures[gestureIndex...]
        return try texts.map { text in
            do {
                return try ZoomGesture(parsing: text)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() throws {
        Report.verbose = decoding.verbose
        try Report.failures {
            let gestures = try orderedGestures()
            // One frame needs no tile cache (its decoded block is rendered as it is); a frame
            // sequence keeps tiles between gestures.
            let image = try TiledImage(
                path: file, cacheBudgetBytes: frames == nil ? 0 : TiledImage.defaultCacheBudgetBytes,
                options: decoding.decodeOptions)
            var state = ZoomState(
                imageSize: image.imageSize.asSize, viewportSize: viewport.size, maximumScaleSetting: maxScale,
                doubleTapStep: doubleTapStep)
            if let frames { try AtomicFile.makeDirectory(frames) }
            var frameIndex = 0
            func writeFrame(_ state: ZoomState) throws {
                guard let frames else { return }
                let frame = try image.render(state, background: background)
                try ImageFiles.writePNG(frame.image, to: "\(frames)/" + Self.frameName(frameIndex))
                frameIndex += 1
            }
            try writeFrame(state)
            for gesture in gestures {
                state.apply(gesture)
                try writeFrame(state)
            }
            let destination = output ?? (json ? nil : Self.defaultOutput(for: file))
            var level = image.pyramid.level(forZoomScale: state.zoomScale)
            if let destination {
                let frame = try image.render(state, background: background)
                level = frame.level
                try ImageFiles.writePNG(frame.image, to: destination)
                if output == nil { print(destination) }
            }
            for warning in image.warnings { Report.warning("\(file): \(warning)") }
            if json {
                print(try Report.json(ZoomReport(state: state, level: level, image: image, output: destination)))
            }
            if stats { Report.statistics(of: image) }
        }
    }

    /// `frame-0007.png` for index 7.
    static func frameName(_ index: Int) -> String {
        let digits = String(index)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// `photo.zoom.png` in the current folder for `path/to/photo.jpg`.
    static func defaultOutput(for path: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return "\(name).zoom.png"
    }
}

/// The `--json` of `tileview zoom`: the zoom state with DESIGN's keys, then how the frame was made.
struct ZoomReport: Encodable {
    let state: ZoomState
    let level: Int
    let image: TiledImage
    let output: String?

    enum CodingKeys: String, CodingKey {
        case level, levelSize, tilesDecoded, bytesDecoded, decodePasses, cacheHits, cacheMisses, peakCacheBytes, output
    }

    func encode(to encoder: any Encoder) throws {
        try state.snapshot.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        let size = image.pyramid.levelSize(ofLevel: level)
        try c.encode(level, forKey: .level)
        try c.encode(["width": size.width, "height": size.height], forKey: .levelSize)
        let stats = image.statistics
        try c.encode(stats.tilesDecoded, forKey: .tilesDecoded)
        try c.encode(image.bytesDecoded, forKey: .bytesDecoded)
        try c.encode(image.decodePasses, forKey: .decodePasses)
        try c.encode(stats.hits, forKey: .cacheHits)
        try c.encode(stats.misses, forKey: .cacheMisses)
        try c.encode(stats.peakBytes, forKey: .peakCacheBytes)
        try c.encodeIfPresent(output, forKey: .output)
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
