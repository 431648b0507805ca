import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewZoom

/// What `tileview zoom` does: opens an image, starts at fit, applies gestures in order, and writes what the
/// viewport shows.
///
/// With `framesFolder`, frame 0 (the fit view) and one frame after every gesture are written there
/// (`FrameWriter`: `frame-0000.png` onward), through a tile cache so that later frames reuse tiles; with `animate`,
/// every frame a gesture moves through at `framesPerSecond` instead (an animated zoom: round(0.3 fps) frames; a
/// fling: its deceleration, rubber-banding past the edges with `bounce`), the last being the gesture's. The final
/// frame goes to `output` when given; a single frame needs no tile cache and is rendered straight from the
/// decoder's rows. Without `output` and frames only the header is read and nothing is decoded (the state alone).
/// Missing folders of `output` and `framesFolder` are created; every file is written atomically.
///
/// Frames are a run of numbered frames like a gallery's (docs/design.md section 13): `resume` keeps the frames an
/// interrupted run of the same job finished (`FrameJournal`), `clean` removes frames past the last one, and a
/// SIGINT or SIGTERM (`Interrupts`) stops the run before the next frame, the frames in flight landing whole.
public struct ZoomJob: Sendable {
    public var file: String
    /// The viewport, the largest scale, the double tap's step, the background, the filter and the decode options.
    public var view: ViewSettings
    public var gestures: [ZoomGesture]
    /// Where the final frame is written, if anywhere.
    public var output: String?
    /// Where a frame per step is written, if anywhere.
    public var framesFolder: String?
    /// Write every frame of each gesture's motion into `framesFolder` (docs/design.md section 12).
    public var animate: Bool
    /// Frames per second of motions.
    public var framesPerSecond: Double
    /// Rubber-band past the content's edges in a fling's frames.
    public var bounce: Bool
    /// With `framesFolder`: keep the frames an interrupted run of the same job finished.
    public var resume = false
    /// With `framesFolder`: remove numbered frames past this run's last one (left by a longer earlier run).
    public var clean = false
    /// With `framesFolder`: when the run stops starting frames (on SIGINT or SIGTERM).
    public var stop = FrameRunStop.onSignals

    public init(
        file: String, view: ViewSettings = ViewSettings(), gestures: [ZoomGesture] = [], output: String? = nil,
        framesFolder: String? = nil, animate: Bool = false,
        framesPerSecond: Double = ZoomAnimation.defaultFramesPerSecond, bounce: Bool = false
    ) {
        self.file = file
        self.view = view
        self.gestures = gestures
        self.output = output
        self.framesFolder = framesFolder
        self.animate = animate
        self.framesPerSecond = framesPerSecond
        self.bounce = bounce
    }

    /// Runs the job. Errors name the file (the image, or the output that could not be written).
    public func run() throws(TileViewError) -> ZoomResult {
        let image = try ZoomContentFiles.open(
            file, cacheBudgetBytes: framesFolder == nil ? 0 : TiledImage.defaultCacheBudgetBytes,
            options: view.options)
        let session = ZoomSession(image: image, view: view)
        var framePaths: [String] = []
        var framesOutput: FrameOutput?
        var unchanged: [String] = []
        /// Notes a gesture that left the state as it was.
        func check(_ gesture: ZoomGesture, from before: ZoomState) {
            if session.state == before { unchanged.append(Self.unchangedMessage(gesture, state: before)) }
        }
        if let framesFolder {
            let count = frameCount(from: session.state)
            let run = try FrameRun(
                .numbered(
                    folder: framesFolder, indices: Array(0..<count), of: count, job: journalName, resume: resume,
                    clean: clean,
                    pngOptions: image.keptColor?.embedding(in: PNGEncodeOptions()) ?? PNGEncodeOptions()),
                stop: stop)
            framesOutput = run.output
            try run.perform { (run) throws(TileViewError) in
                /// Writes the next frame, drawn by `render`, unless an earlier run finished it.
                func emit(_ render: () throws(TileViewError) -> RenderedFrame) throws(TileViewError) {
                    let index = framePaths.count
                    framePaths.append(run.path(ofFrame: index))
                    try run.write(frame: index) { () throws(TileViewError) in try render().image }
                }
                try emit { () throws(TileViewError) in try session.render() }
                for gesture in gestures {
                    let before = session.state
                    if animate {
                        let motion = try session.motion(applying: gesture, fps: framesPerSecond, bounce: bounce)
                        for frame in motion.frames {
                            try emit { () throws(TileViewError) in try session.render(frame) }
                        }
                        session.finish(motion)
                    } else {
                        try session.apply(gesture)
                        try emit { () throws(TileViewError) in try session.render() }
                    }
                    check(gesture, from: before)
                }
            }
        } else {
            for gesture in gestures {
                let before = session.state
                try session.apply(gesture)
                check(gesture, from: before)
            }
        }
        var level = session.level
        if let output {
            let (frame, png) = try session.renderFramePNG()
            level = frame.level
            try AtomicFile.makeDirectory(AtomicFile.split(output).folder)
            var file = png
            if let kept = image.keptColor {
                do throws(CodecError) {
                    file = try PNGEncoder.withProfile(png, options: kept.embedding(in: PNGEncodeOptions()))
                } catch {
                    throw TileViewError(.write, path: output, reason: "cannot encode PNG: \(error.message)")
                }
            }
            try AtomicFile.write(file, to: output)
        }
        let state = session.state
        return ZoomResult(
            state: state, level: level, image: image, output: output, framePaths: framePaths,
            framesOutput: framesOutput, unchangedGestures: unchanged)
    }

