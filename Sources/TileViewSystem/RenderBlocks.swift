import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The blocks of bytes a thread keeps from one render to its next: the mosaic of tiles a frame is resampled from and
/// the frame itself.
///
/// Each is 256 KiB or more for a 256 px answer, so the C allocator gives it a mapping of its own
/// (`Allocator.mappedBlockBytes`): every render mapped two blocks, faulted their pages in and unmapped them (and an
/// unmapping has the kernel flush the address caches of the other processors running the process's threads). On
/// 12 processors the kernel took a quarter of the server's time, most of it faulting those pages in, and random
/// regions stopped scaling (docs/benchmarks.md section 10). Kept per thread, a block is reused by the same thread's
/// next render without a lock.
///
/// A thread keeps at most one block of each kind, of at most `largestKeptBytes`, and the threads together at most
/// the bound `keepOnEachThread(upToBytes:)` sets (`keptBytes` says how much now): a block that would pass it is
/// freed. Keeping is off until then (the server turns it on with an eighth of `--work-mb`; a command's run frees
/// its blocks as before).
public enum RenderBlocks {
    /// What a block is for.
    public enum Kind: Int, CaseIterable, Sendable {
        /// The tiles of a level gathered into one buffer (`TileMosaic`).
        case mosaic
        /// The frame drawn from it.
        case frame
    }

    /// The largest block kept: 1.5 MiB (the frame of a 512 px answer is 1 MiB, its mosaic a little more).
    public static let largestKeptBytes = 3 << 19

    /// Turns keeping on for the rest of the process, the blocks of every thread together at most `bound` bytes.
    public static func keepOnEachThread(upToBytes bound: Int) {
        limit.store(max(0, bound), ordering: .relaxed)
        enabled.store(true, ordering: .relaxed)
    }

    /// This thread's kept block of `kind`, no longer kept; an empty array when there is none.
    public static func take(_ kind: Kind) -> [UInt8] {
        guard enabled.load(ordering: .relaxed), let shelf = Shelf.ofThisThread(creating: false) else { return [] }
        let block = shelf.blocks[kind.rawValue]
        shelf.blocks[kind.rawValue] = []
        kept.subtract(block.capacity, ordering: .relaxed)
        return block
    }

    /// Keeps `bytes` (its memory: the contents do not matter) as this thread's block of `kind`, in place of the one
    /// kept before, when keeping is on, it is no larger than `largestKeptBytes` and the bound has room for it;
    /// otherwise it is freed.
    public static func keep(_ kind: Kind, _ bytes: consuming [UInt8]) {
        let capacity = bytes.capacity
        guard enabled.load(ordering: .relaxed), capacity > 0, capacity <= largestKeptBytes,
            let shelf = Shelf.ofThisThread(creating: true)
        else { return }
        let growth = capacity - shelf.blocks[kind.rawValue].capacity
        guard reserve(growth) else { return }
        shelf.blocks[kind.rawValue] = bytes
    }

    /// Adds `bytes` (negative: frees) to the count kept when the bound has room.
    private static func reserve(_ bytes: Int) -> Bool {
        if bytes <= 0 {
            kept.add(bytes, ordering: .relaxed)
            return true
        }
        var current = kept.load(ordering: .relaxed)
        while current + bytes <= limit.load(ordering: .relaxed) {
            let (exchanged, original) = kept.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// The bytes kept by every thread together.
    public static var keptBytes: Int { kept.load(ordering: .relaxed) }

    private static let enabled = Atomic(false)
    private static let limit = Atomic(0)
    private static let kept = Atomic(0)

    /// One thread's blocks, in a POSIX thread-specific slot; freed (and uncounted) when the thread ends.
    private final class Shelf {
        var blocks: [[UInt8]] = Array(repeating: [], count: Kind.allCases.count)

        deinit { RenderBlocks.kept.subtract(blocks.reduce(0) { $0 + $1.capacity }, ordering: .relaxed) }

        static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { shelf in
                guard let shelf else { return }
                Unmanaged<Shelf>.fromOpaque(shelf).release()
            }
            return key
        }()

        static func ofThisThread(creating: Bool) -> Shelf? {
            if let stored = pthread_getspecific(key) {
                return Unmanaged<Shelf>.fromOpaque(stored).takeUnretainedValue()
            }
            guard creating else { return nil }
            let shelf = Shelf()
            pthread_setspecific(key, Unmanaged.passRetained(shelf).toOpaque())
            return shelf
        }
    }
}
