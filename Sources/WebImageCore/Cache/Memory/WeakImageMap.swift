/// Keys to images held weakly: the second tier of ``MemoryCache``, as SDMemoryCache's strong-key, weak-value map.
///
/// An image evicted from the strong tier while something else still holds it (a view, a response being
/// written) can be found here again. Entries whose image has gone are swept: whenever the map grows past twice
/// the number of entries it had after the last sweep (and at least ``minimumSweepThreshold``), so sweeping costs
/// O(1) amortised per insertion and dead entries never outnumber live ones by more than that factor.
///
/// Not thread-safe: a value owned by one lock.
package struct WeakImageMap {
    private struct Entry {
        weak var image: Image?
    }

    /// The smallest size at which the map is swept.
    package static let minimumSweepThreshold = 64

    private var entries: [String: Entry] = [:]
    private var sweepThreshold = WeakImageMap.minimumSweepThreshold

    /// Creates an empty map.
    package init() {}

    /// The number of entries, live or not yet swept.
    package var count: Int { entries.count }

    /// The image under `key` if it is still alive anywhere; a dead entry found here is removed.
    package mutating func image(forKey key: String) -> Image? {
        guard let entry = entries[key] else { return nil }
        if let image = entry.image { return image }
        entries.removeValue(forKey: key)
        return nil
    }

    /// Records `image` under `key`, replacing what was there; sweeps when the map has grown enough.
    ///
    /// - Complexity: O(1) amortised.
    package mutating func set(_ image: Image, forKey key: String) {
        entries[key] = Entry(image: image)
        if entries.count > sweepThreshold { sweep() }
    }

    /// Forgets `key`.
    package mutating func remove(forKey key: String) {
        entries.removeValue(forKey: key)
    }

    /// Forgets every key.
    package mutating func removeAll() {
        entries = [:]
        sweepThreshold = Self.minimumSweepThreshold
    }

    /// Removes the entries whose image is gone.
    ///
    /// - Complexity: O(n).
    package mutating func sweep() {
        entries = entries.filter { $0.value.image != nil }
        sweepThreshold = max(Self.minimumSweepThreshold, 2 * entries.count)
    }
}
