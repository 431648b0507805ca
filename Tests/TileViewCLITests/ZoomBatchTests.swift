import Foundation
import Testing
import TileViewTestSupport

/// `tileview zoom FILE... -o OUTDIR` and `--dir` (docs/design.md section 13): one frame per file, byte for byte what a
/// single `tileview zoom` writes; bad files reported while the batch goes on; shards; interrupt and resume;
/// memory that does not grow with the number of files.
@Suite("tileview zoom batches", .serialized)
struct ZoomBatchTests {
    static let photos = [
        "astronaut.png", "chelsea.png", "coffee.png", "hubble_deep_field.jpg", "retina.jpg", "rocket.jpg",
    ]
    static let gesture = ["--viewport", "320x240", "--tap", "120,80", "--gesture", "pan -20,10"]

    static func frames(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            out[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return out
    }

    @Test("every frame of a batch is the file a single zoom writes; --json has a record per file")
    func batchEqualsSingles() throws {
        try TemporaryFolder.with("zoom-batch") { dir in
            let paths = Self.photos.map { Fixtures.sampleImages.appendingPathComponent($0).path }
            let out = dir.appendingPathComponent("out")
            let batch = try CommandRunner.run(["zoom"] + paths + Self.gesture + ["-o", out.path, "--json"])
            #expect(batch.status == 0, "\(batch)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [String: Any])
            let records = try #require(report["files"] as? [[String: Any]])
            #expect(records.count == 6)
            let summary = try #require(report["summary"] as? [String: Any])
            #expect(summary["written"] as? Int == 6 && summary["failed"] as? Int == 0)
            for (path, record) in zip(paths, records) {
                let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".png"
                let single = dir.appendingPathComponent("single-" + name)
                let one = try CommandRunner.run(["zoom", path] + Self.gesture + ["-o", single.path, "--json"])
                #expect(one.status == 0)
                #expect(try Data(contentsOf: single) == Data(contentsOf: out.appendingPathComponent(name)), "\(name)")
                let state = try #require(
                    try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
                #expect(record["file"] as? String == path)
                #expect(record["output"] as? String == out.appendingPathComponent(name).path)
                for key in ["zoomScale", "contentOffset", "imageFrame", "visibleRect", "level"] {
                    #expect(
                        (record[key] as? NSObject)?.isEqual(state[key]) == true, "\(name) \(key)")
                }
            }
            let byFolder = try CommandRunner.run(
                ["zoom", "--dir", Fixtures.sampleImages.path] + Self.gesture + [
                    "-o", dir.appendingPathComponent("d").path,
                ])
            #expect(byFolder.status == 0 && byFolder.stdout.contains(": 6 frames"), "\(byFolder)")
            #expect(try Self.frames(dir.appendingPathComponent("d")) == Self.frames(out))
        }
    }

