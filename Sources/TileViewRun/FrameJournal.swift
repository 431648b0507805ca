import TileViewCodecs
import TileViewCore
import TileViewGallery
import TileViewSystem

/// The journal of the frames a run has finished in its output folder, so that an interrupted run can be resumed
/// (`--resume`, docs/design.md section 13).
///
/// File: `OUTDIR/.tileview-journal` (`.tileview-journal-K-of-N` for shard K of N, so shards writing into one
/// folder never share a file). The first line names the job (`# tileview frames JOB`, JOB a SHA-256 of
/// everything the frames depend on); then one line per frame, `NAME SIZE SHA256`, appended by the writer only
/// after the frame's atomic rename (and the folder's fsync), in one `write(2)`. So every line names a whole frame
/// on disk; a line cut short by a crash is ignored, and so is a journal of another job.
///
/// Resuming (`reusableFrames`) trusts a journaled frame only if the file is there with the journaled size and
/// SHA-256; the run renders every other frame, so the folder ends byte for byte as an uninterrupted run leaves it.
public final class FrameJournal: Sendable {
    public let path: String
    private let file: AppendFile

    /// The journal's file name for a run of `shard`.
    public static func fileName(shard: GalleryShard) -> String {
        shard == .whole ? ".tileview-journal" : ".tileview-journal-\(shard.index)-of-\(shard.count)"
    }

    /// The job name of a description: its SHA-256.
    public static func jobName(describing description: String) -> String {
        SHA256.fastHex(Array(description.utf8))
    }

    /// An input file in a job's description: its path with its size and modification time, so that a file
    /// changed since makes another job.
    public static func describing(input path: String) -> String {
        let status = FileStatus.of(path)
        return "\(path)\t\(status?.size ?? -1)\t\(status?.modifiedNanoseconds ?? -1)\n"
    }

    /// Starts this run's journal in `folder` (which must exist): the file is written anew with the job's line
    /// and the lines of `kept`, frames already finished (reused by a resumed run).
    public init(
        folder: String, job: String, shard: GalleryShard = .whole, kept: [Entry] = []
    ) throws(TileViewError) {
        path = Paths.join(folder, Self.fileName(shard: shard))
        file = try AppendFile(creating: path, role: "the frame journal")
        try file.append(Self.header(job) + kept.map(\.line).joined())
    }

    /// A finished frame: its file name, size and SHA-256.
    public struct Entry: Hashable, Sendable {
        public let name: String
        public let size: Int
        public let sha256: String

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            size = bytes.count
            sha256 = SHA256.fastHex(bytes)
        }

        init(name: String, size: Int, sha256: String) {
            (self.name, self.size, self.sha256) = (name, size, sha256)
        }

        var line: String { "\(name) \(size) \(sha256)\n" }
    }

    /// Records a frame written under its final name.
    public func record(_ entry: Entry) throws(TileViewError) {
        try file.append(entry.line)
    }

    package static func header(_ job: String) -> String { "# tileview frames \(job)\n" }

    /// The frames of `names` that the journals in `folder` (every shard's) record for `job` and that are on disk
    /// whole: the file has the journaled size and SHA-256. Lines of another job and lines cut short are ignored.
    public static func reusableFrames(in folder: String, job: String, names: Set<String>) -> [String: Entry] {
        var journaled: [String: Entry] = [:]
        for file in (try? FolderEntries.names(in: folder)) ?? [] where file.hasPrefix(".tileview-journal") {
            guard let text = try? TextFile.read(Paths.join(folder, file)) else { continue }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.first.map({ $0 + "\n" == header(job) }) == true else { continue }
            // A last line without its newline was cut short.
            if !text.hasSuffix("\n") { lines.removeLast() }
            for line in lines.dropFirst() {
                let parts = line.split(separator: " ")
                guard parts.count == 3, names.contains(String(parts[0])), let size = Int(parts[1]),
                    parts[2].count == 64
                else { continue }
                journaled[String(parts[0])] = Entry(name: String(parts[0]), size: size, sha256: String(parts[2]))
            }
        }
        return journaled.filter { name, entry in
            guard let bytes = try? TextFile.readBytes(Paths.join(folder, name), limit: entry.size),
                bytes.count == entry.size
            else {
                return false
            }
            return SHA256.fastHex(bytes) == entry.sha256
        }
    }
}
