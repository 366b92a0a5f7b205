/// The memory tier of the image cache: an exact least-recently-used cache of decoded images, bounded by total
/// cost (bytes of pixels) and by count.
///
/// Unlike `NSCache`, which SDWebImage's memory cache builds on, eviction is exact and predictable: every
/// insertion evicts the least recently used entries until both limits hold, and changing a limit trims at once.
/// The cost of an image is its ``Image/memoryCost``. An image that costs more than a tenth of the cost limit is
/// not kept, so that one huge image cannot flush the cache.
///
/// ```swift
/// let cache = MemoryCache(costLimit: 64 << 20)
/// cache.setImage(image, forKey: url.absoluteString)
/// if let hit = cache.image(forKey: url.absoluteString) { show(hit) }
/// print(cache.statistics.hits, cache.totalCost)
/// ```
///
/// With ``usesWeakMap`` on, as SDMemoryCache's weak cache, every stored image is also held weakly: an image
/// evicted while something else still holds it is found again on a lookup, and goes back into the cache.
///
/// Thread-safe: every method takes one lock, once, holds it only for the cache's own bookkeeping (a hash lookup
/// and a few links on a hit), and never calls out or blocks while holding it; images that leave the cache are
/// released after the lock is dropped. No method suspends
/// or hops to another thread, and none can be cancelled, since each returns at once.
///
/// - Complexity: Lookup, insertion, removal and each eviction are O(1). A hit allocates nothing.
public final class MemoryCache: Sendable {
    private let state: Locked<State>

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - costLimit: The most the images' costs may add up to, in bytes; 0 for no limit. Negative values count
    ///     as 0. The default is ``defaultCostLimit``: 15% of the memory limit, at most 1 GiB.
    ///   - countLimit: The most entries; 0 (the default) for no limit.
    ///   - usesWeakMap: Whether images are also held weakly, to be found again after eviction; off by default.
    public init(costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = 0, usesWeakMap: Bool = false) {
        state = Locked(State(costLimit: costLimit, countLimit: countLimit, usesWeakMap: usesWeakMap))
    }

    /// The most the costs of the entries may add up to, in bytes; 0 for no limit.
    ///
    /// Setting it evicts the least recent entries at once until the total is within the new limit. Entries
    /// kept before the change are not checked against the one-tenth rule again; new insertions are.
    public var costLimit: Int {
        get { state.withLock { $0.costLimit } }
        set { _ = state.withLock { $0.setCostLimit(newValue) } }
    }

    /// The most entries the cache holds; 0 for no limit.
    ///
    /// Setting it evicts the least recent entries at once until the count is within the new limit.
    public var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set { _ = state.withLock { $0.setCountLimit(newValue) } }
    }

    /// Whether every stored image is also held weakly, so that an evicted image still in use elsewhere is found
    /// again (and put back) by ``image(forKey:)``.
    ///
    /// Turning it on records the images the cache holds now; turning it off forgets every weak entry. An object
    /// that is referenced weakly keeps its reference counts in a side allocation, so retaining such an image
    /// costs one more memory access: leave the map off unless evicted images stay in use elsewhere.
    public var usesWeakMap: Bool {
        get { state.withLock { $0.usesWeakMap } }
        set { state.withLock { $0.setUsesWeakMap(newValue) } }
    }

    /// The image stored under `key`, which becomes the most recently used entry.
    ///
    /// Counts a hit or a miss in ``statistics``. With ``usesWeakMap`` on, an image that was evicted but is still
    /// alive elsewhere is a hit: it goes back into the cache as the most recent entry, which may evict others.
    ///
    /// - Parameter key: The cache key.
    /// - Returns: The image, or nil on a miss.
    /// - Complexity: O(1). A hit allocates nothing.
    public func image(forKey key: String) -> Image? {
        state.withLock { $0.image(forKey: key) }.image
    }

    /// Stores `image` under `key` as the most recently used entry, replacing any image stored there, then
    /// evicts the least recently used entries until both limits hold.
    ///
    /// The entry's cost is `image.memoryCost`. An image that costs more than a tenth of a nonzero
    /// ``costLimit`` is not stored, and an entry already under `key` is removed, since it is stale.
    ///
    /// - Parameters:
    ///   - image: The image to keep.
    ///   - key: The cache key.
    /// - Complexity: O(1) amortised, plus O(1) for each entry evicted.
    public func setImage(_ image: Image, forKey key: String) {
        _ = state.withLock { $0.setImage(image, forKey: key) }
    }

    /// Removes the entry under `key`, from the weak map too. Not counted as an eviction.
    ///
    /// - Complexity: O(1).
    public func removeImage(forKey key: String) {
        _ = state.withLock { $0.removeImage(forKey: key) }
    }

    /// Removes every entry, from the weak map too. Not counted as evictions; the other counters are kept.
    ///
    /// - Complexity: O(n), most of it in releasing the images, which happens after the lock is dropped.
    public func removeAll() {
        _ = state.withLock { $0.removeAll() }
    }

    /// Evicts the least recently used entries until the costs add up to at most `cost`; the limit is unchanged.
    ///
    /// Each entry removed counts as an eviction. The weak map is left alone.
    ///
    /// - Parameter cost: The total cost to trim to; 0 or less empties the cache.
    public func trim(toCost cost: Int) {
        _ = state.withLock { $0.trim(toCost: max(0, cost), count: Int.max) }
    }

    /// Evicts the least recently used entries until at most `count` remain; the limit is unchanged.
    ///
    /// Each entry removed counts as an eviction. The weak map is left alone.
    ///
    /// - Parameter count: The number of entries to keep; 0 or less empties the cache.
    public func trim(toCount count: Int) {
        _ = state.withLock { $0.trim(toCost: Int.max, count: max(0, count)) }
    }

    /// Whether an image is stored under `key`. Neither recency nor the counters change, and the weak map is
    /// not consulted.
    ///
    /// - Complexity: O(1).
    public func contains(key: String) -> Bool {
        state.withLock { $0.store.contains(key) }
    }

    /// The counters, the current cost and count, and the limits, read together under the lock.
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// The sum of the costs of the entries, in bytes.
    public var totalCost: Int {
        state.withLock { $0.store.totalCost }
    }

    /// The number of entries.
    public var count: Int {
        state.withLock { $0.store.count }
    }

    // MARK: - For tests

    /// The keys from the most recently used to the least.
    package var keysByRecency: [String] {
        state.withLock { $0.store.keysByRecency }
    }

    /// The number of weak entries, live or not yet swept.
    package var weakMapCount: Int {
        state.withLock { $0.weakMap.count }
    }

    /// What is inconsistent inside the cache; empty when all is well.
    package func invariantViolations() -> [String] {
        state.withLock { state in
            var problems = state.store.invariantViolations()
            let statistics = state.statistics
            if statistics.costLimit > 0, statistics.totalCost > statistics.costLimit {
                problems.append("total cost \(statistics.totalCost) is over the limit \(statistics.costLimit)")
            }
            if statistics.countLimit > 0, statistics.count > statistics.countLimit {
                problems.append("count \(statistics.count) is over the limit \(statistics.countLimit)")
            }
            return problems
        }
    }
}
