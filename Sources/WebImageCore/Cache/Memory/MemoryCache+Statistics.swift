extension MemoryCache {
    /// A snapshot of a ``MemoryCache``'s counters, contents and limits, all read under one lock.
    ///
    /// The counters only grow; ``MemoryCache/removeAll()`` empties the cache but keeps them.
    public struct Statistics: Sendable, Hashable {
        /// Lookups that found an image, in the cache or, with the weak map on, in the weak map.
        public var hits: Int
        /// Lookups that found nothing.
        public var misses: Int
        /// Entries removed to keep a limit, or by `trim(toCost:)` and `trim(toCount:)`; entries removed by
        /// `removeImage(forKey:)` or `removeAll()`, or replaced under the same key, are not counted.
        public var evictions: Int
        /// The sum of the costs of the entries, in bytes.
        public var totalCost: Int
        /// The number of entries.
        public var count: Int
        /// The cost limit in bytes; 0 means no limit.
        public var costLimit: Int
        /// The count limit; 0 means no limit.
        public var countLimit: Int

        /// Creates a snapshot.
        public init(
            hits: Int = 0,
            misses: Int = 0,
            evictions: Int = 0,
            totalCost: Int = 0,
            count: Int = 0,
            costLimit: Int = 0,
            countLimit: Int = 0
        ) {
            self.hits = hits
            self.misses = misses
            self.evictions = evictions
            self.totalCost = totalCost
            self.count = count
            self.costLimit = costLimit
            self.countLimit = countLimit
        }
    }
}