    @Test("two files with one NAME, --frames, or no -o in a batch: usage errors before anything is written")
    func usage() throws {
        try TemporaryFolder.with("zoom-usage") { dir in
            let a = Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path
            let b = dir.appendingPathComponent("rocket.png")
            try FileManager.default.copyItem(at: Fixtures.sampleImages.appendingPathComponent("coffee.png"), to: b)
            let out = dir.appendingPathComponent("out")
            let clash = try CommandRunner.run(["zoom", a, b.path, "-o", out.path])
            #expect(clash.status == 64 && clash.stderr.contains("would both be written as rocket.png"), "\(clash)")
            #expect(try CommandRunner.run(["zoom", a, b.path]).status == 64)
            #expect(try CommandRunner.run(["zoom", a, "--dir", dir.path, "-o", out.path]).status == 64)
            #expect(try CommandRunner.run(["zoom", a, a + "x", "--frames", "f", "-o", out.path]).status == 64)
            #expect(try CommandRunner.run(["zoom", a, "--resume"]).status == 64)
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test("a file that cannot be decoded is reported and the batch goes on: exit 1, every other frame written")
    func badFile() throws {
        try TemporaryFolder.with("zoom-bad") { dir in
            let broken = dir.appendingPathComponent("broken.jpg")
            try FileManager.default.copyItem(
                at: Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg"), to: broken)
            let files = [
                Fixtures.sampleImages.appendingPathComponent("rocket.jpg").path, broken.path,
                Fixtures.sampleImages.appendingPathComponent("coffee.png").path,
            ]
            let out = dir.appendingPathComponent("out")
            let result = try CommandRunner.run(["zoom"] + files + Self.gesture + ["-o", out.path, "--json"])
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("broken.jpg") && result.stderr.contains("1 of 3 files could not be zoomed"))
            #expect(Set(try Self.frames(out).keys) == ["rocket.png", "coffee.png"])
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let records = try #require(report["files"] as? [[String: Any]])
            #expect(records[1]["file"] as? String == broken.path && records[1]["error"] is String)
        }
    }

    @Test("shards 0/3, 1/3 and 2/3 together write exactly the whole batch")
    func shards() throws {
        try TemporaryFolder.with("zoom-shards") { dir in
            let paths = Self.photos.map { Fixtures.sampleImages.appendingPathComponent($0).path }
            let whole = dir.appendingPathComponent("whole")
            #expect(try CommandRunner.run(["zoom"] + paths + Self.gesture + ["-o", whole.path]).status == 0)
            let shared = dir.appendingPathComponent("shared")
            for k in 0..<3 {
                let run = try CommandRunner.run(
                    ["zoom"] + paths + Self.gesture + ["-o", shared.path, "--shard", "\(k)/3"])
                #expect(run.status == 0 && run.stdout.contains(": 2 frames"), "\(run)")
            }
            #expect(try Self.frames(shared) == Self.frames(whole))
        }
    }

    @Test("SIGINT or SIGTERM mid-batch: 130 or 143, no temporary file; --resume ends byte-identical")
    func interruptAndResume() throws {
        let small = ["--viewport", "160x120", "--tap", "60,40"]
        try TemporaryFolder.with("zoom-resume") { dir in
            // 24 files: the sample photos four times over, under their own names.
            let inputs = dir.appendingPathComponent("in")
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            for copy in 0..<4 {
                for photo in Self.photos {
                    try FileManager.default.copyItem(
                        at: Fixtures.sampleImages.appendingPathComponent(photo),
                        to: inputs.appendingPathComponent("\(copy)-\(photo)"))
                }
            }
            let reference = dir.appendingPathComponent("reference")
            #expect(
                try CommandRunner.run(["zoom", "--dir", inputs.path] + small + ["-o", reference.path]).status
                    == 0)
            let expected = try Self.frames(reference)
            #expect(expected.count == 24)
            for run in 0..<2 {
                let out = dir.appendingPathComponent("out\(run)")
                let signal = run % 2 == 0 ? SIGINT : SIGTERM
                // Signalled once the first (then the third) frame is on disk: the batch is mid-way.
                let path = out.path
                let stopped = try CommandRunner.run(
                    ["zoom", "--dir", inputs.path] + small + ["-o", out.path], timeout: 120,
                    signalWhen: (
                        [signal],
                        {
                            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                                $0.hasSuffix(".png") && !$0.hasPrefix(".")
                            }.count > run * 2
                        }
                    ))
                #expect(stopped.status == 128 + signal, "\(stopped)")
                let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
                #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
                let written = try Self.frames(out).count
                let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
                #expect(written < 24, "\(written) files")
                #expect(
                    stopped.stderr.contains("stopped by \(name) after \(written) of 24 files; rerun with --resume"),
                    "\(stopped)")
                let resumed = try CommandRunner.run(
                    ["zoom", "--dir", inputs.path] + small + ["-o", out.path, "--resume"], timeout: 120)
                #expect(resumed.status == 0 && resumed.stdout.contains("reused"), "\(resumed)")
                #expect(try Self.frames(out) == expected, "run \(run)")
            }
        }
    }

    @Test("memory does not grow with the count: 1,000 files peak within 10% of 100 files")
    func flatMemory() throws {
        try TemporaryFolder.with("zoom-many") { dir in
            func peak(_ count: Int) throws -> Int {
                let inputs = dir.appendingPathComponent("in\(count)")
                try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
                let names = (0..<count).map { String(format: "p%04d.png", $0) }
                _ = try TestPages.write(names, into: inputs, width: 32, height: 24)
                let result = try CommandRunner.run(
                    [
                        "zoom", "--dir", inputs.path, "--viewport", "64x48", "-o",
                        dir.appendingPathComponent("o\(count)").path,
                        "--json",
                    ])
                #expect(result.status == 0)
                let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                let summary = report?["summary"] as? [String: Any]
                #expect(summary?["written"] as? Int == count)
                return summary?["peakRSSBytes"] as? Int ?? 0
            }
            let small = try peak(100)
            let large = try peak(1000)
            #expect(small > 0 && Double(large) <= Double(small) * 1.10, "peak RSS \(small) vs \(large) bytes")
        }
    }
}
