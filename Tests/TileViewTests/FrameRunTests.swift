import Foundation
import Testing
import TileView
import TileViewTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Every run of numbered frames goes through `FrameRun` (docs/design.md section 13). Here each job is stopped in process,
/// deterministically, as if SIGINT or SIGTERM came after frame k: it throws `.interrupted` saying how far it got,
/// leaves exactly its first k frames (each whole, byte for byte the uninterrupted run's) and no temporary file, and
/// a resumed run keeps those k and finishes the folder as the uninterrupted run left it.
@Suite("Frame runs: a deterministic stop after frame k, then resume")
struct FrameRunTests {
    /// One job: runs into `folder` with `stop`, resuming or not; returns the files this run wrote and reused.
    typealias Job = (_ folder: String, _ stop: FrameRunStop, _ resume: Bool) throws -> (written: Int, reused: Int)

    /// Runs `job` whole for the reference, then, for each k in `stops`, stopped after k frames and resumed.
    static func check(_ label: String, unit: String = "frames", stops: [Int], _ job: Job) throws {
        let reference = try TemporaryFolder.with(label + "-reference") { folder in
            let done = try job(folder.path, .onSignals, false)
            #expect(done.reused == 0)
            return try FrameFolder.contents(folder, allPNGs: true).frames
        }
        let total = reference.count
        #expect(total > stops.max() ?? 0, "\(label): \(total) frames")
        for (n, k) in stops.enumerated() {
            let signal = n % 2 == 0 ? SIGINT : SIGTERM
            try TemporaryFolder.with(label + "-stopped") { folder in
                do {
                    _ = try job(folder.path, .after(frames: k, signal: signal), false)
                    Issue.record("\(label): the run was not stopped after \(k) \(unit)")
                } catch let error as TileViewError {
                    #expect(error.kind == .interrupted, "\(label): \(error)")
                    let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
                    #expect(
                        error.description.contains(
                            "stopped by \(name) after \(k) of \(total) \(unit); rerun with --resume"),
                        "\(label): \(error)")
                }
                let (frames, temporaries) = try FrameFolder.contents(folder, allPNGs: true)
                #expect(temporaries.isEmpty, "\(label): \(temporaries)")
                #expect(frames.count == k, "\(label) stopped after \(k): \(frames.keys.sorted())")
                for (name, bytes) in frames { #expect(reference[name] == bytes, "\(label): \(name) is whole") }
                // A stopped run that is resumed keeps the k frames and writes the rest.
                let resumed = try job(folder.path, .onSignals, true)
                #expect(resumed.reused == k && resumed.written == total - k, "\(label) resumed after \(k): \(resumed)")
                #expect(
                    try FrameFolder.contents(folder, allPNGs: true).frames == reference, "\(label) resumed after \(k)")
                // Resumed once more, everything is kept.
                let again = try job(folder.path, .onSignals, true)
                #expect(again.reused == total && again.written == 0, "\(label) resumed twice: \(again)")
            }
        }
    }

    static let rocket = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
    static let viewport = PixelSize(width: 160, height: 120)

    @Test("zoom frames: an animated double tap and a fling")
    func zoomFrames() throws {
        try Self.check("zoom", stops: [0, 1, 7]) { folder, stop, resume in
            var job = ZoomJob(
                file: Self.rocket, view: ViewSettings(viewport: Self.viewport, maximumScale: 4),
                gestures: [
                    .doubleTap(viewportPoint: Point(x: 80, y: 60)),
                    .fling(viewportDelta: Point(x: 60, y: 0), velocity: Point(x: 1, y: 0)),
                ],
                framesFolder: folder, animate: true, framesPerSecond: 10)
            job.stop = stop
            job.resume = resume
            let result = try job.run()
            let reused = result.framesOutput?.reusedNames.count ?? 0
            return (result.framePaths.count - reused, reused)
        }
    }

    @Test("a zoom batch: one file per frame")
    func zoomBatch() throws {
        let files = ["rocket.jpg", "coffee.png", "chelsea.png", "astronaut.png"].map {
            Fixtures.sampleImages.appendingPathComponent($0).path
        }
        try Self.check("batch", unit: "files", stops: [0, 2]) { folder, stop, resume in
            var batch = ZoomBatch(
                files: files, outputFolder: folder, view: ViewSettings(viewport: Self.viewport), resume: resume)
            batch.stop = stop
            let summary = try batch.run()
            return (summary.written, summary.reused ?? 0)
        }
    }

    @Test("a gallery: pages, transitions, a double tap")
    func gallery() throws {
        try Self.check("gallery", stops: [0, 3]) { folder, stop, resume in
            let pages = try GalleryPages.reading(folder: Fixtures.sampleImages.path, circular: false)
            let job = GalleryJob(
                pages: pages, settings: GallerySettings(viewport: Self.viewport, transitionFrames: 2),
                script: GalleryScript(
                    actions: try ["next", "double-tap 80,60", "next"].map { try GalleryAction(parsing: $0) }))
            let result = try job.run(into: folder, resume: resume, stop: stop)
            return (result.summary.frames, result.summary.reused ?? 0)
        }
    }

    @Test("a feed: a header and a photo scrolled")
    func feed() throws {
        try Self.check("feed", stops: [0, 2]) { folder, stop, resume in
            var job = FeedJob(
                sections: [
                    try FeedSectionSpec(parsing: "header:40:1E90FF"),
                    try FeedSectionSpec(parsing: "image:" + Self.rocket),
                ],
                viewportSize: Self.viewport, offsets: OffsetRange(from: 0, to: 100, step: 20), outputDirectory: folder)
            job.stop = stop
            job.resume = resume
            let result = try job.run()
            return (result.report.summary.frames, result.report.summary.reused ?? 0)
        }
    }
    @Test("an index run: stopped after image k it keeps k images' entries; run again, it indexes the rest")
    func index() throws {
        try TemporaryFolder.with("index-run") { folder in
            let files = ["rocket.jpg", "coffee.png", "chelsea.png"].map {
                Fixtures.sampleImages.appendingPathComponent($0).path
            }
            let store = try CoarseLevelStore(folder: folder.appendingPathComponent("cache").path, budgetBytes: 64 << 20)
            var job = IndexJob(files: files, store: store, options: DecodeOptions())
            job.stop = .after(frames: 1, signal: SIGTERM)
            do throws(TileViewError) {
                _ = try job.run(report: { _ in }, warn: { _ in })
                Issue.record("the run was not stopped")
            } catch {
                #expect(error.kind == .interrupted && error.path == store.folder)
                #expect(error.reason == "stopped by SIGTERM after 1 of 3 images; run it again to carry on")
            }
            let entries = { CacheFiles.entries(under: store.folder + "/levels", suffix: ".levels").count }
            #expect(entries() == 1, "one image's levels, written whole")
            job.stop = .onSignals
            var events: [String] = []
            let summary = try job.run(report: { events.append("\($0)") }, warn: { _ in })
            #expect(summary.indexed == 2 && summary.present == 1 && summary.failed == 0, "\(summary)")
            #expect(events.count == 3 && entries() == 3, "\(events)")
        }
    }
}
