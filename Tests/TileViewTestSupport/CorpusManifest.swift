// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (The record fields keep the manifest's own key names.)

import Foundation

/// One record of `Tests/Corpus/manifest.json` (see the corpus README for the fields).
public struct CorpusRecord: Decodable, Sendable, CustomStringConvertible {
    public let file: String
    public let format: String
    public let expected: String
    public let width: Int?
    public let height: Int?
    public let category: String?
    public let sha256Rgba8: String?
    public let sha256Rgba8Oriented: String?
    public let exifOrientation: Int?
    public let orientedWidth: Int?
    public let orientedHeight: Int?
    public let lenientSha256Rgba8: String?
    public let lenientWidth: Int?
    public let lenientHeight: Int?
    public let decoderMessage: String?

    public var isValid: Bool { expected == "ok" }
    public var url: URL { Fixtures.corpusRoot.appendingPathComponent(file) }
    /// The hash a viewer's decode must match: the oriented pixels where the file has them.
    public var expectedOrientedHash: String? { sha256Rgba8Oriented ?? sha256Rgba8 }
    public var expectedOrientedWidth: Int? { orientedWidth ?? width }
    public var expectedOrientedHeight: Int? { orientedHeight ?? height }
    public var description: String { file }
}

public enum CorpusManifest {
    /// Every record, in manifest order. Crashes the test process with a clear message if the
    /// corpus is missing, since every decoder test depends on it.
    public static let records: [CorpusRecord] = Fixtures.manifestFiles(
        CorpusRecord.self, at: Fixtures.corpusRoot.appendingPathComponent("manifest.json"), what: "the corpus manifest")
}
