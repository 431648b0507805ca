/// The `--json` of `tileview gallery` (docs/design.md section 9): one record per frame in `steps`, then `summary`.
public struct GalleryReport: Encodable, Sendable {
    public let steps: [GalleryStepRecord]
    public let summary: GallerySummaryRecord

    public init(steps: [GalleryStepRecord], summary: GallerySummaryRecord) {
        self.steps = steps
        self.summary = summary
    }
}
