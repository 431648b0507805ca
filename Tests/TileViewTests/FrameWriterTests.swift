import Foundation
import Testing
import TileView
import TileViewCore
import TileViewTestSupport

/// The frame writer and what earlier runs left behind.
@Suite("Frame writer")
struct FrameWriterTests {
    @Test(
        "a killed run's temporary files are removed as this run writes the same frames; others' are left",
        arguments: [0, 2])
    func staleTemporaries(maxInFlight: Int) throws {
        try TemporaryFolder.with("frames") { dir in
            let fm = FileManager.default
            let left = [
                ".frame-0001.png.tmp-abc123", ".frame-0001.png.tmp-Zz9Yy8", ".frame-0003.png.tmp-qwerty",
                ".notes.txt.tmp-123456", ".frame-0002.png.tmp-short", "frame-0001.png",
            ]
            for name in left {
                #expect(fm.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([1, 2])))
            }
            let writer = try FrameWriter(folder: dir.path, maxInFlight: maxInFlight)
            let frame = ImageBuffer(width: 4, height: 3)
            for index in 0..<3 { try writer.submit(frame, index: index) }
            try writer.finish()
            let now = Set(try fm.contentsOfDirectory(atPath: dir.path))
            #expect(!now.contains(".frame-0001.png.tmp-abc123") && !now.contains(".frame-0001.png.tmp-Zz9Yy8"))
            // Frame 3 is not this run's (a shard's sibling may be writing it); the others are not frames' files.
            #expect(now.contains(".frame-0003.png.tmp-qwerty"))
            #expect(now.contains(".notes.txt.tmp-123456") && now.contains(".frame-0002.png.tmp-short"))
            #expect(now.isSuperset(of: ["frame-0000.png", "frame-0001.png", "frame-0002.png"]))
            #expect(try Data(contentsOf: dir.appendingPathComponent("frame-0001.png")).count > 2, "rewritten")
        }
    }

    @Test("temporary files are found by the name of the file they were for")
    func temporariesByName() throws {
        try TemporaryFolder.with("temps") { dir in
            for name in [".a.png.tmp-123456", ".a.png.tmp-abcdef", ".b.tmp-ZZZZZZ", ".tmp-123456", "c.png.tmp-123456"] {
                #expect(FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil))
            }
            let found = AtomicFile.temporaries(in: dir.path).mapValues { Set($0) }
            #expect(found == ["a.png": [".a.png.tmp-123456", ".a.png.tmp-abcdef"], "b": [".b.tmp-ZZZZZZ"]])
        }
    }

    @Test("a file written over a folder is refused naming the folder, and nothing is left beside it")
    func writeOverAFolder() throws {
        try TemporaryFolder.with("atomic") { dir in
            let folder = dir.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect {
                try AtomicFile.write([1, 2, 3], to: folder.path)
            } throws: { error in
                "\(error)".contains(folder.path) && "\(error)".contains("is a folder: name the file to write")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out"])
        }
    }
}
