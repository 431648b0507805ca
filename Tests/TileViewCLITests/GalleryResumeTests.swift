import Foundation
import Testing
import TileViewTestSupport

/// Interrupted gallery runs (DESIGN section 13): SIGINT and SIGTERM stop a run with 130 or 143 and no temporary
/// file, a second SIGINT ends it at once, `kill -9` at any moment leaves only whole frames, and `--resume` always
/// finishes the folder byte for byte as an uninterrupted run; frames an earlier longer run left are reported and
/// `--clean` removes them.
@Suite("Gallery: interrupt and resume", .serialized)
struct GalleryResumeTests {
    /// Six sample pages, five moves with two eased frames between pages: 16 frames (about 2 s in a debug build).
    static func arguments(
        _ output: URL, viewport: String = "240x180", moves: String = "next,next,next,next,next", transitions: Int = 2
    ) -> [String] {
        [
            "gallery", "--dir", Fixtures.sampleImages.path, "--viewport", viewport, "--moves", moves,
            "--transition-frames", "\(transitions)", "-o", output.path,
        ]
    }

    /// The names and bytes of the frames in `folder`, and whether a temporary file is there.
    static func contents(_ folder: URL) throws -> (frames: [String: Data], temporaries: [String]) {
        var frames: [String: Data] = [:]
        var temporaries: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            if name.contains(".tmp-") { temporaries.append(name) }
            if name.hasPrefix("frame-") { frames[name] = try Data(contentsOf: folder.appendingPathComponent(name)) }
        }
        return (frames, temporaries)
    }

    /// An uninterrupted run's frames.
    static let reference: [String: Data] = {
        let folder = try! TemporaryFolder.untilExit("resume-reference")
        let result = try! CommandRunner.run(arguments(folder))
        precondition(result.status == 0, "\(result)")
        return try! contents(folder).frames
    }()

    @Test("SIGINT or SIGTERM mid-run: 130 or 143, the message, no temporary file; --resume ends byte-identical")
    func signals() throws {
        #expect(Self.reference.count == 16)
        try FrameRunChecks.interruptAndResume(
            { Self.arguments($0) }, reference: Self.reference, runs: 8, seed: 0x5167_1A75, delays: 0.05...2)
    }

    @Test("a second SIGINT ends the run at once, still without a temporary file")
    func secondInterrupt() throws {
        for delay in [0.3, 0.6] {
            try TemporaryFolder.with("resume-twice") { folder in
                let result = try CommandRunner.run(
                    Self.arguments(folder, viewport: "1600x1200", transitions: 8), timeout: 120,
                    signals: [(delay, SIGINT), (delay + 0.01, SIGINT)])
                #expect(result.status == 130 || result.status == 0, "\(result)")
                let (frames, temporaries) = try Self.contents(folder)
                #expect(temporaries.isEmpty, "\(temporaries)")
                #expect(frames.count < 46 || result.status == 0)
            }
        }
    }

    @Test("kill -9 at random moments (50 runs), then --resume: always byte-identical, only whole frames before")
    func crashConsistency() throws {
        var random = SplitMix64(seed: 0xC4A5_4909)
        // Three pages, two moves, two eased frames between pages: 7 frames, about a second a run.
        let short = { (folder: URL) in Self.arguments(folder, moves: "next,next") }
        let small = try TemporaryFolder.with("crash-reference") { folder -> [String: Data] in
            #expect(try CommandRunner.run(short(folder)).status == 0)
            return try Self.contents(folder).frames
        }
        #expect(small.count == 7)
        for run in 0..<50 {
            try TemporaryFolder.with("crash") { folder in
                let delay = random.uniform(0.02, 1)
                let killed = try CommandRunner.run(short(folder), timeout: 60, signals: [(delay, SIGKILL)])
                let (frames, _) = try Self.contents(folder)
                for (name, bytes) in frames { #expect(small[name] == bytes, "run \(run): \(name) is whole") }
                let resumed = try CommandRunner.run(short(folder) + ["--resume"], timeout: 60)
                #expect(resumed.status == 0, "\(resumed)")
                let after = try Self.contents(folder)
                #expect(after.frames == small, "run \(run): killed after \(delay) s (status \(killed.status))")
                #expect(after.temporaries.isEmpty, "a resumed run removes what the killed one left")
            }
        }
    }

    @Test("--resume keeps only frames of the same job that are whole on disk")
    func resumeChecks() throws {
        try TemporaryFolder.with("resume-checks") { folder in
            #expect(try CommandRunner.run(Self.arguments(folder)).status == 0)
            // A damaged frame is rendered again; the others are kept.
            let damaged = folder.appendingPathComponent("frame-0007.png")
            var bytes = try Data(contentsOf: damaged)
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: damaged)
            let again = try CommandRunner.run(Self.arguments(folder) + ["--resume"])
            #expect(again.stdout.contains("1 frame, 15 reused"), "\(again)")
            #expect(try Self.contents(folder).frames == Self.reference)
            // Another job (other moves) reuses nothing.
            let other = try CommandRunner.run(Self.arguments(folder, moves: "next,prev,next,next,prev") + ["--resume"])
            #expect(other.status == 0 && other.stdout.contains("16 frames, 0 reused"), "\(other)")
        }
    }

    @Test("frames a longer earlier run left: a warning with the count, and --clean removes them")
    func staleFrames() throws {
        try TemporaryFolder.with("stale") { folder in
            #expect(try CommandRunner.run(Self.arguments(folder)).status == 0)
            let shorter = try CommandRunner.run(Self.arguments(folder, moves: "next,next"))
            #expect(shorter.status == 0)
            #expect(
                shorter.stderr.contains(
                    "holds 9 frames this run does not write (frame-0007.png to frame-0015.png), left by an earlier run; --clean removes them"
                ), "\(shorter.stderr)")
            #expect(try Self.contents(folder).frames.count == 16, "nothing is removed without --clean")
            let cleaned = try CommandRunner.run(Self.arguments(folder, moves: "next,next") + ["--clean"])
            #expect(cleaned.status == 0 && cleaned.stderr.contains("removed 9 frames"), "\(cleaned)")
            #expect(try Self.contents(folder).frames.count == 7)
        }
    }
}

