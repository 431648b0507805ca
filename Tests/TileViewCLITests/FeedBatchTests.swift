import Foundation
import Testing
import TileViewTestSupport

/// Feeds as batches (docs/design.md section 13): shards together write the whole run's frames byte for byte (each
/// shard's first frame and every frame after a skipped one reached from the cells of the last frame it rendered),
/// SIGINT and SIGTERM stop a feed between frames with no temporary file, `--resume` finishes it byte for byte, and
/// frames of a longer earlier run are reported and removed with `--clean`.
@Suite("Feed: shards, interrupt and resume", .serialized)
struct FeedBatchTests {
    /// Grids of the sample images in four column counts around an image and headers, scrolled up and down so that
    /// cells enter and leave between any two frames of a shard.
    static func arguments(_ output: URL, offsets: String = "2500:0:90") -> [String] {
        let samples = Fixtures.sampleImages.path
        return [
            "feed", "header:120", "grid:\(samples):4", "grid:\(samples):3", "image:\(samples)/rocket.jpg",
            "grid:\(samples):5", "header:80:ff0000", "grid:\(samples):2", "grid:\(samples):6",
            "--viewport", "320x240", "--offsets", offsets, "-o", output.path,
        ]
    }

    /// An uninterrupted run's frames (28 offsets up the feed).
    static let reference = FrameRunChecks.referenceFrames("feed-reference") { arguments($0) }

    @Test("shards 0/4 to 3/4 (and auto from a Slurm array) together write the whole run, byte for byte")
    func shards() throws {
        #expect(Self.reference.count == 28)
        try TemporaryFolder.with("feed-shards") { folder in
            for k in 0..<4 {
                let result = try CommandRunner.run(Self.arguments(folder) + ["--shard", "\(k)/4", "--json"])
                #expect(result.status == 0, "\(result)")
                let summary = try #require(
                    (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["summary"]
                        as? [String: Any])
                #expect(summary["shard"] as? String == "\(k)/4")
                #expect(summary["frames"] as? Int == 7)
            }
            #expect(try FrameFolder.contents(folder).frames == Self.reference)
        }
        let base = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SLURM_") && $0.key != "JOB_COMPLETION_INDEX"
        }
        try TemporaryFolder.with("feed-slurm") { folder in
            for task in 0..<3 {
                var environment = base
                environment["SLURM_ARRAY_TASK_ID"] = "\(task + 4)"
                environment["SLURM_ARRAY_TASK_MIN"] = "4"
                environment["SLURM_ARRAY_TASK_COUNT"] = "3"
                let result = try CommandRunner.run(
                    Self.arguments(folder, offsets: "0:2500:70") + ["--shard", "auto"], environment: environment)
                #expect(result.status == 0, "\(result)")
            }
            let whole = try TemporaryFolder.with("feed-down") { down in
                #expect(try CommandRunner.run(Self.arguments(down, offsets: "0:2500:70")).status == 0)
                return try FrameFolder.contents(down).frames
            }
            #expect(whole.count == 36)
            #expect(try FrameFolder.contents(folder).frames == whole)
        }
        let none = try CommandRunner.run(
            Self.arguments(URL(fileURLWithPath: "/nonexistent")) + ["--shard", "auto"], environment: base)
        #expect(none.status == 64 && none.stderr.contains("needs a job runner"), "\(none)")
    }

    @Test("SIGINT or SIGTERM mid-feed: 130 or 143, the message, no temporary file; --resume ends byte-identical")
    func signals() throws {
        #expect(Self.reference.count == 28)
        try FrameRunChecks.interruptAndResume(
            { Self.arguments($0) }, reference: Self.reference, runs: 2, seed: 0xFEED_5167, delays: 0.05...1.5)
    }

    @Test("a feed of fewer frames into the folder: a warning with the count, and --clean removes them")
    func staleFrames() throws {
        try FrameRunChecks.staleFrames(
            "feed-stale", longer: { Self.arguments($0) }, shorter: { Self.arguments($0, offsets: "0:900:100") },
            left: 18, range: "frame-0010.png to frame-0027.png", kept: 10)
    }
}
