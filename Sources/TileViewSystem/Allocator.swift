#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide allocator settings for long runs (galleries, the server, memory benchmarks).
public enum Allocator {
    /// The block size from which the C allocator maps memory straight from the system: 256 KiB (a 256 px RGBA tile
    /// is one).
    public static let mappedBlockBytes: Int32 = 256 << 10
    /// The free memory at the top of a heap arena kept for later blocks rather than given back: 1 MiB.
    public static let keptFreeTopBytes: Int32 = 1 << 20

    /// Makes glibc's malloc serve every block of `mappedBlockBytes` or more (tiles, decoded blocks, frames) with
    /// its own mapping, returned to the system when freed, and keep up to `keptFreeTopBytes` free at the top of each
    /// heap arena.
    ///
    /// By default glibc raises the mapping threshold to the size of the largest mapped block freed so far (up to
    /// 32 MiB), so after the first 12 MB decoded block is freed, tiles and frames come from the heap arenas,
    /// where a run that frees and allocates them on several threads leaves holes the process keeps (a lower
    /// peak RSS for a little more system time: docs/benchmarks.md, "Returning large blocks to the system").
    /// Fixing the threshold also fixes the trimming threshold at its default of 128 KiB. With both at 128 KiB, the
    /// blocks of one libjpeg pass (its coefficient arrays of 128 to 256 KiB, its pools, together more than 512 KiB)
    /// were mapped or given back and faulted in again by the next: a stored TIFF tile cut at the image's edge
    /// took about 100 page faults and 0.9 ms of the server's time instead of 8 and 0.7 ms, and 0.4 ms instead of
    /// 0.14 in a loop of its own (docs/benchmarks.md, "A pyramid TIFF's stored tiles"). Call it once, before the
    /// run; it does nothing where glibc is absent.
    ///
    /// An operator's own setting wins: a threshold named in `GLIBC_TUNABLES` (`glibc.malloc.mmap_threshold`,
    /// `glibc.malloc.trim_threshold`), which glibc has already applied, is left as it is.
    public static func returnLargeBlocksToTheSystem() {
        #if canImport(Glibc)
            // mallopt is declared in <malloc.h>, which the Glibc module does not export: look it up by name.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            let tunables = getenv("GLIBC_TUNABLES").map { String(cString: $0) } ?? ""
            let named = operatorNamed(tunables)
            if !named.mmapThreshold { _ = mallopt(mmapThresholdParameter, mappedBlockBytes) }
            if !named.trimThreshold { _ = mallopt(trimThresholdParameter, keptFreeTopBytes) }
        #endif
    }

    /// Which of the two thresholds a `GLIBC_TUNABLES` value sets (`name=value` pairs separated by colons).
    package static func operatorNamed(_ tunables: String) -> (mmapThreshold: Bool, trimThreshold: Bool) {
        let names = Set(tunables.split(separator: ":").compactMap { $0.split(separator: "=").first.map(String.init) })
        return (names.contains("glibc.malloc.mmap_threshold"), names.contains("glibc.malloc.trim_threshold"))
    }

    /// `M_MMAP_THRESHOLD` of <malloc.h>.
    package static let mmapThresholdParameter: Int32 = -3
    /// `M_TRIM_THRESHOLD` of <malloc.h>.
    package static let trimThresholdParameter: Int32 = -1
}
