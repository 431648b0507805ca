import Foundation
import Testing
import TileViewSystem

/// The blocks a render thread keeps for its next mosaic and frame (docs/benchmarks.md section 10). Keeping is
/// process-wide: once a test turns it on, renders of other tests on other threads keep blocks too, and their golden
/// frames check that a frame made in kept memory has the same bytes.
@Suite("Render blocks kept per thread")
struct RenderBlocksTests {
    static let bound = 8 << 20

    private static func base(_ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("a kept block is this thread's next take of its kind, once; a block too large is not kept")
    func keptForTheNextTake() {
        RenderBlocks.keepOnEachThread(upToBytes: Self.bound)
        _ = RenderBlocks.take(.frame)
        _ = RenderBlocks.take(.mosaic)
        let block = [UInt8](repeating: 1, count: 300_000)
        let address = Self.base(block)
        RenderBlocks.keep(.frame, block)
        #expect(RenderBlocks.take(.mosaic).isEmpty)
        let taken = RenderBlocks.take(.frame)
        #expect(Self.base(taken) == address && taken.count == 300_000)
        #expect(RenderBlocks.take(.frame).isEmpty)
        RenderBlocks.keep(.mosaic, [UInt8](repeating: 2, count: RenderBlocks.largestKeptBytes + 1))
        #expect(RenderBlocks.take(.mosaic).isEmpty)
        #expect(RenderBlocks.keptBytes <= Self.bound)
    }

    @Test("a block one thread keeps is not another thread's")
    func perThread() {
        RenderBlocks.keepOnEachThread(upToBytes: Self.bound)
        let done = DispatchSemaphore(value: 0)
        let otherDone = DispatchSemaphore(value: 0)
        let seen = Locked((false, false))
        Thread.detachNewThread {
            RenderBlocks.keep(.frame, [UInt8](repeating: 3, count: 200_000))
            let other = Thread {
                let empty = RenderBlocks.take(.frame).isEmpty
                seen.withLock { $0.0 = empty }
                otherDone.signal()
            }
            other.start()
            otherDone.wait()
            let mine = RenderBlocks.take(.frame).count == 200_000
            seen.withLock { $0.1 = mine }
            done.signal()
        }
        done.wait()
        #expect(seen.withLock { $0 } == (true, true))
    }
}
