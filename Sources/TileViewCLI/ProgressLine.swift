import TileView

/// A progress line on standard error (`tileview: frame 12/50`), rewritten in place after each step and shown
/// only when standard error is a terminal (docs/design.md section 9: long batches show progress there).
public final class ProgressLine {
    /// Steps in all (a run that learns its count late sets it before the first `advance`).
    public var total: Int
    public let label: String
    private var done = 0
    private let enabled: Bool

    /// A line counting `total` steps named `label` ("frame", "step").
    public init(total: Int, label: String, enabled: Bool = SystemInfo.standardErrorIsTerminal) {
        self.total = total
        self.label = label
        self.enabled = enabled
    }

    /// Counts one more step done (and shows it).
    public func advance() {
        done += 1
        guard enabled else { return }
        StandardError.write("\rtileview: \(label) \(done)/\(total)")
    }

    /// Ends the line, if one was shown. Call it before printing anything else to standard error.
    public func finish() {
        guard enabled, done > 0 else { return }
        done = 0
        StandardError.write("\n")
    }
}