/// `--shard auto` as Slurm and Kubernetes run it: the shards' frames together equal the whole run.
@Suite("Gallery: shards from job runners")
struct GalleryRunnerShardTests {
    @Test("an 8-task Slurm array and a 3-index Kubernetes Job give the whole run's frames; no runner is exit 64")
    func runners() throws {
        try TemporaryFolder.with("runner-shards") { dir in
            let base = ProcessInfo.processInfo.environment.filter {
                !$0.key.hasPrefix("SLURM_") && $0.key != "JOB_COMPLETION_INDEX"
            }
            let whole = dir.appendingPathComponent("whole")
            #expect(try CommandRunner.run(GalleryResumeTests.arguments(whole)).status == 0)
            let expected = try GalleryResumeTests.contents(whole).frames
            let slurm = dir.appendingPathComponent("slurm")
            for task in 1...8 {
                var environment = base
                environment["SLURM_ARRAY_TASK_ID"] = "\(task)"
                environment["SLURM_ARRAY_TASK_MIN"] = "1"
                environment["SLURM_ARRAY_TASK_COUNT"] = "8"
                let run = try CommandRunner.run(
                    GalleryResumeTests.arguments(slurm) + ["--shard", "auto", "--resume"], environment: environment)
                #expect(run.status == 0, "\(run)")
            }
            #expect(try GalleryResumeTests.contents(slurm).frames == expected)
            let journals = try FileManager.default.contentsOfDirectory(atPath: slurm.path).filter {
                $0.hasPrefix(".tileview-journal")
            }
            #expect(journals.count == 8, "one journal per shard: \(journals)")
            let kubernetes = dir.appendingPathComponent("kubernetes")
            for index in 0..<3 {
                var environment = base
                environment["JOB_COMPLETION_INDEX"] = "\(index)"
                let run = try CommandRunner.run(
                    GalleryResumeTests.arguments(kubernetes) + ["--shard", "auto", "--shards", "3"],
                    environment: environment)
                #expect(run.status == 0, "\(run)")
            }
            #expect(try GalleryResumeTests.contents(kubernetes).frames == expected)
            let none = try CommandRunner.run(
                GalleryResumeTests.arguments(dir.appendingPathComponent("none")) + ["--shard", "auto"],
                environment: base)
            #expect(none.status == 64 && none.stderr.contains("needs a job runner"), "\(none)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("none").path))
        }
    }
}

/// The recipes in `deploy/` on real engines (`scripts/test-cluster.sh`): an 8-task Slurm array on a single-node
/// Slurm and the Kubernetes Indexed Job's command once per index, each byte for byte the unsharded run.
@Suite("Batch recipes on Slurm and Kubernetes")
struct ClusterRecipeTests {
    @Test(
        "Slurm array and Kubernetes Indexed Job: the shards' frames equal the unsharded run", .timeLimit(.minutes(10)))
    func recipes() async throws {
        let (status, text) = try await CommandRunner.scriptOffThePool("test-cluster.sh")
        #expect(status == 0, "\(text)")
        #expect(text.contains("slurm: 50 frames byte-identical") && text.contains("slurm: 8 shard journals"), "\(text)")
        #expect(text.contains("kubernetes: 51 frames byte-identical"), "\(text)")
    }
}
