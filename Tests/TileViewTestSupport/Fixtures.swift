import Foundation

/// Where tests find the conformance corpus, goldens and the package itself.
public enum Fixtures {
    /// The package root, found from this file's path (Tests/TileViewTestSupport/Fixtures.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Corpus/` in the package: the decoder conformance corpus (see its README).
    public static let corpusRoot: URL = packageRoot.appendingPathComponent("Tests").appendingPathComponent("Corpus")

    /// `SampleImages/` in the package.
    public static let sampleImages: URL = packageRoot.appendingPathComponent("SampleImages")

    /// `Tests/Goldens/` in the package; `RECORD_GOLDENS=1` makes golden tests rewrite them.
    public static let goldens: URL = packageRoot.appendingPathComponent("Tests").appendingPathComponent("Goldens")

    public static var recordGoldens: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    /// The bytes of a file, or a readable failure.
    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// A fresh empty temporary folder, removed by the caller.
    public static func temporaryDirectory(_ label: String = "tileview-tests") throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}
