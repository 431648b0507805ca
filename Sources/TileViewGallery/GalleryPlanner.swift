import TileViewCore
import TileViewPaging
import TileViewZoom

/// Plans every frame of a gallery walk without decoding a pixel: the pager's steps, the resident sets and their
/// diffs, each page's zoom state, transitions and drags, and where each visible page is drawn.
///
/// Planning is cheap (pure, plus one header read per page that becomes resident), so a run can plan the whole
/// walk first: usage and file errors surface before any frame is written, a shard (`--shard K/N`) renders its
/// frames of the same plan as every other shard, and the loader knows which pages the next frame shows.
///
/// Rules (docs/design.md section 4 and the paging module's doc comments):
/// - The initial view is frame 0: the start page at rest, every resident page loaded.
/// - A move applies `Pager.apply`; with N transition frames and a move to a neighbouring slot, N eased frames
///   (`TransitionPlan`, gap-aware with peeking) come before the frame at rest on the new page. A jump that is
///   not to a neighbour (`next` from the end of a map row, `goto` a page further away) is not animated; `goto`
///   a page the gallery does not have is an input error.
/// - A zoom gesture applies to the current page's zoom state; its points are in viewport pixels and are moved
///   into the page's frame (they differ when neighbours peek). One frame.
/// - A drag locks to its dominant axis (on a map the pager turns to it first, `Pager.orient`), moves the
///   content offset within the accessible run (`DragSession`), and on release settles on the flung neighbour
///   or the nearest page (`Pager.move(to:)`). With N transition frames, N eased frames run from the offset
///   where the finger lifted to the settled page's offset; then the frame at rest. Zoom states stay as they are.
/// - Each frame's resident set is the pager's set around the frame's current page (the page nearest the content
///   offset, so during a transition it changes where the nearest page does, halfway): every page a frame shows
///   is resident, since with P <= L/4 only the nearest page and its two neighbours can show. `loaded` and
///   `evicted` are the differences from the frame before. Evicted pages forget their zoom state.
public struct GalleryPlanner {
    public typealias Cell = PageMap.Cell
    /// Reads the size of a page's image (after orientation), e.g. from its file's header.
    public typealias ImageSizeReader = (Cell) throws(TileViewError) -> Size

    public let layout: PageLayout
    public let settings: GallerySettings
    public private(set) var pager: Pager
    public private(set) var zoomStates: PageZoomStates
    /// The frames planned so far, frame 0 first (or the last one only, after `forgetFramesBeforeLast`).
    public private(set) var frames: [GalleryFramePlan] = []
    /// How many frames were planned in all: the index of the next one.
    public private(set) var frameCount = 0
    private var sizes: [Cell: Size] = [:]
    private let readImageSize: ImageSizeReader
    /// The resident set before the first frame planned: empty for a new walk, the set before the restored frame
    /// for a restored one (so that its `loaded` and `evicted` are what they were).
    private var residentBefore: [Cell] = []

    /// A planner at `start` (default: the first page) with the initial frame planned. `start` must hold a page
    /// and the layout must have one.
    public init(
        layout: PageLayout, start: Cell? = nil, settings: GallerySettings,
        imageSize: @escaping ImageSizeReader
    ) throws(TileViewError) {
        guard let pager = Pager(layout: layout, start: start) else {
            preconditionFailure("a gallery needs a page to start on")
        }
        self.layout = layout
        self.settings = settings
        self.pager = pager
        zoomStates = PageZoomStates(maximumScale: settings.maximumScale, doubleTapStep: settings.doubleTapStep)
        readImageSize = imageSize
        try appendRestFrame(action: nil)
    }

