import ArgumentParser
import Foundation
import TileView

/// Printing to standard error and turning library errors into exit status 1.
enum Report {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("tileview: \(message)\n".utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("tileview: warning: \(message)\n".utf8))
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