    /// What to say of a gesture that changed nothing: the scale it found, and the option that lets it zoom when the
    /// image was at its largest (a photo smaller than the viewport is, at fit).
    static func unchangedMessage(_ gesture: ZoomGesture, state: ZoomState) -> String {
        func number(_ value: Double) -> String {
            let rounded = (value * 1000).rounded() / 1000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        let text = "\"\(gesture)\" changes nothing"
        let atMaximum = state.zoomScale >= state.maximumZoomScale * (1 - 1e-9)
        let atMinimum = state.zoomScale <= state.minimumZoomScale * (1 + 1e-9)
        switch gesture {
        case .doubleTap, .zoomTo,
            .pinch(factor: 1..., viewportPoint: _) where atMaximum:
            return text + ": the image is already at its maximum scale \(number(state.maximumZoomScale)); "
                + "--max-scale \(number(max(2, state.maximumZoomScale * 2))) zooms further"
        case .twoFingerTap,
            .pinch where atMinimum:
            return text + ": the image is already at its minimum scale \(number(state.minimumZoomScale)) (fit)"
        default:
            return text + " (zoom scale \(number(state.zoomScale)), from \(number(state.minimumZoomScale)) to "
                + "\(number(state.maximumZoomScale)))"
        }
    }

    /// The frames a run writes into `framesFolder` from `start`: the first view, then one per gesture, or with
    /// `animate` every frame of each gesture's motion (the states alone: nothing is opened or drawn).
    func frameCount(from start: ZoomState) -> Int {
        var state = start
        var count = 1
        for gesture in gestures {
            if animate {
                let motion = state.motion(applying: gesture, fps: framesPerSecond, bounce: bounce)
                count += motion.frames.count
                state = motion.finalState
            } else {
                state.apply(gesture)
                count += 1
            }
        }
        return count
    }

    /// What a zoom holds at its peak: the frame being drawn, a copy while it is composed (a scene's clipped layer)
    /// and its PNG encoding; with `frames`, the one the writer encodes meanwhile (`FrameWriter`) and the tile cache
    /// that later frames reuse. Measured peaks at 4096x4096 (V = 64 MiB, debug build): one frame 1.7 V, a scene 1.6
    /// V, frames 2.1 V + cache; the estimate is 3 V, and 4 V + cache.
    public static func memory(viewport: PixelSize, frames: Bool) -> MemoryEstimate {
        var estimate = MemoryEstimate.frames(viewport, copies: frames ? 4 : 3)
        if frames { estimate.add("tile cache", bytes: TiledImage.defaultCacheBudgetBytes) }
        return estimate
    }

    /// The job's name in a frame journal: the file (with its size and modification time), the view settings
    /// with the gestures, and the motion settings.
    public var journalName: String {
        let text =
            "zoom frames\n" + FrameJournal.describing(input: file) + view.journalDescription(gestures: gestures)
            + "\(animate) \(framesPerSecond) \(bounce)\n"
        return FrameJournal.jobName(describing: text)
    }
}

/// What a `ZoomJob` did: the final state, the level its frame is drawn from, the image with its decode and
/// cache counters and warnings, and the files written.
public struct ZoomResult {
    public let state: ZoomState
    public let level: Int
    public let image: any ZoomContent
    public let output: String?
    public let framePaths: [String]
    /// The frames folder as the run found it (frames kept by `resume`, frames past the run's last one).
    public var framesOutput: FrameOutput? = nil
    /// A sentence for each gesture that left the view as it was (`tileview zoom` prints them).
    public var unchangedGestures: [String] = []
}

/// The `--json` of `tileview zoom`: the zoom state with the design's keys (section 3), then how the frame was made.
public struct ZoomReport: Encodable {
    public let result: ZoomResult
    /// The input file, in a batch's records (no key otherwise).
    public let file: String?

    public init(_ result: ZoomResult, file: String? = nil) {
        self.result = result
        self.file = file
    }

    enum CodingKeys: String, CodingKey {
        case level, levelSize, tilesDecoded, bytesDecoded, decodePasses, cacheHits, cacheMisses, peakCacheBytes, output
        case file
    }

    public func encode(to encoder: any Encoder) throws {
        try result.state.snapshot.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        let image = result.image
        var size = image.levelSize(ofLevel: result.level)
        if result.state.rotation.swapsWidthAndHeight { size = PixelSize(width: size.height, height: size.width) }
        try c.encode(result.level, forKey: .level)
        try c.encode(["width": size.width, "height": size.height], forKey: .levelSize)
        let stats = image.statistics
        try c.encode(stats.tilesDecoded, forKey: .tilesDecoded)
        try c.encode(image.bytesDecoded, forKey: .bytesDecoded)
        try c.encode(image.decodePasses, forKey: .decodePasses)
        try c.encode(stats.hits, forKey: .cacheHits)
        try c.encode(stats.misses, forKey: .cacheMisses)
        try c.encode(stats.peakBytes, forKey: .peakCacheBytes)
        try c.encodeIfPresent(result.output, forKey: .output)
        try c.encodeIfPresent(file, forKey: .file)
    }
}
