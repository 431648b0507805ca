import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The memory this process uses, as the kernel counts it (Linux `/proc/self/status`).
///
/// `residentBytes` is VmRSS (pages in memory now) and `peakResidentBytes` the high-water mark since the process
/// started: VmHWM, or the largest VmRSS this process has read if that is larger (the kernel updates the two from
/// per-thread counters at different moments, so a VmHWM read later can lag an earlier VmRSS). So a run's peak is
/// never below one of its samples. Both are nil where `/proc` is not available.
public enum ProcessMemory {
    public static var residentBytes: Int? {
        let value = field("VmRSS:")
        if let value { largestSample.max(value, ordering: .relaxed) }
        return value
    }

    public static var peakResidentBytes: Int? {
        field("VmHWM:").map { max($0, largestSample.load(ordering: .relaxed)) }
    }

    /// The largest VmRSS read so far.
    private static let largestSample = Atomic<Int>(0)

    /// Reads one `Name:   1234 kB` line of /proc/self/status, in bytes.
    package static func field(_ name: String) -> Int? {
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix(name) else { continue }
            let digits = text.dropFirst(name.count).filter { $0.isNumber }
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}