    /// A planner restored from what a walk's last frame at rest was (a server's view token, docs/design.md section
    /// 18): its current page, where each resident page with a stored zoom state is (`zoomPlaces`), the frame's index
    /// and step, and the resident set of the frame before it. The one frame planned is that frame again: the same
    /// placements, zooms, resident set, `loaded` and `evicted`, and the next step plans as it would have. Lists and
    /// rings only (a map's pager also keeps the axis of its last move). A map, a `position` that holds no page, or a
    /// place that is not a state its page can have is an input error.
    public init(
        restoring layout: PageLayout, position: Cell, settings: GallerySettings, zoomPlaces: [Cell: ZoomPlace],
        frameIndex: Int, action: GalleryAction?, residentBefore: [Cell], imageSize: @escaping ImageSizeReader
    ) throws(TileViewError) {
        guard !layout.isMap, frameIndex >= 0, let pager = Pager(layout: layout, start: position) else {
            throw TileViewError(
                .input, path: "page \(position)", reason: "is no page of this list to restore a walk at")
        }
        self.layout = layout
        self.settings = settings
        self.pager = pager
        zoomStates = PageZoomStates(maximumScale: settings.maximumScale, doubleTapStep: settings.doubleTapStep)
        readImageSize = imageSize
        self.residentBefore = residentBefore
        frameCount = frameIndex
        let frameSize = peek(along: pager.axis).pageFrameSize.asSize
        for (cell, place) in zoomPlaces.sorted(by: { $0.key < $1.key }) {
            guard pager.resident.contains(cell),
                let state = zoomStates.state(at: cell, imageSize: try self.imageSize(at: cell), frameSize: frameSize)
                    .restored(place)
            else {
                throw TileViewError(.input, path: "page \(cell)", reason: "has no such zoom state to restore")
            }
            zoomStates.set(state, at: cell)
        }
        try appendRestFrame(action: action)
    }

    /// Plans the frames of a whole script.
    public static func plan(
        layout: PageLayout, start: Cell? = nil, settings: GallerySettings, script: GalleryScript,
        imageSize: @escaping ImageSizeReader
    ) throws(TileViewError) -> [GalleryFramePlan] {
        var planner = try GalleryPlanner(layout: layout, start: start, settings: settings, imageSize: imageSize)
        for action in script.actions { try planner.apply(action) }
        return planner.frames
    }

    /// Keeps only the last planned frame (an open-ended walk, a server's gallery view, needs no more): the
    /// frames planned later go on counting from `frameCount`.
    public mutating func forgetFramesBeforeLast() {
        frames.removeFirst(max(0, frames.count - 1))
    }

    /// Plans the frames of one step.
    public mutating func apply(_ action: GalleryAction) throws(TileViewError) {
        switch action {
        case .move(let move): try applyMove(move, action)
        case .gesture(let gesture): try applyGesture(gesture, action)
        case .drag(let translation, let velocity): try applyDrag(translation, velocity, action)
        }
    }

    /// The pixel layout of pages moving along `axis` (lists always move horizontally).
    public func peek(along axis: PageAxis) -> GalleryPeek {
        GalleryPeek(
            viewport: settings.viewport, peek: settings.peek, gap: settings.gap,
            axis: layout.isMap ? axis : .horizontal)
    }

    /// The image size of the page at `position`, read once.
    public mutating func imageSize(at position: Cell) throws(TileViewError) -> Size {
        if let size = sizes[position] { return size }
        let size = try readImageSize(position)
        sizes[position] = size
        return size
    }

    private mutating func applyMove(_ move: PageMove, _ action: GalleryAction) throws(TileViewError) {
        if case .goto(let number) = move, layout.position(ofPage: number - 1) == nil {
            let pages = layout.count == 1 ? "1 page" : "\(layout.count) pages"
            throw TileViewError(.input, path: "\(move)", reason: "there is no page \(number): the gallery has \(pages)")
        }
        let step = pager.apply(move)
        let peek = self.peek(along: step.axis)
        let distance = abs(step.targetSlot.column - step.from.column) + abs(step.targetSlot.row - step.from.row)
        if step.moved && distance == 1 && settings.transitionFrames > 0 {
            let transition = TransitionPlan(step: step, peek: peek.layout, frames: settings.transitionFrames)
            try appendTransition(
                transition, from: step.from, to: step.position, axis: step.axis, peek: peek, action: action)
        }
        try appendRestFrame(action: action)
    }

    private mutating func applyGesture(_ gesture: ZoomGesture, _ action: GalleryAction) throws(TileViewError) {
        let position = pager.position
        let peek = self.peek(along: pager.axis)
        let frame = peek.frame(ofSlot: position, atContentOffset: peek.contentOffset(ofSlot: position))
        var state = zoomStates.state(
            at: position, imageSize: try imageSize(at: position), frameSize: peek.pageFrameSize.asSize)
        state.apply(gesture.movedIntoFrame(at: Point(x: Double(frame.x), y: Double(frame.y))))
        zoomStates.set(state, at: position)
        try appendRestFrame(action: action)
    }

