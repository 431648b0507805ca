extension TileCache {
    /// Every broken invariant, in words (empty when the cache is sound). O(n).
    ///
    /// Checked: the index and the slots agree; the two lists are well linked, hold every entry
    /// exactly once, and each entry sits in the list its pin count selects; the byte totals and the
    /// entry count match the entries; no entry exceeds the cap; the cache exceeds its budget only
    /// when no unpinned entry is left; the peak is at least the current bytes.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        var seen = Set<Int>()
        var bytes = 0
        var pinned = 0
        for (isPinnedList, ends) in [(false, recency), (true, pinnedList)] {
            let name = isPinnedList ? "pinned list" : "recency list"
            var previous = -1
            var i = ends.head
            while i >= 0 {
                guard i < slots.count, let slot = slots[i] else {
                    problems.append("\(name) links to free slot \(i)")
                    break
                }
                guard seen.insert(i).inserted else {
                    problems.append("\(name) reaches slot \(i) twice")
                    break
                }
                if slot.previous != previous { problems.append("\(name) slot \(i) has a wrong back link") }
                if (slot.pinCount > 0) != isPinnedList {
                    problems.append("slot \(i) with \(slot.pinCount) pins is in the \(name)")
                }
                if index[slot.key] != i { problems.append("slot \(i) is not indexed under its key") }
                if slot.cost > entryCapBytes { problems.append("slot \(i) costs more than the entry cap") }
                if slot.cost < 0 { problems.append("slot \(i) has a negative cost") }
                bytes += slot.cost
                if slot.pinCount > 0 { pinned += slot.cost }
                previous = i
                i = slot.next
            }
            if ends.tail != previous { problems.append("\(name) tail is \(ends.tail), the walk ends at \(previous)") }
        }
        if seen.count != index.count { problems.append("lists hold \(seen.count) entries, the index \(index.count)") }
        let occupied = slots.lazy.filter { $0 != nil }.count
        if occupied != index.count { problems.append("\(occupied) occupied slots for \(index.count) keys") }
        if occupied + freeSlots.count != slots.count { problems.append("free slot list does not match the slots") }
        if bytes != statistics.currentBytes {
            problems.append("entries hold \(bytes) bytes, totals say \(statistics.currentBytes)")
        }
        if pinned != statistics.pinnedBytes {
            problems.append("pinned entries hold \(pinned) bytes, totals say \(statistics.pinnedBytes)")
        }
        if statistics.entryCount != index.count {
            problems.append("entry count \(statistics.entryCount) for \(index.count) keys")
        }
        if statistics.currentBytes > budgetBytes && recency.head >= 0 {
            problems.append("over budget (\(statistics.currentBytes) > \(budgetBytes)) with unpinned entries left")
        }
        if statistics.peakBytes < statistics.currentBytes { problems.append("peak below current bytes") }
        let net = statistics.insertions - statistics.evictions - statistics.removals
        if net != index.count { problems.append("insertions - evictions - removals = \(net), entries \(index.count)") }
        return problems
    }

    /// Traps with the list of broken invariants when there is any (for tests and debug checks).
    public func checkInvariants() {
        let problems = invariantViolations()
        precondition(problems.isEmpty, "TileCache invariants broken: " + problems.joined(separator: "; "))
    }
}
