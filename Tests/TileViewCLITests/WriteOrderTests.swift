import Foundation
import Testing
import TileViewTestSupport

/// The order of a frame's system calls, observed with `strace` (docs/design.md section 13): the temporary file is
/// written and flushed (`fsync`) before the rename that makes the frame visible, the folder is flushed after the
/// rename, and only then is the frame's line appended to the journal. So after a crash or a power cut a
/// journaled frame is on disk whole, and a visible frame was whole before it got its name.
@Suite("Writes: fsync, rename, folder fsync, journal, in that order")
struct WriteOrderTests {
    /// Whether `strace` is installed and may trace a child here (a container may forbid ptrace).
    static let canTrace: Bool = {
        guard let strace = Self.strace else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = ["-f", "-o", "/dev/null", "/bin/true"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static let strace: String? = ["/usr/bin/strace", "/bin/strace"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// One traced system call: its name, its text as strace prints it, and its result.
    struct Call {
        let name: String
        let text: String
        let result: Int
    }

    /// Reads one thread's trace (`strace -ff` writes one file per thread, so no call is split).
    static func calls(in file: URL) throws -> [Call] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard let paren = line.firstIndex(of: "("), let equals = line.range(of: " = ", options: .backwards)
            else { return nil }
            let result = Int(line[equals.upperBound...].prefix { $0 == "-" || $0.isNumber }) ?? -1
            return Call(name: String(line[..<paren]), text: String(line), result: result)
        }
    }

    @Test(
        "every frame of a gallery and of zoom --frames: fsync of the file, rename, fsync of the folder, journal line",
        .enabled(if: canTrace, "strace cannot trace here"))
    func order() throws {
        let samples = Fixtures.sampleImages.path
        let runs: [(String, [String])] = [
            ("gallery", ["gallery", "--dir", samples, "--viewport", "160x120", "--moves", "next,next,next"]),
            (
                "zoom",
                [
                    "zoom", samples + "/rocket.jpg", "--viewport", "160x120", "--tap", "80,60", "--tap", "80,60",
                    "--tap", "40,30", "--frames",
                ]
            ),
        ]
        for (label, arguments) in runs {
            try TemporaryFolder.with("write-order") { scratch in
                let folder = scratch.appendingPathComponent("frames")
                let traces = scratch.appendingPathComponent("trace")
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Self.strace!)
                process.arguments =
                    [
                        "-ff", "-s", "80", "-e", "trace=openat,write,fsync,rename", "-o", traces.path,
                        CommandRunner.executable.path,
                    ] + arguments + (label == "zoom" ? [folder.path] : ["-o", folder.path])
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                #expect(process.terminationStatus == 0, "\(label): traced run")
                let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
                    $0.hasPrefix("trace.")
                }
                let threads = try files.map { try Self.calls(in: scratch.appendingPathComponent($0)) }
                let frames = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                    $0.hasPrefix("frame-")
                }.sorted()
                #expect(frames.count == 4, "\(label): \(frames)")
                for frame in frames {
                    let renamed = threads.first { calls in
                        calls.contains { $0.name == "rename" && $0.text.contains("/\(frame)\")") && $0.result == 0 }
                    }
                    let calls = try #require(renamed, "\(label): the rename of \(frame) is traced")
                    try Self.checkOrder(of: frame, in: calls, label: label)
                }
            }
        }
    }

    /// Checks, within one thread's calls, the order of `frame`'s writes, flushes, rename and journal line.
    static func checkOrder(of frame: String, in calls: [Call], label: String) throws {
        let opened = try #require(
            calls.firstIndex { $0.name == "openat" && $0.text.contains("/.\(frame).tmp-") && $0.result >= 0 },
            "\(label): \(frame)'s temporary file is opened")
        let fd = calls[opened].result
        let rename = try #require(
            calls.firstIndex { $0.name == "rename" && $0.text.contains("/\(frame)\")") })
        let writes = calls.indices.filter {
            $0 > opened && $0 < rename && calls[$0].name == "write" && calls[$0].text.hasPrefix("write(\(fd),")
        }
        #expect(!writes.isEmpty, "\(label): \(frame) is written before its rename")
        let flush = calls.indices.last { $0 > opened && $0 < rename && calls[$0].text.hasPrefix("fsync(\(fd))") }
        #expect(
            flush.map { f in writes.allSatisfy { $0 < f } } == true,
            "\(label): \(frame): fsync after the last write, before the rename")
        let folderOpen = calls.indices.first {
            $0 > rename && calls[$0].name == "openat" && calls[$0].text.contains("O_DIRECTORY") && calls[$0].result >= 0
        }
        let folderFlush = folderOpen.flatMap { open in
            calls.indices.first { $0 > open && calls[$0].text.hasPrefix("fsync(\(calls[open].result))") }
        }
        #expect(folderFlush != nil, "\(label): \(frame): the folder is flushed after the rename")
        let journal = calls.indices.first {
            $0 > rename && calls[$0].name == "write" && calls[$0].text.contains("\"\(frame) ")
        }
        #expect(journal != nil, "\(label): \(frame)'s journal line is written by the thread that renamed it")
        if let journal, let folderFlush {
            #expect(folderFlush < journal, "\(label): \(frame): journal line after the folder's fsync")
        }
        let early = calls.indices.contains {
            $0 < rename && calls[$0].name == "write" && calls[$0].text.contains("\"\(frame) ")
        }
        #expect(!early, "\(label): no journal line for \(frame) before its rename")
    }
}
