import ArgumentParser
import FoundationEssentials
import Synchronization
import TileView
import TileViewCodecs
import TileViewCore

/// Printing to standard error and turning library errors into exit status 1.
public enum Report {
    public static func error(_ message: String) {
        standardError("tileview: \(message)\n")
    }

    /// Prints a decoder warning, `FILE: text`. libpng's benign notes about ancillary chunks
    /// (`DecoderWarning.isBenign`) are printed only with `--verbose`.
    public static func warning(_ message: String) {
        if !verbose && DecoderWarning.isBenign(line: message) { return }
        standardError("tileview: warning: \(message)\n")
    }

    private static let verboseFlag = Atomic<Bool>(false)

    /// Whether benign decoder warnings are printed too: `--verbose` of the decoding options, set
    /// at the start of a command's run.
    public static var verbose: Bool {
        get { verboseFlag.load(ordering: .relaxed) }
        set { verboseFlag.store(newValue, ordering: .relaxed) }
    }

    /// Writes text to standard error unbuffered.
    public static func standardError(_ text: String) { StandardError.write(text) }

    /// The summary line of a run that wrote frames into a folder: `out: 12 frames`.
    public static func framesWritten(_ count: Int, into folder: String, reused: Int? = nil) {
        let kept = reused.map { ", \($0) reused from an earlier run" } ?? ""
        print("\(folder): \(count) frame\(count == 1 ? "" : "s")\(kept)")
    }

    /// Says what `FrameOutput.prepare` found of an earlier, longer run: removed with `--clean`, else a warning.
    public static func staleFrames(_ output: FrameOutput?, clean: Bool) {
        guard let output, let first = output.stale.first, let last = output.stale.last else { return }
        let names =
            first == last
            ? FrameWriter.frameName(first) : "\(FrameWriter.frameName(first)) to \(FrameWriter.frameName(last))"
        let count = "\(output.stale.count) frame\(output.stale.count == 1 ? "" : "s")"
        if clean {
            standardError("tileview: \(output.folder): removed \(count) this run does not write (\(names))\n")
        } else {
            warning(
                "\(output.folder): holds \(count) this run does not write (\(names)), left by an earlier run; --clean removes them"
            )
        }
    }

    /// Runs `body` and returns what it returns; a `TileViewError` is printed and becomes exit status 1 (an
    /// interrupted run's, 128 + the signal).
    @discardableResult
    public static func failures<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as TileViewError {
            Report.error(error.description)
            if error.kind == .interrupted, let signal = Interrupts.stopSignal {
                throw ExitCode(Interrupts.exitStatus(for: signal))
            }
            throw ExitCode.failure
        }
    }

    /// Pretty JSON with sorted keys (deterministic), one trailing newline.
    public static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
