#if canImport(Glibc)
    import Glibc
#endif

/// The memory this process uses, as the kernel counts it (Linux `/proc/self/status`).
///
/// `residentBytes` is VmRSS (pages in memory now) and `peakResidentBytes` is VmHWM (the high-water
/// mark since the process started). Both are nil where `/proc` is not available.
public enum ProcessMemory {
    public static var residentBytes: Int? { field("VmRSS:") }
    public static var peakResidentBytes: Int? { field("VmHWM:") }

    /// Reads one `Name:   1234 kB` line of /proc/self/status, in bytes.
    static func field(_ name: String) -> Int? {
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
