/// A least-recently-used map bounded by the total cost of its values.
///
/// Not thread-safe by itself; ``MemoryTier`` wraps it in a lock.
/// Every operation is O(1): a dictionary of slots threaded on a doubly linked list.
struct LRUCache<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        /// nil once removed: a free slot holds nothing alive until it is reused.
        var value: Value?
        var cost: Int
        var prev: Int  // towards most recent; -1 at the head
        var next: Int  // towards least recent; -1 at the tail
    }

    private var slots: [Slot] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var head = -1  // most recently used
    private var tail = -1  // least recently used

    /// The bound on the sum of costs.
    public let capacity: Int
    /// The sum of the costs held now.
    public private(set) var totalCost = 0
    /// How many entries are held.
    public var count: Int { index.count }

    public init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Returns the value and marks it most recently used.
    public mutating func value(for key: Key) -> Value? {
        guard let i = index[key] else { return nil }
        moveToFront(i)
        return slots[i].value
    }

    /// Returns the value without touching its recency.
    public func peek(_ key: Key) -> Value? { index[key].flatMap { slots[$0].value } }

    /// Inserts or replaces; evicts least recently used entries until the cap holds.
    /// A value costlier than the whole capacity is not kept.
    public mutating func set(_ value: Value, for key: Key, cost: Int) {
        removeValue(for: key)
        guard cost <= capacity else { return }
        let slot = Slot(key: key, value: value, cost: cost, prev: -1, next: head)
        let i: Int
        if let reused = free.popLast() { slots[reused] = slot; i = reused } else { slots.append(slot); i = slots.count - 1 }
        if head >= 0 { slots[head].prev = i }
        head = i
        if tail < 0 { tail = i }
        index[key] = i
        totalCost += cost
        while totalCost > capacity, tail >= 0 { removeValue(for: slots[tail].key) }
    }

    /// Removes an entry if present.
    @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let i = index.removeValue(forKey: key) else { return nil }
        unlink(i)
        totalCost -= slots[i].cost
        free.append(i)
        return slots[i].value.take()
    }

    /// Removes every entry.
    public mutating func removeAll() {
        slots.removeAll()
        free.removeAll()
        index.removeAll()
        head = -1
        tail = -1
        totalCost = 0
    }

    /// Keys from most to least recently used.
    public var keysByRecency: [Key] {
        var out: [Key] = []
        var i = head
        while i >= 0 { out.append(slots[i].key); i = slots[i].next }
        return out
    }

    private mutating func unlink(_ i: Int) {
        let p = slots[i].prev, n = slots[i].next
        if p >= 0 { slots[p].next = n } else { head = n }
        if n >= 0 { slots[n].prev = p } else { tail = p }
        slots[i].prev = -1
        slots[i].next = -1
    }

    private mutating func moveToFront(_ i: Int) {
        guard head != i else { return }
        unlink(i)
        slots[i].next = head
        if head >= 0 { slots[head].prev = i }
        head = i
        if tail < 0 { tail = i }
    }
}
