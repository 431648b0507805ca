import TileViewCodecs
import TileViewCore
import TileViewRender
import TileViewZoom

/// How a zoomed view is shown, besides its file and its gestures: the viewport, the largest zoom scale, the double
/// tap's step, the background, the resampling filter and how files are decoded (docs/design.md sections 3, 7, 9
/// and 14). The one value that a zoom job, a zoom batch, a zoom session and a server's view share.
public struct ViewSettings: Sendable, Equatable {
    public var viewport: PixelSize
    /// `--max-scale`: viewport pixels per image pixel at most (1: never past one image pixel per viewport pixel).
    public var maximumScale: Double
    /// The scale factor of a double tap and a two-finger tap.
    public var doubleTapStep: Double
    public var background: RGBA8
    /// How image pixels are resampled (`nearest`: sharp squares past 1:1).
    public var filter: ResampleFilter
    public var options: DecodeOptions

    public init(
        viewport: PixelSize = PixelSize(width: 1024, height: 768), maximumScale: Double = 1,
        doubleTapStep: Double = 1.5, background: RGBA8 = .black, filter: ResampleFilter = .automatic,
        options: DecodeOptions = DecodeOptions()
    ) {
        self.viewport = viewport
        self.maximumScale = maximumScale
        self.doubleTapStep = doubleTapStep
        self.background = background
        self.filter = filter
        self.options = options
    }

    /// The settings a zoom frame depends on besides its file, with `gestures`, as a journal's job description holds
    /// them (`FrameJournal.jobName`).
    func journalDescription(gestures: [ZoomGesture]) -> String {
        var text = "\(viewport)\n\(gestures.map(\.description))\n\(maximumScale)\n\(doubleTapStep)\n"
        text += "\(background)\n\(options)\n"
        if filter != .automatic { text += "filter \(filter)\n" }
        return text
    }
}
