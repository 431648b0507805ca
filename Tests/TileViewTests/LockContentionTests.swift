import Testing
import TileView

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Lock contention")
struct LockContentionTests {
    @Test("a lock counts every time it is taken, and a wait when another thread holds it")
    func countsWaits() {
        let locked = Locked(0)
        let held = Locked(false)
        let holder = WorkerThread.start {
            locked.withLock { _ in
                held.withLock { $0 = true }
                held.wakeWaiters()
                usleep(200_000)
            }
        }
        let isHeld: (Bool) -> Bool = { $0 }
        held.withLock(when: isHeld) { _ in }
        locked.withLock { $0 += 1 }
        holder.join()
        let (acquisitions, waits) = locked.contention
        #expect(acquisitions == 2 && waits == 1)
        locked.withLock { $0 += 1 }
        #expect(locked.contention.acquisitions == 3 && locked.contention.waits == 1, "nobody held it: no wait")
    }

    @Test("a striped value: a key stays in its part, threads first seen together get parts of their own")
    func striped() {
        let striped = Striped(count: 3) { _ in [String: Int]() }
        #expect(striped.parts.count == 4, "rounded up to a power of two")
        for key in ["a", "b", "c", "d", "e"] { striped.part(for: key).withLock { $0[key, default: 0] += 1 } }
        for key in ["a", "b", "c", "d", "e"] { #expect(striped.part(for: key).withLock { $0[key] } == 1) }
        #expect(striped.values { $0.count }.reduce(0, +) == 5)
        // Four threads, each holding its part until all four have one: no two share a part.
        let counts = Striped(count: 4) { _ in 0 }
        let gate = Locked(0)
        let threads = (0..<4).map { _ in
            WorkerThread.start {
                counts.partOfThisThread.withLock { $0 += 1 }
                gate.withLock { $0 += 1 }
                gate.wakeWaiters()
                let allFour: (Int) -> Bool = { $0 == 4 }
                gate.withLock(when: allFour) { _ in }
                counts.partOfThisThread.withLock { $0 += 1 }
            }
        }
        for thread in threads { thread.join() }
        let perPart = counts.values { $0 }
        #expect(perPart.reduce(0, +) == 8)
        #expect(perPart.filter { $0 > 0 }.count >= 2, "threads spread over the parts: \(perPart)")
    }
}
