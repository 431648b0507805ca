import Foundation
import Testing
import TileViewTestSupport

/// Interrupted gallery runs (docs/design.md section 13): SIGINT and SIGTERM stop a run with 130 or 143 and no temporary
/// file, a second SIGINT ends it at once, `kill -9` at any moment leaves only whole frames, and `--resume` always
/// finishes the folder byte for byte as an uninterrupted run; frames an earlier longer run left are reported and
/// `--clean` removes them.
@Suite("Gallery: interrupt and resume", .serialized)
struct GalleryResumeTests {
    /// Six sample pages, five moves with two eased frames between pages: 16 frames (about 0.15 s in a debug build).
    static func arguments(
        _ output: URL, viewport: String = "240x180", moves: String = "next,next,next,next,next", transitions: Int = 2
    ) -> [String] {
        [
            "gallery", "--dir", Fixtures.sampleImages.path, "--viewport", viewport, "--moves", moves,
            "--transition-frames", "\(transitions)", "-o", output.path,
        ]
    }

    /// An uninterrupted run's frames.
    static let reference = FrameRunChecks.referenceFrames("resume-reference") { arguments($0) }

    /// The run the signals interrupt: twelve eased frames between pages, 66 frames, so that a signal sent when
    /// the first frame is on disk meets a run still under way (16 frames take about 0.15 s in a debug build, less
    /// than a loaded machine may take to schedule the signalling thread).
    static let longReference = FrameRunChecks.referenceFrames("resume-reference-long") {
        arguments($0, transitions: 12)
    }

    @Test("SIGINT or SIGTERM mid-run: 130 or 143, the message, no temporary file; --resume ends byte-identical")
    func signals() throws {
        #expect(Self.longReference.count == 66)
        try FrameRunChecks.interruptAndResume(
            { Self.arguments($0, transitions: 12) }, reference: Self.longReference, runs: 3, seed: 0x5167_1A75,
            delays: 0.05...2)
    }

    @Test("a second SIGINT ends the run at once, still without a temporary file")
    func secondInterrupt() throws {
        // Two SIGINTs 10 ms apart, once the first frame is on disk (then once the third is): frames are in flight.
        for after in [1, 3] {
            try TemporaryFolder.with("resume-twice") { folder in
                let path = folder.path
                let result = try CommandRunner.run(
                    Self.arguments(folder, viewport: "1600x1200", transitions: 8), timeout: 120,
                    signalWhen: (
                        [SIGINT, SIGINT],
                        {
                            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                                $0.hasPrefix("frame-")
                            }.count >= after
                        }
                    ))
                #expect(result.status == 130, "\(result)")
                let (frames, temporaries) = try FrameFolder.contents(folder)
                #expect(temporaries.isEmpty, "\(temporaries)")
                #expect(frames.count >= after && frames.count < 46, "\(frames.count) frames")
            }
        }
    }

    /// Kills per run of the test: 24, one in each 24th of the time an uninterrupted run takes, so every stage of the
    /// run is hit; `CRASH_RUNS=100` in the environment asks for more, spread likewise.
    static let crashRuns = ProcessInfo.processInfo.environment["CRASH_RUNS"].flatMap { Int($0) } ?? 24

    @Test("kill -9 at moments spread over the run, then --resume: always byte-identical, only whole frames before")
    func crashConsistency() throws {
        var random = SplitMix64(seed: 0xC4A5_4909)
        // Three pages, two moves, two eased frames between pages: 7 frames.
        let short = { (folder: URL) in Self.arguments(folder, moves: "next,next") }
        let clock = ContinuousClock()
        // The time of an uninterrupted run: the faster of two, since the first run after a build pays for loading
        // the binary from disk, and kills timed by it landed after the end of most runs on a busy machine.
        var took = Duration.zero
        var small: [String: Data] = [:]
        for attempt in 0..<2 {
            small = try TemporaryFolder.with("crash-reference") { folder -> [String: Data] in
                let start = clock.now
                #expect(try CommandRunner.run(short(folder)).status == 0)
                let elapsed = clock.now - start
                took = attempt == 0 ? elapsed : min(took, elapsed)
                return try FrameFolder.contents(folder).frames
            }
        }
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) * 1e-18
        #expect(small.count == 7)
        let runs = Self.crashRuns
        var cut = 0
        for run in 0..<runs {
            try TemporaryFolder.with("crash") { folder in
                // A random moment within the run's own slice of the time an uninterrupted run takes.
                let delay = seconds * (Double(run) + random.uniform(0, 1)) / Double(runs)
                let killed = try CommandRunner.run(short(folder), timeout: 60, signals: [(delay, SIGKILL)])
                let (frames, _) = try FrameFolder.contents(folder)
                if frames.count < small.count { cut += 1 }
                for (name, bytes) in frames { #expect(small[name] == bytes, "run \(run): \(name) is whole") }
                let resumed = try CommandRunner.run(short(folder) + ["--resume"], timeout: 60)
                #expect(resumed.status == 0, "\(resumed)")
                let after = try FrameFolder.contents(folder)
                #expect(after.frames == small, "run \(run): killed after \(delay) s (status \(killed.status))")
                #expect(after.temporaries.isEmpty, "a resumed run removes what the killed one left")
            }
        }
        // Most kills land inside the run (the last slices may come after its end).
        #expect(cut >= runs / 4, "only \(cut) of \(runs) kills cut the run short (an uninterrupted run: \(took))")
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
            #expect(try FrameFolder.contents(folder).frames == Self.reference)
            // Another job (other moves) reuses nothing.
            let other = try CommandRunner.run(Self.arguments(folder, moves: "next,prev,next,next,prev") + ["--resume"])
            #expect(other.status == 0 && other.stdout.contains("16 frames, 0 reused"), "\(other)")
        }
    }

    @Test("frames a longer earlier run left: a warning with the count, and --clean removes them")
    func staleFrames() throws {
        try FrameRunChecks.staleFrames(
            "stale", longer: { Self.arguments($0) }, shorter: { Self.arguments($0, moves: "next,next") }, left: 9,
            range: "frame-0007.png to frame-0015.png", kept: 7)
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
            let expected = try FrameFolder.contents(whole).frames
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
            #expect(try FrameFolder.contents(slurm).frames == expected)
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
            #expect(try FrameFolder.contents(kubernetes).frames == expected)
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
@Suite("Batch recipes on Slurm and Kubernetes", .tags(.external))
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
