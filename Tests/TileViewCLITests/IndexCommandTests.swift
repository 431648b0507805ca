import Foundation
import Testing
import TileViewCodecs
import TileViewTestSupport

/// `tileview index` (docs/design.md section 16) as a user runs it, and a server started after it reading its cache.
@Suite("tileview index", .serialized)
struct IndexCommandTests {
    /// A root of three images, one in a sub-folder, a hidden one and a link (both left out).
    static func makeRoot(_ dir: URL) throws -> URL {
        let root = dir.appendingPathComponent("root")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("albums"), withIntermediateDirectories: true)
        for (source, name) in [
            ("rocket.jpg", "rocket.jpg"), ("coffee.png", "albums/coffee.png"), ("chelsea.png", "chelsea.png"),
            ("rocket.jpg", ".hidden.jpg"),
        ] {
            try fm.copyItem(
                at: Fixtures.sampleImages.appendingPathComponent(source), to: root.appendingPathComponent(name))
        }
        try fm.createSymbolicLink(
            at: root.appendingPathComponent("link.jpg"), withDestinationURL: root.appendingPathComponent("rocket.jpg"))
        return root
    }

    /// The entries in the cache folder.
    static func entries(_ cache: URL) -> Int {
        let files = FileManager.default.enumerator(atPath: cache.path + "/levels")?.allObjects as? [String] ?? []
        return files.filter { $0.hasSuffix(".levels") }.count
    }

    @Test("writes one entry per image under the folder; a second run finds them there and writes nothing")
    func indexAndResume() throws {
        try TemporaryFolder.with("index") { dir in
            let root = try Self.makeRoot(dir)
            let cache = dir.appendingPathComponent("cache")
            let first = try CommandRunner.run(["index", root.path, "--cache-dir", cache.path])
            #expect(first.status == 0, "\(first)")
            #expect(first.stdout.hasPrefix("\(cache.path): 3 images indexed, 0 already there, 0 failed; "), "\(first)")
            #expect(first.stdout.contains(" ms per megapixel indexed"), "\(first)")
            #expect(Self.entries(cache) == 3)
            let again = try CommandRunner.run(["index", root.path, "--cache-dir", cache.path])
            #expect(again.status == 0 && again.stdout == "\(cache.path): 0 images indexed, 3 already there, 0 failed\n")
            // A file changed since is indexed again (its identity is new); the old entry stays until evicted.
            let coffee = root.appendingPathComponent("albums/coffee.png")
            try Data(try Fixtures.bytes(coffee)).write(to: coffee)
            let changed = try CommandRunner.run(["index", root.path, "--cache-dir", cache.path])
            #expect(changed.stdout.hasPrefix("\(cache.path): 1 image indexed, 2 already there"), "\(changed)")
        }
    }

    @Test("shards K/N together index every image once; a damaged image is named and makes the exit status 1")
    func shardsAndFailures() throws {
        try TemporaryFolder.with("index-shards") { dir in
            let root = try Self.makeRoot(dir)
            try FileManager.default.copyItem(
                at: Fixtures.corpusRoot.appendingPathComponent("bad/gen_corrupt_huffman_data.jpg"),
                to: root.appendingPathComponent("broken.jpg"))
            let cache = dir.appendingPathComponent("cache")
            var counts: [Int] = []
            var failed = 0
            for shard in ["0/2", "1/2"] {
                let run = try CommandRunner.run(["index", root.path, "--cache-dir", cache.path, "--shard", shard])
                let words = run.stdout.split(separator: " ")
                counts.append(Int(words[1]) ?? -1)
                if run.stdout.contains(" 1 failed") {
                    failed += 1
                    #expect(run.status == 1 && run.stderr.contains("broken.jpg"), "\(run)")
                } else {
                    #expect(run.status == 0, "\(run)")
                }
                #expect(run.stdout.contains("(shard \(shard))"), "\(run)")
            }
            #expect(counts.reduce(0, +) == 3 && failed == 1, "\(counts)")
            #expect(Self.entries(cache) == 3)
        }
    }

    @Test(
        "--max-memory: an image whose coarse levels need more is named with its plan, before any decode; enough indexes it"
    )
    func memoryPlan() throws {
        try TemporaryFolder.with("index-memory") { dir in
            // 1000 x 872, so every level is coarse: 4.6 MB of levels, and the decoder's rows.
            let image = Fixtures.sampleImages.appendingPathComponent("hubble_deep_field.jpg").path
            let cache = dir.appendingPathComponent("cache")
            let refused = try CommandRunner.run(["index", image, "--cache-dir", cache.path, "--max-memory", "4"])
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.stdout.hasPrefix("\(cache.path): 0 images indexed, 0 already there, 1 failed"), "\(refused)")
            #expect(refused.stderr.contains("hubble_deep_field.jpg: its coarse levels need about 4."), "\(refused)")
            #expect(refused.stderr.contains("over the memory limit of 4.0 MiB (--max-memory MiB raises it)"))
            #expect(Self.entries(cache) == 0)
            let indexed = try CommandRunner.run(["index", image, "--cache-dir", cache.path, "--max-memory", "6"])
            #expect(indexed.status == 0 && indexed.stdout.contains(" 1 image indexed"), "\(indexed)")
            #expect(Self.entries(cache) == 1)
        }
    }

    @Test("a server pinned to one processor runs one render at a time and keeps its mosaic and frame for the next")
    func pinnedServer() throws {
        try TemporaryFolder.with("pinned-serve") { dir in
            let root = try Self.makeRoot(dir)
            try ServeCommandTests.withServer(
                ["-c", "0", CommandRunner.executable.path, "serve", root.path, "--cache-dir", "none"],
                through: URL(fileURLWithPath: "/usr/bin/taskset")
            ) { base in
                let before = try ServeCommandTests.metrics(base)
                #expect(before.contains("\ntileview_processors 1\n"), "\(before)")
                #expect(before.contains("\ntileview_render_threads 1\n"), "\(before)")
                #expect(before.contains("\ntileview_render_blocks_kept_bytes 0\n"), "\(before)")
                for region in ["1,1,300,300", "3,2,300,300", "5,3,300,300", "7,4,300,300"] {
                    let answer = try ServeCommandTests.get(base + "/iiif/3/rocket.jpg/\(region)/256,/0/default.jpg")
                    #expect(answer.status == 200, "\(region)")
                }
                // The render thread keeps the last frame (256 x 256 RGBA, 262,144 bytes) and the mosaic it was drawn
                // from (about 302 x 302 RGBA): more than the frame alone, less than two threads' blocks.
                let after = try ServeCommandTests.metrics(base)
                let line = after.split(separator: "\n").first { $0.hasPrefix("tileview_render_blocks_kept_bytes ") }
                let kept = line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
                #expect(kept > 262_144 && kept < 1_000_000, "\(after)")
            }
        }
    }

    @Test("a server started after `tileview index` answers the first view from the cache, decoding nothing")
    func serverReadsTheIndex() throws {
        try TemporaryFolder.with("index-serve") { dir in
            let root = try Self.makeRoot(dir)
            let cache = dir.appendingPathComponent("cache")
            #expect(try CommandRunner.run(["index", root.path, "--cache-dir", cache.path]).status == 0)
            try ServeCommandTests.withServer(["serve", root.path, "--cache-dir", cache.path, "--index-workers", "0"]) {
                base in
                for tile in [
                    "full/!320,320/0/default.jpg", "0,0,512,427/256,/0/default.jpg", "512,0,128,427/64,/0/default.jpg",
                ] {
                    #expect(try ServeCommandTests.get(base + "/iiif/3/rocket.jpg/\(tile)").status == 200, "\(tile)")
                }
                let metrics = try ServeCommandTests.metrics(base)
                #expect(metrics.contains("tileview_disk_cache_hits_total 1"), "\(metrics)")
                #expect(metrics.contains("tileview_tile_bands_decoded_total 0"), "\(metrics)")
                #expect(metrics.contains("tileview_decoded_bytes_total 0"), "\(metrics)")
            }
        }
    }

    @Test("a --cache-dir that cannot be a folder is said and left out: the server serves on")
    func unusableCacheDir() throws {
        try TemporaryFolder.with("index-bad-cache") { dir in
            let root = try Self.makeRoot(dir)
            let file = dir.appendingPathComponent("not-a-folder")
            try Data([1]).write(to: file)
            let port = 20_000 + Int(getpid() % 20_000) + Int.random(in: 0..<20_000)
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["serve", root.path, "--port", "\(port)", "--cache-dir", file.path]
            let err = Pipe()
            process.standardError = err
            try process.run()
            defer { if process.isRunning { process.terminate() } }
            var status = 0
            for _ in 0..<100 where status != 200 {
                status = try ServeCommandTests.get("http://127.0.0.1:\(port)/iiif/3/rocket.jpg/full/64,/0/default.jpg")
                    .status
                if status != 200 { usleep(100_000) }
            }
            #expect(status == 200)
            process.terminate()
            process.waitUntilExit()
            let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(log.contains("tileview: warning: no disk cache: \(file.path)/levels"), "\(log)")
        }
    }
}
