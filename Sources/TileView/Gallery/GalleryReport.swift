import TileViewPaging
import TileViewZoom

/// The `--json` of `tileview gallery` (DESIGN section 9): one record per frame in `steps`, then `summary`.
public struct GalleryReport: Encodable, Sendable {
    public let steps: [GalleryStepRecord]
    public let summary: GallerySummaryRecord

    public init(steps: [GalleryStepRecord], summary: GallerySummaryRecord) {
        self.steps = steps
        self.summary = summary
    }
}

/// One frame's record: `step` (the frame's index), `move` (the step's text; null for the initial view), `page`
/// as written in the list or map, `cell` [column, row] (maps only), `resident`, `loaded` and `evicted` as lists
/// of pages, `frame` (the PNG written), `zoomScale` of the current page, and on frames between two pages
/// `transition` {`index`, `of`, `fraction`, `from`, `to`}.
public struct GalleryStepRecord: Encodable, Equatable, Sendable {
    public struct Transition: Encodable, Equatable, Sendable {
        public let index: Int
        public let of: Int
        public let fraction: Double
        public let from: String
        public let to: String
    }

    public let step: Int
    public let move: String?
    public let page: String
    public let cell: [Int]?
    public let resident: [String]
    public let loaded: [String]
    public let evicted: [String]
    public let frame: String?
    public let zoomScale: Double
    public let transition: Transition?

    /// The record of a planned frame; `framePath` is where it was written.
    public init(_ plan: GalleryFramePlan, pages: GalleryPages, framePath: String?) {
        let names = { (cells: [PageMap.Cell]) in cells.map { pages.name(at: $0) } }
        step = plan.index
        move = plan.action?.description
        page = pages.name(at: plan.position)
        cell = pages.layout.isMap ? [plan.position.column, plan.position.row] : nil
        resident = names(plan.resident)
        loaded = names(plan.loaded)
        evicted = names(plan.evicted)
        frame = framePath
        zoomScale = ZoomSnapshot.rounded(plan.zoom.zoomScale)
        transition = plan.transition.map {
            Transition(
                index: $0.index, of: $0.count, fraction: ZoomSnapshot.rounded($0.fraction),
                from: pages.name(at: $0.from), to: pages.name(at: $0.to))
        }
    }

    enum CodingKeys: String, CodingKey {
        case step, move, page, cell, resident, loaded, evicted, frame, zoomScale, transition
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(step, forKey: .step)
        try c.encode(move, forKey: .move)  // null for the initial view
        try c.encode(page, forKey: .page)
        try c.encodeIfPresent(cell, forKey: .cell)
        try c.encode(resident, forKey: .resident)
        try c.encode(loaded, forKey: .loaded)
        try c.encode(evicted, forKey: .evicted)
        try c.encodeIfPresent(frame, forKey: .frame)
        try c.encode(zoomScale, forKey: .zoomScale)
        try c.encodeIfPresent(transition, forKey: .transition)
    }
}

/// The run's `summary`: `frames` rendered, `maxResident` pages, `peakResidentBytes` of decoded pixels held at
/// once, `peakRSSBytes` of the process (VmHWM; null where the system does not report it), then decoding
/// counters and, for a shard, `shard` "K/N".
public struct GallerySummaryRecord: Encodable, Equatable, Sendable {
    public let frames: Int
    public let maxResident: Int
    public let peakResidentBytes: Int
    public let peakRSSBytes: Int?
    public let decodePasses: Int
    public let bytesDecoded: Int
    public let loads: Int
    public let evictions: Int
    public let shard: String?

    public init(_ summary: GalleryRun.Summary, shard: GalleryShard) {
        frames = summary.frames
        maxResident = summary.maxResident
        peakResidentBytes = summary.peakResidentBytes
        peakRSSBytes = summary.peakRSSBytes
        decodePasses = summary.decodePasses
        bytesDecoded = summary.bytesDecoded
        loads = summary.loads
        evictions = summary.evictions
        self.shard = shard == .whole ? nil : shard.description
    }

    enum CodingKeys: String, CodingKey {
        case frames, maxResident, peakResidentBytes, peakRSSBytes, decodePasses, bytesDecoded, loads, evictions, shard
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frames, forKey: .frames)
        try c.encode(maxResident, forKey: .maxResident)
        try c.encode(peakResidentBytes, forKey: .peakResidentBytes)
        try c.encode(peakRSSBytes, forKey: .peakRSSBytes)
        try c.encode(decodePasses, forKey: .decodePasses)
        try c.encode(bytesDecoded, forKey: .bytesDecoded)
        try c.encode(loads, forKey: .loads)
        try c.encode(evictions, forKey: .evictions)
        try c.encodeIfPresent(shard, forKey: .shard)
    }
}
