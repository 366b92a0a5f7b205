extension MemoryCache {
    /// Everything the cache's lock guards, and every decision taken on it.
    ///
    /// Each method is one decision under one lock. Images that leave the cache (evicted, replaced, removed) are
    /// returned rather than released here, so that the owner drops them, and frees their pixels, after unlocking.
    struct State {
        private(set) var store = LRUStore<Image>()
        private(set) var weakMap = WeakImageMap()
        private(set) var usesWeakMap: Bool
        /// 0 means no limit.
        private(set) var costLimit: Int
        /// 0 means no limit.
        private(set) var countLimit: Int
        private(set) var hits = 0
        private(set) var misses = 0
        private(set) var evictions = 0

        init(costLimit: Int, countLimit: Int, usesWeakMap: Bool) {
            self.costLimit = max(0, costLimit)
            self.countLimit = max(0, countLimit)
            self.usesWeakMap = usesWeakMap
        }

        var statistics: Statistics {
            Statistics(
                hits: hits,
                misses: misses,
                evictions: evictions,
                totalCost: store.totalCost,
                count: store.count,
                costLimit: costLimit,
                countLimit: countLimit
            )
        }

        /// Looks `key` up: the strong tier first; on a miss there, the weak map, whose live image goes back into
        /// the strong tier (which may evict others). `released` is nil on the hit path, so that the caller has
        /// nothing to release.
        mutating func image(forKey key: String) -> (image: Image?, released: [Image]?) {
            if let image = store.value(forKey: key) {
                hits += 1
                return (image, nil)
            }
            if usesWeakMap, let image = weakMap.image(forKey: key) {
                hits += 1
                let cost = image.memoryCost
                // The cost limit may have shrunk since the image was stored; then it is only handed back.
                guard isKept(cost: cost) else { return (image, nil) }
                // The key is absent from the strong tier, so nothing is replaced; the newest entry is never the
                // one evicted, since it is within a tenth of the cost limit and a count limit is at least 1.
                _ = store.insert(image, cost: cost, forKey: key)
                return (image, enforceLimits())
            }
            misses += 1
            return (nil, nil)
        }

        /// Stores `image` under `key` unless it costs more than a tenth of the cost limit, in which case any
        /// entry under `key` goes, since it is stale.
        mutating func setImage(_ image: Image, forKey key: String) -> [Image] {
            let cost = image.memoryCost
            guard isKept(cost: cost) else {
                weakMap.remove(forKey: key)
                return store.remove(forKey: key).map { [$0] } ?? []
            }
            if usesWeakMap { weakMap.set(image, forKey: key) }
            var released: [Image] = []
            if let replaced = store.insert(image, cost: cost, forKey: key) { released.append(replaced) }
            released += enforceLimits()
            return released
        }

        mutating func removeImage(forKey key: String) -> Image? {
            weakMap.remove(forKey: key)
            return store.remove(forKey: key)
        }

        mutating func removeAll() -> LRUStore<Image> {
            weakMap.removeAll()
            return store.removeAll()
        }

        mutating func setCostLimit(_ limit: Int) -> [Image] {
            costLimit = max(0, limit)
            return enforceLimits()
        }

        mutating func setCountLimit(_ limit: Int) -> [Image] {
            countLimit = max(0, limit)
            return enforceLimits()
        }

        /// Turning the weak map on records every image held now; turning it off forgets them all.
        mutating func setUsesWeakMap(_ uses: Bool) {
            guard uses != usesWeakMap else { return }
            usesWeakMap = uses
            if uses {
                for (key, image) in store.entries { weakMap.set(image, forKey: key) }
            } else {
                weakMap.removeAll()
            }
        }

        /// Evicts the least recent entries until the total cost is at most `cost` and the count at most `count`.
        mutating func trim(toCost cost: Int, count: Int) -> [Image] {
            var evicted: [Image] = []
            while store.totalCost > cost || store.count > count, let image = store.removeLeastRecent() {
                evicted.append(image)
                evictions += 1
            }
            return evicted
        }

        /// Evicts the least recent entries until both limits hold.
        private mutating func enforceLimits() -> [Image] {
            trim(toCost: costLimit == 0 ? Int.max : costLimit, count: countLimit == 0 ? Int.max : countLimit)
        }

        /// Whether an entry of `cost` may be kept: at most a tenth of the cost limit, or any cost without one.
        private func isKept(cost: Int) -> Bool {
            costLimit == 0 || cost <= costLimit / 10
        }
    }
}
