import Foundation
import Testing
import TileViewTestSupport

/// The checks every run of numbered frames shares, on the binary (docs/design.md section 13; `FrameRunTests` stops each
/// job in process after frame k): interrupted by SIGINT or SIGTERM, it exits 130 or 143 saying how far it got, leaves
/// no temporary file and only whole frames, and `--resume` then finishes the folder byte for byte as `reference`,
/// an uninterrupted run, left it. Even runs are signalled as soon as their first frame is on disk, so each of
/// them must have been interrupted; odd runs after a random delay drawn from `delays`, which may come after the
/// run finished (exit 0) or, on a loaded machine, before the handlers are installed (the process then ends as
/// the signal's default does, before any frame), but never leaves it any other way.
enum FrameRunChecks {
    /// The frames of an uninterrupted run of `arguments(folder)`, in a folder named after `label` that is removed
    /// when the tests exit: the `reference` the other checks compare with.
    static func referenceFrames(_ label: String, _ arguments: (URL) -> [String]) -> [String: Data] {
        let folder = try! TemporaryFolder.untilExit(label)
        let result = try! CommandRunner.run(arguments(folder))
        precondition(result.status == 0, "\(result)")
        return try! FrameFolder.contents(folder).frames
    }

    /// Runs `longer(folder)`, then `shorter(folder)` (a run with fewer frames) into a temporary folder named after
    /// `label`: the second warns that the `left` frames `range` (`frame-A.png to frame-B.png`) were left by an
    /// earlier run and removes nothing; the same run with `--clean` removes them, and `kept` frames stay.
    static func staleFrames(
        _ label: String, longer: (URL) -> [String], shorter: (URL) -> [String], left: Int, range: String, kept: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try TemporaryFolder.with(label) { folder in
            #expect(try CommandRunner.run(longer(folder)).status == 0, sourceLocation: sourceLocation)
            let warned = try CommandRunner.run(shorter(folder))
            #expect(warned.status == 0, sourceLocation: sourceLocation)
            #expect(
                warned.stderr.contains(
                    "holds \(left) frames this run does not write (\(range)), left by an earlier run; "
                        + "--clean removes them"), "\(warned.stderr)", sourceLocation: sourceLocation)
            #expect(
                try FrameFolder.contents(folder).frames.count == left + kept, "nothing is removed without --clean",
                sourceLocation: sourceLocation)
            let cleaned = try CommandRunner.run(shorter(folder) + ["--clean"])
            #expect(
                cleaned.status == 0 && cleaned.stderr.contains("removed \(left) frames"), "\(cleaned)",
                sourceLocation: sourceLocation)
            #expect(try FrameFolder.contents(folder).frames.count == kept, sourceLocation: sourceLocation)
        }
    }

    /// `runs` interrupted runs of `arguments(folder)`.
    /// `countsReuse`: the resumed run prints "N frames, M reused" (zoom `--frames` prints no count).
    static func interruptAndResume(
        _ arguments: (URL) -> [String], reference: [String: Data], runs: Int, seed: UInt64,
        delays: ClosedRange<Double>, countsReuse: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var random = SplitMix64(seed: seed)
        let total = reference.count
        for run in 0..<runs {
            try TemporaryFolder.with("interrupted") { folder in
                let signal = [SIGINT, SIGTERM, SIGTERM, SIGINT][run % 4]
                let delay = random.uniform(delays.lowerBound, delays.upperBound)
                let triggered = run % 2 == 0
                let path = folder.path
                let stopped = try CommandRunner.run(
                    arguments(folder), timeout: 120, signals: triggered ? [] : [(delay, signal)],
                    signalWhen: triggered
                        ? (
                            [signal],
                            {
                                ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).contains {
                                    $0.hasPrefix("frame-")
                                }
                            }
                        )
                        : nil)
                let (frames, temporaries) = try FrameFolder.contents(folder)
                #expect(temporaries.isEmpty, "run \(run): \(temporaries)", sourceLocation: sourceLocation)
                let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
                let message = "stopped by \(name) after \(frames.count) of \(total) frames; rerun with --resume"
                // A signal before the handlers are installed ends the process as the signal's default does (the
                // status is the signal's number), before any frame.
                let early = !triggered && stopped.status == signal && frames.isEmpty
                if triggered || (stopped.status != 0 && !early) {
                    #expect(stopped.status == 128 + signal, "run \(run): \(stopped)", sourceLocation: sourceLocation)
                    #expect(
                        stopped.stderr.contains(message),
                        "run \(run): \(stopped.stderr), \(frames.count) frames on disk",
                        sourceLocation: sourceLocation)
                    #expect(frames.count < total, "run \(run) was not cut short", sourceLocation: sourceLocation)
                }
                for (name, bytes) in frames {
                    #expect(reference[name] == bytes, "run \(run): \(name) is whole", sourceLocation: sourceLocation)
                }
                let resumed = try CommandRunner.run(arguments(folder) + ["--resume"], timeout: 120)
                #expect(resumed.status == 0, "\(resumed)", sourceLocation: sourceLocation)
                if countsReuse {
                    let left = total - frames.count
                    #expect(
                        resumed.stdout.contains("\(left) frame\(left == 1 ? "" : "s"), \(frames.count) reused"),
                        "\(resumed)", sourceLocation: sourceLocation)
                }
                #expect(
                    try FrameFolder.contents(folder).frames == reference,
                    "run \(run) resumed after a signal at \(delay) s", sourceLocation: sourceLocation)
            }
        }
    }
}
