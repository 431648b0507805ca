import Foundation
import Testing
import TileViewTestSupport

/// `Examples/ZoomAPhoto`, a separate package that uses tileview only through `import TileView`:
/// it must build against the library as a client would, write the frame, and print the same
/// zoom state as `tileview zoom --json` for the same gesture.
@Suite("the example package", .serialized, .tags(.external))
struct ExamplePackageTests {
    static let examplePackage = Fixtures.packageRoot.appendingPathComponent("Examples/ZoomAPhoto")
    /// Kept inside the package's `.build`, so a second run only relinks the example.
    static let scratch = Fixtures.packageRoot.appendingPathComponent(".build/examples")

    /// Runs `arguments` through `/usr/bin/env`, its output (both streams) going to `log`.
    static func run(_ arguments: [String], log: URL) throws -> Int32 {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Width and height from a PNG's IHDR chunk.
    static func pngSize(_ url: URL) throws -> (width: Int, height: Int) {
        let bytes = try Fixtures.bytes(url)
        try #require(bytes.count >= 24 && bytes[12..<16].elementsEqual(Array("IHDR".utf8)))
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test(
        "Examples/ZoomAPhoto builds with only `import TileView`, writes an 800x600 frame and prints tileview's state",
        .timeLimit(.minutes(15)))
    func buildsAndMatchesTheCommand() throws {
        try TemporaryFolder.with("example") { dir in
            let buildLog = dir.appendingPathComponent("build.log")
            // Planned anew each time: a cached build plan misses source files added to tileview since the last
            // build of the example (seen as "cannot find type" for a new file's type). Only the example's product:
            // a client of TileView builds tileview's library modules, not the server's dependencies.
            let status = try Self.run(
                [
                    "swift", "build", "--package-path", Self.examplePackage.path, "--scratch-path", Self.scratch.path,
                    "--disable-build-manifest-caching", "--product", "ZoomAPhoto",
                ],
                log: buildLog)
            let buildOutput = (try? String(contentsOf: buildLog, encoding: .utf8)) ?? ""
            try #require(status == 0, "swift build of the example failed:\n\(buildOutput)")

            let source = try String(
                contentsOf: Self.examplePackage.appendingPathComponent("Sources/ZoomAPhoto/main.swift"), encoding: .utf8
            )
            let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
            #expect(imports.sorted() == ["import Foundation", "import TileView"], "the example imports only TileView")

            let sample = Fixtures.sampleImages.appendingPathComponent("retina.jpg").path
            let frame = dir.appendingPathComponent("zoomed.png")
            let outputLog = dir.appendingPathComponent("example.out")
            let binary = Self.scratch.appendingPathComponent("debug/ZoomAPhoto").path
            let ran = try Self.run([binary, sample, frame.path], log: outputLog)
            let printed = try Data(contentsOf: outputLog)
            try #require(ran == 0, "\(String(decoding: printed, as: UTF8.self))")
            let size = try Self.pngSize(frame)
            #expect(size.width == 800 && size.height == 600, "\(size)")

            let command = try CommandRunner.run(["zoom", sample, "--viewport", "800x600", "--tap", "520,340", "--json"])
            try #require(command.status == 0, "\(command)")
            let example = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])
            let tileview = try #require(
                try JSONSerialization.jsonObject(with: Data(command.stdout.utf8)) as? [String: Any])
            let stateKeys = [
                "image", "viewport", "zoomScale", "minimumZoomScale", "maximumZoomScale", "contentOffset",
                "contentSize",
                "imageFrame", "visibleRect",
            ]
            #expect(Set(example.keys) == Set(stateKeys), "\(example.keys.sorted())")
            for key in stateKeys {
                #expect(
                    (example[key] as? NSObject) == (tileview[key] as? NSObject),
                    "\(key): \(example[key] ?? "none") vs \(tileview[key] ?? "none")")
            }
            #expect(
                (example["zoomScale"] as? Double).map { $0 > (example["minimumZoomScale"] as? Double ?? 1) } == true)
        }
    }
}
