import Foundation
import Testing
import TileViewTestSupport

/// The checks every run of numbered frames shares (DESIGN section 13): interrupted by SIGINT or SIGTERM at random
/// moments, it exits 130 or 143 (or finishes first) saying how far it got, leaves no temporary file and only whole
/// frames, and `--resume` then finishes the folder byte for byte as `reference`, an uninterrupted run, left it.
enum FrameRunChecks {
    /// `runs` interrupted runs of `arguments(folder)`, each signalled after a delay drawn from `delays`.
    /// `countsReuse`: the resumed run prints "N frames, M reused" (zoom `--frames` prints no count).
    static func interruptAndResume(
        _ arguments: (URL) -> [String], reference: [String: Data], runs: Int, seed: UInt64,
        delays: ClosedRange<Double>, countsReuse: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var random = SplitMix64(seed: seed)
        let total = reference.count
        for run in 0..<runs {
            try TemporaryFolder.with("interrupted") { folder in
                let signal = run % 2 == 0 ? SIGINT : SIGTERM
                let delay = random.uniform(delays.lowerBound, delays.upperBound)
                let stopped = try CommandRunner.run(arguments(folder), timeout: 120, signals: [(delay, signal)])
                let (frames, temporaries) = try GalleryResumeTests.contents(folder)
                #expect(temporaries.isEmpty, "run \(run): \(temporaries)", sourceLocation: sourceLocation)
                // A signal before the handlers are installed ends the process as the signal's default does.
                #expect(
                    [0, 128 + signal].contains(stopped.status), "run \(run): \(stopped)", sourceLocation: sourceLocation
                )
                if stopped.status != 0 && stopped.stderr.contains("stopped by") {
                    let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
                    #expect(
                        stopped.stderr.contains(
                            "stopped by \(name) after \(frames.count) of \(total) frames; rerun with --resume"),
                        "run \(run): \(stopped.stderr), \(frames.count) frames on disk", sourceLocation: sourceLocation)
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
                    try GalleryResumeTests.contents(folder).frames == reference,
                    "run \(run) resumed after a signal at \(delay) s", sourceLocation: sourceLocation)
            }
        }
    }
}
