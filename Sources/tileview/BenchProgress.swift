#if canImport(Glibc)
    import Glibc
#endif

/// A progress line on standard error (`tileview: frame 12/50`), shown only when standard error is a terminal.
final class BenchProgress {
    let total: Int
    let label: String
    private var done = 0
    private let enabled = isatty(2) != 0

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    func advance() {
        done += 1
        guard enabled else { return }
        Report.standardError("\rtileview: \(label) \(done)/\(total)")
    }

    func finish() {
        guard enabled, done > 0 else { return }
        Report.standardError("\n")
    }
}