    private mutating func applyDrag(_ translation: Point, _ velocity: Point, _ action: GalleryAction)
        throws(TileViewError)
    {
        let axis = Self.dragAxis(translation: translation, velocity: velocity)
        if layout.isMap && axis != pager.axis { _ = pager.orient(axis) }
        let peek = self.peek(along: axis)
        var session = DragSession(pager: pager, pageSize: peek.layout.pageSize)
        session.drag(by: (translation.x, translation.y))
        let release = session.release(velocity: (velocity.x, velocity.y))
        let from = pager.position
        _ = pager.move(to: release.position)
        if settings.transitionFrames > 0 && session.contentOffset != release.contentOffset {
            let transition = TransitionPlan(
                from: session.contentOffset, to: release.contentOffset, frames: settings.transitionFrames)
            try appendTransition(transition, from: from, to: pager.position, axis: axis, peek: peek, action: action)
        }
        try appendRestFrame(action: action)
    }

    /// The axis a drag locks to, as `DragSession` decides it: the motion's dominant axis (ties horizontal), or
    /// the velocity's when the finger did not move.
    static func dragAxis(translation t: Point, velocity v: Point) -> PageAxis {
        if t.x != 0 || t.y != 0 { return abs(t.x) >= abs(t.y) ? .horizontal : .vertical }
        return abs(v.x) >= abs(v.y) ? .horizontal : .vertical
    }

    private mutating func appendTransition(
        _ transition: TransitionPlan, from: Cell, to: Cell, axis: PageAxis, peek: GalleryPeek, action: GalleryAction
    ) throws(TileViewError) {
        let count = transition.fractions.count
        for (k, (fraction, offset)) in zip(transition.fractions, transition.offsets).enumerated() {
            let info = GalleryTransition(index: k + 1, count: count, fraction: fraction, from: from, to: to)
            let nearest = nearestPage(at: offset, peek: peek) ?? (fraction < 0.5 ? from : to)
            try appendFrame(
                action: action, transition: info, position: nearest,
                resident: layout.residentSet(around: nearest, axis: axis), offset: offset, peek: peek)
        }
    }

    private mutating func appendRestFrame(action: GalleryAction?) throws(TileViewError) {
        let peek = self.peek(along: pager.axis)
        try appendFrame(
            action: action, transition: nil, position: pager.position, resident: pager.resident,
            offset: peek.contentOffset(ofSlot: pager.position), peek: peek)
    }

    private mutating func appendFrame(
        action: GalleryAction?, transition: GalleryTransition?, position: Cell, resident: [Cell], offset: Point,
        peek: GalleryPeek
    ) throws(TileViewError) {
        let diff = ResidentPlan(from: frames.last?.resident ?? residentBefore, to: resident)
        zoomStates.forget(diff.evict)
        try touch(diff.resident)
        var placements: [PagePlacement] = []
        for (page, frame) in peek.visiblePages(atContentOffset: offset, in: layout) {
            let zoom = zoomStates.state(
                at: page.position, imageSize: try imageSize(at: page.position), frameSize: peek.pageFrameSize.asSize)
            placements.append(PagePlacement(position: page.position, slot: page.slot, frame: frame, zoom: zoom))
        }
        let zoom = zoomStates.state(
            at: position, imageSize: try imageSize(at: position), frameSize: peek.pageFrameSize.asSize)
        frames.append(
            GalleryFramePlan(
                index: frameCount, action: action, transition: transition, position: position,
                resident: diff.resident, loaded: diff.load, evicted: diff.evict, placements: placements, zoom: zoom))
        frameCount += 1
    }

    /// The page nearest a content offset: on each axis floor((2x + pw) / (2pw)).
    private func nearestPage(at offset: Point, peek: GalleryPeek) -> Cell? {
        let size = peek.layout.pageSize
        let slot = Cell(
            column: PageMath.pageIndex(forOffset: offset.x, pageWidth: size.width),
            row: PageMath.pageIndex(forOffset: offset.y, pageWidth: size.height))
        return layout.position(atSlot: slot)
    }

    /// Reads the sizes of pages entering the resident set, so that an unreadable page fails while planning.
    private mutating func touch(_ positions: [Cell]) throws(TileViewError) {
        for position in positions { _ = try imageSize(at: position) }
    }
}

extension ZoomGesture {
    /// The gesture with its viewport points moved from frame space into a page frame whose origin is `origin`.
    func movedIntoFrame(at origin: Point) -> ZoomGesture {
        switch self {
        case .doubleTap(let p): .doubleTap(viewportPoint: Point(x: p.x - origin.x, y: p.y - origin.y))
        case .pinch(let f, let p): .pinch(factor: f, viewportPoint: Point(x: p.x - origin.x, y: p.y - origin.y))
        default: self  // no viewport point: two-finger tap, pan, fling, zoom-to, rotate
        }
    }
}
