/// The background indexer's queue of image identifiers (docs/design.md section 16): those requests moved to the
/// front, the latest first, then those the scans added, in the order they were added (newest files first). Each
/// identifier waits once.
///
/// Every operation is O(1) (amortised) whatever the length: a request's `moveToFront` runs under the indexer's lock
/// on the path of every tile it renders, and a root of a million images queues a million identifiers. An entry that
/// moves or is taken is left where it was and skipped when reached (`place` no longer names it), and each list is
/// compacted once more than half of it is such entries.
struct IndexQueue {
    /// Where a waiting identifier's live entry is: its number in `front` or in `scanned`.
    private enum Place: Equatable {
        case front(Int)
        case scanned(Int)
    }

    /// Identifiers moved to the front, the latest last; entry i is live when `place` holds `.front(i)`.
    private var front: [String] = []
    /// Identifiers the scans added, in order; the first `scannedDropped` were compacted away, and the array's
    /// entries before `scannedHead` are taken. Entry i (counting the dropped ones) is live when `place` holds
    /// `.scanned(i)`.
    private var scanned: [String] = []
    private var scannedDropped = 0
    private var scannedHead = 0
    /// Every waiting identifier and where its live entry is.
    private var place: [String: Place] = [:]
    /// Live entries in `front`.
    private var frontLive = 0

    /// Identifiers waiting.
    var count: Int { place.count }
    var isEmpty: Bool { place.isEmpty }

    func contains(_ identifier: String) -> Bool { place[identifier] != nil }

    /// Entries the two lists hold, live or not (what compaction bounds).
    var storedEntries: Int { front.count + scanned.count - scannedHead }

    /// Adds `identifier` behind every other, unless it is waiting already (wherever it is).
    mutating func append(_ identifier: String) {
        guard place[identifier] == nil else { return }
        place[identifier] = .scanned(scannedDropped + scanned.count)
        scanned.append(identifier)
    }

    /// Makes `identifier` the next taken, added if it was not waiting.
    mutating func moveToFront(_ identifier: String) {
        if case .front(let index) = place[identifier], index == front.count - 1 { return }
        if case .front = place[identifier] { frontLive -= 1 }
        place[identifier] = .front(front.count)
        front.append(identifier)
        frontLive += 1
        if front.count > 2 * frontLive + 32 { compactFront() }
    }

    /// The next identifier, taken off the queue; nil when none waits.
    mutating func takeNext() -> String? {
        while let identifier = front.popLast() {
            if place[identifier] == .front(front.count) {
                place[identifier] = nil
                frontLive -= 1
                return identifier
            }
        }
        while scannedHead < scanned.count {
            let identifier = scanned[scannedHead]
            let number = scannedDropped + scannedHead
            scannedHead += 1
            if place[identifier] == .scanned(number) {
                place[identifier] = nil
                compactScannedIfWorthIt()
                return identifier
            }
        }
        compactScannedIfWorthIt()
        return nil
    }

    /// `front` without the entries that moved again or were taken, in the same order.
    private mutating func compactFront() {
        var kept: [String] = []
        kept.reserveCapacity(frontLive)
        for (index, identifier) in front.enumerated() where place[identifier] == .front(index) {
            place[identifier] = .front(kept.count)
            kept.append(identifier)
        }
        front = kept
    }

    /// Drops the taken part of `scanned` once it is most of the array.
    private mutating func compactScannedIfWorthIt() {
        guard scannedHead >= 1024 || scannedHead == scanned.count, scannedHead * 2 >= scanned.count else { return }
        scanned.removeFirst(scannedHead)
        scannedDropped += scannedHead
        scannedHead = 0
    }
}
