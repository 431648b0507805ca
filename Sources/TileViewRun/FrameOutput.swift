import TileViewCore
import TileViewGallery
import TileViewSystem

/// An output folder made ready for a run of numbered frames (docs/design.md section 13): created if missing, frames an
/// earlier longer run left past this job's last one found (and with `clean` removed), with `resume` the frames an
/// interrupted run of the same job finished (journaled and checked, see `FrameJournal`), and this run's journal
/// started. Nothing is rendered or written here but the journal and the removals.
public struct FrameOutput: Sendable {
    public let folder: String
    /// This run's journal, holding the reused frames already.
    public let journal: FrameJournal
    /// Files of this run that an earlier run finished (empty without `resume`).
    public let reusedNames: Set<String>
    /// Numbered frames in the folder past the job's last frame: removed when `clean`, else left for the caller to
    /// report.
    public let stale: [Int]

    /// Prepares `folder` for a run that writes the files `outputs` (frame names, or a batch's `NAME.png`). With
    /// `frameCount`, the job's numbered frames, frames past the last one are `stale`.
    public static func prepare(
        folder: String, outputs: [String], frameCount: Int? = nil, job: String, shard: GalleryShard = .whole,
        resume: Bool, clean: Bool
    ) throws(TileViewError) -> FrameOutput {
        try AtomicFile.makeDirectory(folder)
        let stale = frameCount.map { count in FrameWriter.frameIndices(in: folder).filter { $0 >= count } } ?? []
        if clean {
            for index in stale { try AtomicFile.remove(FrameWriter.framePath(folder: folder, index: index)) }
        }
        var kept: [String: FrameJournal.Entry] = [:]
        if resume { kept = FrameJournal.reusableFrames(in: folder, job: job, names: Set(outputs)) }
        let journal = try FrameJournal(
            folder: folder, job: job, shard: shard, kept: kept.values.sorted { $0.name < $1.name })
        return FrameOutput(folder: folder, journal: journal, reusedNames: Set(kept.keys), stale: stale)
    }
}
