/// An exact least-recently-used store of values by key, with a running total of their costs: the strong tier of
/// ``MemoryCache`` (images) and the memory tier of encoded variants (data).
///
/// The entries live in slots of contiguous arrays, linked into a doubly-linked recency list by index, with a free
/// list for reused slots, and a dictionary from key to slot. A lookup hashes the key once and relinks a few nodes
/// in place: it allocates nothing. The nodes a lookup touches hold only the value and the two links (16 bytes for
/// an image, four to a cache line); keys and costs, needed only to insert and evict, are kept apart. Freed slots
/// are reused, so the arrays stay at their largest count (40 bytes a slot for an image) until ``removeAll()``.
/// Limits are not kept here; the owner evicts with ``removeLeastRecent()`` until its limits hold.
///
/// Not thread-safe: a value owned by one lock. Values that leave the store are handed back to the caller, so
/// that their memory is released after the lock is dropped.
package struct LRUStore<Value> {
    /// The part of an entry that a lookup touches; no value when the slot is on the free list.
    private struct Node {
        var value: Value?
        /// The next more recent node, or `none`.
        var newer: Int32
        /// The next less recent node, or `none`; for a free slot, the next free slot.
        var older: Int32
    }

    private static var none: Int32 { -1 }

    private var nodes: [Node] = []
    /// The key of each slot; empty for a free slot.
    private var keys: [String] = []
    /// The cost of each slot; 0 for a free slot.
    private var costs: [Int] = []
    private var indices: [String: Int32] = [:]
    /// The most recent node.
    private var newest: Int32 = Self.none
    /// The least recent node, the next to evict.
    private var oldest: Int32 = Self.none
    /// The first free slot in `nodes`.
    private var firstFree: Int32 = Self.none

    /// The sum of the costs of the entries.
    package private(set) var totalCost = 0

    /// Creates an empty store.
    package init() {}

    /// The number of entries.
    package var count: Int { indices.count }

    /// Whether `key` has an entry; recency is left alone.
    package func contains(_ key: String) -> Bool {
        indices[key] != nil
    }

    /// The value under `key`, which becomes the most recent entry.
    ///
    /// - Complexity: O(1); allocates nothing.
    package mutating func value(forKey key: String) -> Value? {
        guard let index = indices[key] else { return nil }
        moveToNewest(index)
        return nodes[Int(index)].value
    }

    /// Stores `value` under `key` as the most recent entry, replacing what was there.
    ///
    /// - Returns: The value that was replaced, for the caller to release.
    /// - Complexity: O(1) amortised.
    package mutating func insert(_ value: Value, cost: Int, forKey key: String) -> Value? {
        if let index = indices[key] {
            let i = Int(index)
            let replaced = nodes[i].value
            totalCost += cost - costs[i]
            nodes[i].value = value
            costs[i] = cost
            moveToNewest(index)
            return replaced
        }
        let node = Node(value: value, newer: Self.none, older: newest)
        let index: Int32
        if firstFree != Self.none {
            index = firstFree
            firstFree = nodes[Int(index)].older
            nodes[Int(index)] = node
            keys[Int(index)] = key
            costs[Int(index)] = cost
        } else {
            precondition(nodes.count < Int(Int32.max), "a memory tier holds fewer than 2^31 entries")
            index = Int32(nodes.count)
            nodes.append(node)
            keys.append(key)
            costs.append(cost)
        }
        if newest != Self.none { nodes[Int(newest)].newer = index }
        newest = index
        if oldest == Self.none { oldest = index }
        indices[key] = index
        totalCost += cost
        return nil
    }

    /// Removes the entry under `key`.
    ///
    /// - Returns: The removed value, for the caller to release.
    /// - Complexity: O(1).
    package mutating func remove(forKey key: String) -> Value? {
        guard let index = indices.removeValue(forKey: key) else { return nil }
        return free(index)
    }

    /// Removes the least recent entry.
    ///
    /// - Returns: The removed value, or nil when the store is empty.
    /// - Complexity: O(1).
    package mutating func removeLeastRecent() -> Value? {
        guard oldest != Self.none else { return nil }
        let index = oldest
        indices.removeValue(forKey: keys[Int(index)])
        return free(index)
    }

    /// Empties the store.
    ///
    /// - Returns: The old contents, for the caller to drop after unlocking.
    package mutating func removeAll() -> LRUStore {
        let old = self
        self = LRUStore()
        return old
    }

    /// The keys from the most recent to the least recent.
    ///
    /// - Complexity: O(n).
    package var keysByRecency: [String] {
        var ordered: [String] = []
        ordered.reserveCapacity(count)
        var index = newest
        while index != Self.none, ordered.count <= nodes.count {
            ordered.append(keys[Int(index)])
            index = nodes[Int(index)].older
        }
        return ordered
    }

    /// Every entry in the store, in no particular order.
    package var entries: [(key: String, value: Value)] {
        indices.map { key, index in (key, nodes[Int(index)].value!) }
    }

    /// What is inconsistent in the links, the index and the total cost; empty when all is well. For tests.
    ///
    /// - Complexity: O(n).
    package func invariantViolations() -> [String] {
        var problems: [String] = []
        var seen = 0
        var costSum = 0
        var previous = Self.none
        var index = newest
        while index != Self.none, seen <= nodes.count {
            let node = nodes[Int(index)]
            let key = keys[Int(index)]
            if node.newer != previous { problems.append("node \(index) links to \(node.newer) as newer, not \(previous)") }
            if indices[key] != index { problems.append("key \(key) is not indexed at node \(index)") }
            if node.value == nil { problems.append("node \(index) on the recency list has no value") }
            costSum += self.costs[Int(index)]
            seen += 1
            previous = index
            index = node.older
        }
        if previous != oldest { problems.append("the list ends at \(previous), the oldest is \(oldest)") }
        if seen != indices.count { problems.append("\(seen) nodes on the list, \(indices.count) keys indexed") }
        if costSum != totalCost { problems.append("costs add up to \(costSum), the total says \(totalCost)") }
        if keys.count != nodes.count || costs.count != nodes.count { problems.append("the slot arrays differ in length") }
        var freeSlots = 0
        index = firstFree
        while index != Self.none, freeSlots <= nodes.count {
            if nodes[Int(index)].value != nil || !keys[Int(index)].isEmpty || costs[Int(index)] != 0 {
                problems.append("free slot \(index) holds an entry")
            }
            freeSlots += 1
            index = nodes[Int(index)].older
        }
        if freeSlots + seen != nodes.count { problems.append("\(freeSlots) free and \(seen) used of \(nodes.count) slots") }
        return problems
    }

    /// Unlinks a node from the recency list, puts it on the free list and hands its value back. The key must
    /// already be out of `indices`.
    private mutating func free(_ index: Int32) -> Value? {
        unlink(index)
        let i = Int(index)
        totalCost -= costs[i]
        let value = nodes[i].value.take()
        keys[i] = ""
        costs[i] = 0
        nodes[i].newer = Self.none
        nodes[i].older = firstFree
        firstFree = index
        return value
    }

    /// Relinks a node at the head of the recency list: the hit path, with one uniqueness check of the node array
    /// rather than one for every link written.
    private mutating func moveToNewest(_ index: Int32) {
        let head = newest
        guard index != head else { return }
        var tail = oldest
        nodes.withUnsafeMutableBufferPointer { nodes in
            let i = Int(index)
            // Not the head, so the list has a head and this node has a newer neighbour.
            let newer = nodes[i].newer
            let older = nodes[i].older
            nodes[Int(newer)].older = older
            if older != Self.none { nodes[Int(older)].newer = newer } else { tail = newer }
            nodes[i].newer = Self.none
            nodes[i].older = head
            nodes[Int(head)].newer = index
        }
        oldest = tail
        newest = index
    }

    private mutating func unlink(_ index: Int32) {
        let newer = nodes[Int(index)].newer
        let older = nodes[Int(index)].older
        if newer != Self.none { nodes[Int(newer)].older = older } else { newest = older }
        if older != Self.none { nodes[Int(older)].newer = newer } else { oldest = newer }
    }
}
