import TileViewCore
import TileViewGallery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An output folder made ready for a run of numbered frames (DESIGN section 13): created if missing, frames an
/// earlier longer run left past this job's last one found (and with `clean` removed), with `resume` the frames an
/// interrupted run of the same job finished (journaled and checked, see `FrameJournal`), and this run's journal
/// started. Nothing is rendered or written here but the journal and the removals.
public struct FrameOutput: Sendable {
    public let folder: String
    /// This run's journal, holding the reused frames already.
    public let journal: FrameJournal
    /// Frames of this run that an earlier run finished (empty without `resume`).
    public let reused: Set<Int>
    /// Frames in the folder past the job's last frame: removed when `clean`, else left for the caller to report.
    public let stale: [Int]

    /// Prepares `folder` for a job of `frameCount` frames of which this run writes `ours` (a shard's, or all).
    public static func prepare(
        folder: String, frameCount: Int, ours: [Int], job: String, shard: GalleryShard = .whole, resume: Bool,
        clean: Bool
    ) throws(TileViewError) -> FrameOutput {
        try AtomicFile.makeDirectory(folder)
        let stale = FrameWriter.frameIndices(in: folder).filter { $0 >= frameCount }
        if clean {
            for index in stale where unlink(FrameWriter.framePath(folder: folder, index: index)) != 0 && errno != ENOENT
            {
                throw TileViewError(
                    .write, path: FrameWriter.framePath(folder: folder, index: index),
                    reason: "cannot remove: \(errnoText())")
            }
        }
        var kept: [String: FrameJournal.Entry] = [:]
        if resume {
            kept = FrameJournal.reusableFrames(in: folder, job: job, names: Set(ours.map(FrameWriter.frameName)))
        }
        let journal = try FrameJournal(
            folder: folder, job: job, shard: shard, kept: kept.values.sorted { $0.name < $1.name })
        let reused = Set(ours.filter { kept[FrameWriter.frameName($0)] != nil })
        return FrameOutput(folder: folder, journal: journal, reused: reused, stale: stale)
    }
}
