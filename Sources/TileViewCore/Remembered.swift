/// At most `capacity` values by key, the oldest forgotten first: what a cache remembers of what it was asked
/// for (decodes that failed, coarse levels not on disk, colour transforms), bounded however many keys come.
public struct Remembered<Key: Hashable, Value> {
    private var values: [Key: Value] = [:]
    /// The keys, the oldest first.
    private var order: [Key] = []
    public let capacity: Int

    public init(capacity: Int) { self.capacity = max(1, capacity) }

    public subscript(key: Key) -> Value? { values[key] }

    /// Remembers `value` for `key` (replacing one remembered, which keeps its age); past `capacity`, the oldest
    /// key is forgotten.
    public mutating func remember(_ value: Value, for key: Key) {
        guard values.updateValue(value, forKey: key) == nil else { return }
        order.append(key)
        if order.count > capacity { values[order.removeFirst()] = nil }
    }

    public mutating func forget(_ key: Key) {
        guard values.removeValue(forKey: key) != nil else { return }
        order.removeAll { $0 == key }
    }
}
