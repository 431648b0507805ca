import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCore


/// Printing to standard error and turning library errors into exit status 1.
enum Report {
    static func error(_ message: String) {
        standardError("tileview: \(message)\n")
    }

    static func warning(_ message: String) {
        standardError("tileview: warning: \(message)\n")
    }

    /// Writes text to standard error unbuffered.
    static func standardError(_ text: String) { StandardError.write(text) }

    /// The summary line of a run that wrote frames into a folder: `out: 12 frames`.
    static func framesWritten(_ count: Int, into folder: String) {
        print("\(folder): \(count) frame\(count == 1 ? "" : "s")")
    }

    /// Runs `body`; a `TileViewError` is printed and becomes exit status 1.
    static func failures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as TileViewError {
            Report.error(error.description)
            throw ExitCode.failure
        }
    }

    /// Pretty JSON with sorted keys (deterministic), one trailing newline.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
