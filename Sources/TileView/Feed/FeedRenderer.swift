import TileViewCodecs
import TileViewCore
import TileViewFeed
import TileViewSystem

/// Renders the frames of a vertical feed (docs/design.md section 5): headers from their colour, grids from the
/// thumbnails of their resident cells, images from their tiles.
///
/// Feed it the steps of a `FeedScroller` over its `layout`, in order. For each step it
/// 1. applies the step's `CellPoolUpdate` to its `CellBufferStore`: leaving cells free or hand over their
///    buffers, entering cells (the viewport's new cells and those one screen ahead) get thumbnails
///    (`CellThumbnail`), rendered on up to `decodeThreads` threads at once;
/// 2. frees the tiles of every image section outside the step's resident range;
/// 3. draws the frame: the background, each visible section in its frame (a header's colour over the
///    background; an image's visible rows; a grid's visible cells, clipped to the viewport).
/// So the decoded pixels held after a step are the resident cells' thumbnails plus the image tiles of resident
/// image sections, whatever the feed's length (`residentBytes`).
public final class FeedRenderer {
    /// The sections' layout at the viewport size.
    public let layout: FeedLayout
    /// What each section draws from, in feed order.
    public let sources: [FeedSectionSource]
    /// The colour under everything (frame pixels no section covers, transparent parts of images).
    public let background: RGBA8
    public let options: DecodeOptions
    /// Threads that render thumbnails of entering cells at once.
    public let decodeThreads: Int
    /// The thumbnails of the resident cells.
    public private(set) var cells = CellBufferStore()
    /// Decoder warnings (lenient mode), each naming its file.
    public private(set) var warnings: [String] = []

    /// A renderer for sections already resolved (`FeedSectionSource`), laid out for `viewportSize`.
    public init(
        sources: [FeedSectionSource], viewportSize: PixelSize, background: RGBA8 = .black,
        options: DecodeOptions = DecodeOptions(), decodeThreads: Int = 2
    ) {
        self.sources = sources
        layout = FeedLayout(sections: sources.map(\.section), viewportSize: viewportSize)
        self.background = background
        self.options = options
        self.decodeThreads = max(1, decodeThreads)
    }

    /// Resolves `specs` (reading image headers and listing grid folders, decoding nothing) and makes the
    /// renderer. Fails on the first section whose file or folder cannot be used, naming it.
    public convenience init(
        specs: [FeedSectionSpec], viewportSize: PixelSize, background: RGBA8 = .black,
        options: DecodeOptions = DecodeOptions(), decodeThreads: Int = 2
    ) throws(TileViewError) {
        var sources: [FeedSectionSource] = []
        for spec in specs {
            sources.append(try FeedSectionSource(spec: spec, viewportSize: viewportSize, options: options))
        }
        self.init(
            sources: sources, viewportSize: viewportSize, background: background, options: options,
            decodeThreads: decodeThreads)
    }

    /// Bytes of decoded pixels held: resident thumbnails plus the cached tiles of image sections.
    public var residentBytes: Int {
        cells.residentBytes
            + sources.reduce(0) { sum, source in
                if case .image(let image) = source { return sum + image.residentBytes }
                return sum
            }
    }

    /// Brings the decoded pixels to `step`'s resident set and draws its frame (exactly the viewport's size).
    public func render(_ step: FeedScrollStep) throws(TileViewError) -> ImageBuffer {
        try cells.apply(step.cells) { (entering) throws(TileViewError) -> [ImageBuffer] in
            try thumbnails(for: entering)
        }
        for (index, source) in sources.enumerated() {
            if case .image(let image) = source, !step.residentImageSections.contains(index) { image.release() }
        }
        return try draw(step)
    }

    /// The path of a grid cell's image.
    public func filePath(of cell: CellID) -> String? {
        guard sources.indices.contains(cell.section), case .grid(let folder, _) = sources[cell.section],
            folder.names.indices.contains(cell.item)
        else { return nil }
        return folder.filePath(ofItem: cell.item)
    }

    /// Thumbnails of `cells`, in order; in lenient mode a file that cannot be decoded shows the background.
    func thumbnails(for cells: [CellRef]) throws(TileViewError) -> [ImageBuffer] {
        let jobs = cells.map { (path: filePath(of: $0.id) ?? "", size: $0.pixelSize) }
        let background = background
        let options = options
        var results = [Result<(image: ImageBuffer, warnings: [String]), TileViewError>](
            repeating: .failure(TileViewError(.decode, path: "", reason: "not rendered")), count: jobs.count)
        let render = { @Sendable (index: Int) -> Result<(image: ImageBuffer, warnings: [String]), TileViewError> in
            let job = jobs[index]
            do throws(TileViewError) {
                return .success(
                    try CellThumbnail.render(
                        file: job.path, cellSize: job.size, background: background, options: options))
            } catch {
                return .failure(error)
            }
        }
        if decodeThreads > 1 && jobs.count > 1 {
            let workers = min(decodeThreads, jobs.count)
            results.withUnsafeMutableBufferPointer { slots in
                // Worker k renders cells k, k + workers, ...: each slot is written by one worker, and every
                // worker is joined before the slots are read.
                nonisolated(unsafe) let slots = slots
                let threads = (0..<workers).map { worker in
                    WorkerThread.start {
                        for index in stride(from: worker, to: slots.count, by: workers) { slots[index] = render(index) }
                    }
                }
                for thread in threads { thread.join() }
            }
        } else {
            for index in jobs.indices { results[index] = render(index) }
        }
        var images: [ImageBuffer] = []
        images.reserveCapacity(jobs.count)
        for (job, result) in zip(jobs, results) {
            switch result {
            case .success(let thumbnail):
                warnings += thumbnail.warnings.map { "\(job.path): \($0)" }
                images.append(thumbnail.image)
            case .failure(let error):
                guard options.lenient else { throw error }
                warnings.append("\(error.description) (the cell shows the background)")
                images.append(ImageBuffer(width: job.size.width, height: job.size.height, fill: background))
            }
        }
        return images
    }
}
