extension TileCache {
    /// Links a slot at the tail of the list its pin count selects (most recently used, or last
    /// pinned) and adds its bytes to the totals.
    mutating func attach(_ i: Int) {
        guard let slot = slots[i] else { return }
        append(i, toPinned: slot.pinCount > 0)
        statistics.currentBytes += slot.cost
        if slot.pinCount > 0 { statistics.pinnedBytes += slot.cost }
        statistics.entryCount = index.count
        statistics.peakBytes = max(statistics.peakBytes, statistics.currentBytes)
    }

    /// Unlinks a slot from its list and takes its bytes off the totals (the slot stays allocated).
    mutating func detach(_ i: Int) {
        guard let slot = slots[i] else { return }
        unlink(i, fromPinned: slot.pinCount > 0)
        statistics.currentBytes -= slot.cost
        if slot.pinCount > 0 { statistics.pinnedBytes -= slot.cost }
    }

    /// Drops the least recently used unpinned entry at slot `i`.
    mutating func evict(_ i: Int) {
        detach(i)
        releaseSlot(i)
        statistics.evictions += 1
    }

    mutating func evictWhileOverBudget() {
        while statistics.currentBytes > budgetBytes, recency.head >= 0 {
            evict(recency.head)
        }
    }

    mutating func allocateSlot(_ slot: Slot) -> Int {
        if let i = freeSlots.popLast() {
            slots[i] = slot
            return i
        }
        slots.append(slot)
        return slots.count - 1
    }

    /// Frees a detached slot and forgets its key.
    mutating func releaseSlot(_ i: Int) {
        guard let slot = slots[i] else { return }
        index[slot.key] = nil
        slots[i] = nil
        freeSlots.append(i)
        statistics.entryCount = index.count
    }

    mutating func append(_ i: Int, toPinned pinned: Bool) {
        var ends = pinned ? pinnedList : recency
        slots[i]?.previous = ends.tail
        slots[i]?.next = -1
        if ends.tail >= 0 { slots[ends.tail]?.next = i } else { ends.head = i }
        ends.tail = i
        if pinned { pinnedList = ends } else { recency = ends }
    }

    mutating func unlink(_ i: Int, fromPinned pinned: Bool) {
        guard let slot = slots[i] else { return }
        var ends = pinned ? pinnedList : recency
        if slot.previous >= 0 { slots[slot.previous]?.next = slot.next } else { ends.head = slot.next }
        if slot.next >= 0 { slots[slot.next]?.previous = slot.previous } else { ends.tail = slot.previous }
        slots[i]?.previous = -1
        slots[i]?.next = -1
        if pinned { pinnedList = ends } else { recency = ends }
    }
}
