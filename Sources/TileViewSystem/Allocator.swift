#if canImport(Glibc)
    import Glibc
#endif

/// Process-wide allocator settings for long runs (galleries, memory benchmarks).
public enum Allocator {
    /// The block size from which the C allocator maps memory straight from the system: 128 KiB.
    public static let mappedBlockBytes: Int32 = 128 << 10

    /// Makes glibc's malloc serve every block of `mappedBlockBytes` or more (tiles, decoded blocks, frames) with
    /// its own mapping, returned to the system when freed.
    ///
    /// By default glibc raises that threshold to the size of the largest mapped block freed so far (up to
    /// 32 MiB), so after the first 12 MB decoded block is freed, tiles and frames come from the heap arenas,
    /// where a run that frees and allocates them on several threads leaves holes the process keeps (a lower
    /// peak RSS for a little more system time: docs/benchmarks.md, "Figures that lived in code comments"). Call
    /// it once, before the run; it does nothing where glibc is absent.
    public static func returnLargeBlocksToTheSystem() {
        #if canImport(Glibc)
            // mallopt is declared in <malloc.h>, which the Glibc module does not export: look it up by name.
            typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            _ = mallopt(mmapThresholdParameter, mappedBlockBytes)
        #endif
    }

    /// `M_MMAP_THRESHOLD` of <malloc.h>.
    package static let mmapThresholdParameter: Int32 = -3
}
