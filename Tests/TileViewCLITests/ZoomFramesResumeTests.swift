import Foundation
import Testing
import TileViewTestSupport

/// `zoom --frames` as a run of numbered frames (docs/design.md section 13): SIGINT and SIGTERM stop it between frames
/// with no temporary file, `--resume` finishes it byte for byte as an uninterrupted run, and frames a longer earlier
/// run left are reported and removed with `--clean`.
@Suite("Zoom frames: interrupt and resume", .serialized)
struct ZoomFramesResumeTests {
    /// Two animated double taps and a fling on a sample photo at `fps` (31 frames at 10 fps, about 0.12 s in a debug
    /// build); the final frame goes beside the numbered ones.
    static func arguments(_ frames: URL, fling: Bool = true, fps: Int = 10) -> [String] {
        [
            "zoom", Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path, "--viewport", "240x180",
            "--tap", "120,90", "--tap", "60,40",
        ]
            + (fling ? ["--gesture", "pan 100,0 velocity 1,0"] : [])
            + [
                "--animate", "--fps", "\(fps)", "--frames", frames.path, "-o",
                frames.appendingPathComponent("final.png").path,
            ]
    }

    static let reference = FrameRunChecks.referenceFrames("zoom-frames-reference") { arguments($0) }

    /// The run the signals interrupt: the same motion at 60 fps, 176 frames, so that a signal sent when the first
    /// frame is on disk meets a run still under way on a loaded machine.
    static let longReference = FrameRunChecks.referenceFrames("zoom-frames-reference-long") { arguments($0, fps: 60) }

    @Test("SIGINT or SIGTERM mid-run: 130 or 143, no temporary file; --resume ends byte-identical")
    func signals() throws {
        #expect(Self.longReference.count == 176)
        try FrameRunChecks.interruptAndResume(
            { Self.arguments($0, fps: 60) }, reference: Self.longReference, runs: 2, seed: 0x200F_4A3E,
            delays: 0.1...3, countsReuse: false)
    }

    @Test("fewer frames into the folder: a warning with the count, --clean removes them; --resume needs --frames")
    func staleFrames() throws {
        try TemporaryFolder.with("zoom-frames-stale") { folder in
            #expect(try CommandRunner.run(Self.arguments(folder)).status == 0)
            let count = Self.reference.count
            let shorter = try CommandRunner.run(Self.arguments(folder, fling: false))
            #expect(shorter.status == 0)
            let kept = try FrameFolder.contents(folder).frames.count
            #expect(kept == count)
            let short = try TemporaryFolder.with("zoom-frames-short") { other in
                #expect(try CommandRunner.run(Self.arguments(other, fling: false)).status == 0)
                return try FrameFolder.contents(other).frames.count
            }
            #expect(short > 0 && short < count)
            #expect(
                shorter.stderr.contains("holds \(count - short) frames this run does not write"), "\(shorter.stderr)")
            let cleaned = try CommandRunner.run(Self.arguments(folder, fling: false) + ["--clean"])
            #expect(cleaned.status == 0 && cleaned.stderr.contains("removed \(count - short) frames"), "\(cleaned)")
            #expect(try FrameFolder.contents(folder).frames.count == short)
        }
        let usage = try CommandRunner.run([
            "zoom", Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path, "--resume",
        ])
        #expect(usage.status == 64 && usage.stderr.contains("--resume and --clean apply to --frames"), "\(usage)")
    }
}
