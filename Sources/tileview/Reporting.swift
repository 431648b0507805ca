import ArgumentParser
import FoundationEssentials
import TileView
import TileViewCore

#if canImport(Glibc)
    import Glibc
#endif

/// Printing to standard error and turning library errors into exit status 1.
enum Report {
    static func error(_ message: String) {
        standardError("tileview: \(message)\n")
    }

    static func warning(_ message: String) {
        standardError("tileview: warning: \(message)\n")
    }

    /// Writes text to standard error unbuffered.
    static func standardError(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { break }
            offset += n
        }
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
