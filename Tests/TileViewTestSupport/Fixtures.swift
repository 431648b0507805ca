import Foundation

/// Where tests find the conformance corpus, goldens and the package itself.
public enum Fixtures {
    /// The `files` of a corpus manifest at `url` (snake_case keys), or a crash naming `what` and the reason: every
    /// decoder test depends on the corpus.
    public static func manifestFiles<Record: Decodable>(_ type: Record.Type, at url: URL, what: String) -> [Record] {
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(CorpusManifestFile<Record>.self, from: Data(contentsOf: url)).files
        } catch {
            fatalError("cannot read \(what) at \(url.path): \(error)")
        }
    }

    /// The package root, found from this file's path (Tests/TileViewTestSupport/Fixtures.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Corpus/` in the package: the decoder conformance corpus (see its README).
    public static let corpusRoot: URL = packageRoot.appendingPathComponent("Tests").appendingPathComponent("Corpus")

    /// `SampleImages/` in the package.
    public static let sampleImages: URL = packageRoot.appendingPathComponent("SampleImages")

    /// `Tests/Goldens/` in the package (see `Golden`).
    public static let goldens: URL = packageRoot.appendingPathComponent("Tests").appendingPathComponent("Goldens")

    /// The bytes of a file, or a readable failure.
    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// `folder` (made if missing) holding `count` hard links to the sample image `sample`, named `name(n)` for n
    /// from 1: a large folder at no cost in disk.
    @discardableResult
    public static func links(
        to sample: String, count: Int, in folder: URL, named name: (Int) -> String
    ) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = sampleImages.appendingPathComponent(sample)
        for n in 1...count {
            try FileManager.default.linkItem(at: source, to: folder.appendingPathComponent(name(n)))
        }
        return folder
    }
}

/// A corpus manifest: its records under `files`.
private struct CorpusManifestFile<Record: Decodable>: Decodable {
    let files: [Record]
}
