import ArgumentParser
import FoundationEssentials
import Synchronization
import TileView
import TileViewCodecs
import TileViewCore

#if canImport(Glibc)
    import Glibc
#endif

/// Printing to standard error and turning library errors into exit status 1.
enum Report {
    static func error(_ message: String) {
        standardError("tileview: \(message)\n")
    }

    /// Prints a decoder warning, `FILE: text`. libpng's benign notes about ancillary chunks
    /// (`DecoderWarning.isBenign`) are printed only with `--verbose`.
    static func warning(_ message: String) {
        if !verbose && DecoderWarning.isBenign(line: message) { return }
        standardError("tileview: warning: \(message)\n")
    }

    private static let verboseFlag = Atomic<Bool>(false)

    /// Whether benign decoder warnings are printed too: `--verbose` of the decoding options, set
    /// at the start of a command's run.
    static var verbose: Bool {
        get { verboseFlag.load(ordering: .relaxed) }
        set { verboseFlag.store(newValue, ordering: .relaxed) }
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
