#if canImport(Glibc)
    import Glibc
#endif

/// How much memory a run may plan to use (`--max-memory`), from what the system allows.
///
/// The default is three quarters of physical memory: a batch shares the machine with its page cache and other
/// jobs, and a frame needs nowhere near that unless its viewport is enormous. Under an address-space limit
/// (`ulimit -v`, RLIMIT_AS) the limit is also never above the room left in the address space: the limit less
/// what the process maps already (VmSize: code, libraries, heap) less `reservedBytes` for the stacks of the
/// threads a run starts and the allocator's arenas, so that a refusal comes before an allocation could fail.
public enum MemoryLimit {
    /// Address space kept back under `ulimit -v` for thread stacks (8 MiB each) and allocator arenas.
    public static let reservedBytes = 256 << 20

    /// Physical memory (MemTotal of /proc/meminfo), or nil where it cannot be read.
    public static var physicalBytes: Int? {
        guard let file = fopen("/proc/meminfo", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard text.hasPrefix("MemTotal:") else { continue }
            return Int(text.dropFirst("MemTotal:".count).filter(\.isNumber)).map { $0 * 1024 }
        }
        return nil
    }

    /// The room left under the address-space limit, or nil when there is no limit.
    public static var addressSpaceRoomBytes: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        let mapped = ProcessMemory.field("VmSize:") ?? 0
        return max(0, Int(clamping: limit.rlim_cur) - mapped - reservedBytes)
    }

    /// The limit of a run: `requestedMiB` when given (never above the address-space room), else the default.
    public static func bytes(requestedMiB: Int? = nil) -> Int {
        var limit =
            requestedMiB.map { $0.multipliedReportingOverflow(by: 1 << 20).overflow ? Int.max : $0 << 20 }
            ?? (physicalBytes.map { $0 / 4 * 3 } ?? Int.max)
        if let room = addressSpaceRoomBytes { limit = min(limit, room) }
        return limit
    }
}
