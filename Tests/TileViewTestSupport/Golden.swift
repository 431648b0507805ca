import Foundation
import Testing
import TileViewCodecs
import TileViewCore

/// Golden files under `Tests/Goldens/`: what a test produced, compared with what was accepted before.
///
/// `RECORD_GOLDENS=1` rewrites a golden from what the test produced instead of comparing, and records an
/// issue for it, so that a recording run never passes: run the tests again without it to check the files.
public enum Golden {
    /// Whether this run rewrites goldens (`RECORD_GOLDENS=1`).
    public static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

    /// The golden at `path`, relative to `Tests/Goldens/` (for example `zoom/worked-example.json`).
    public static func url(_ path: String) -> URL { Fixtures.goldens.appendingPathComponent(path) }

    /// The golden file at `path` to compare with, or nil when there is nothing to compare: when recording, it
    /// writes `produced()` there and records an issue; when the file is missing, it records an issue saying how
    /// to write it.
    public static func file(
        _ path: String, produced: () throws -> Data, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> URL? {
        let url = url(path)
        if isRecording {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try produced().write(to: url, options: .atomic)
            Issue.record("recorded golden \(path); run again without RECORD_GOLDENS", sourceLocation: sourceLocation)
            return nil
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record(
                "no golden at \(url.path); run the tests with RECORD_GOLDENS=1 to write it",
                sourceLocation: sourceLocation)
            return nil
        }
        return url
    }

    /// Expects `text` to equal the golden text file at `path` exactly.
    public static func assertText(
        _ text: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let url = try file(path, produced: { Data(text.utf8) }, sourceLocation: sourceLocation) else { return }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text == golden, "\(path) differs; RECORD_GOLDENS=1 rewrites it after a deliberate change:\n\(text)",
            sourceLocation: sourceLocation)
    }

    /// Decodes the golden JSON file at `path` and hands it to `compare` with what the test produced; a
    /// recording writes `value` with sorted keys, pretty-printed, with a final newline.
    public static func checkJSON<T: Codable>(
        _ value: T, _ path: String, sourceLocation: SourceLocation = #_sourceLocation, compare: (T) throws -> Void
    ) throws {
        let produced = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return try encoder.encode(value) + Data("\n".utf8)
        }
        guard let url = try file(path, produced: produced, sourceLocation: sourceLocation) else { return }
        try compare(try JSONDecoder().decode(T.self, from: Data(contentsOf: url)))
    }

    /// Expects `value` to equal the golden JSON file at `path`, decoded.
    public static func assertJSON<T: Codable & Equatable>(
        _ value: T, _ path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try checkJSON(value, path, sourceLocation: sourceLocation) { stored in
            #expect(
                stored == value, "\(path) differs; RECORD_GOLDENS=1 rewrites it after a deliberate change",
                sourceLocation: sourceLocation)
        }
    }

    /// Expects `image` to have exactly the pixels of the golden image file at `path`; a recording writes
    /// `encoded()` (the PNG file of `image`).
    public static func assertImage(
        _ image: ImageBuffer, _ path: String, encoded: () throws -> Data,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        guard let url = try file(path, produced: encoded, sourceLocation: sourceLocation) else { return }
        let golden = try ImageDecoder.decode(.file(path: url.path)).image
        #expect(
            image == golden, "\(path) differs; RECORD_GOLDENS=1 rewrites it after a deliberate change",
            sourceLocation: sourceLocation)
    }
}
