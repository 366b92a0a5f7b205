import Testing
import WebImageCore
import WebImageTestSupport

/// The least-recently-used store under `MemoryCache`, and the cache checked step by step against a plain model.
@Suite struct MemoryCacheLRUStoreTests {
    private let image = MemoryCacheImages.image(cost: 4)

    @Test func entriesOfCostZeroAreAllowed() {
        var store = LRUStore<Image>()
        #expect(store.insert(image, cost: 0, forKey: "free") == nil)
        #expect(store.count == 1)
        #expect(store.totalCost == 0)
        #expect(store.value(forKey: "free") === image)
        #expect(store.invariantViolations().isEmpty)
    }

    @Test func slotsAreReusedAndLinksStayConsistent() {
        var store = LRUStore<Image>()
        for i in 0..<8 { _ = store.insert(image, cost: i, forKey: "k\(i)") }
        #expect(store.remove(forKey: "k3") === image)
        #expect(store.remove(forKey: "k3") == nil)
        #expect(store.removeLeastRecent() === image)  // k0
        _ = store.value(forKey: "k1")
        _ = store.insert(image, cost: 100, forKey: "new")
        #expect(store.keysByRecency == ["new", "k1", "k7", "k6", "k5", "k4", "k2"])
        #expect(store.totalCost == 1 + 2 + 4 + 5 + 6 + 7 + 100)
        #expect(store.invariantViolations().isEmpty)
        let old = store.removeAll()
        #expect(old.count == 7)
        #expect(store.count == 0 && store.totalCost == 0)
        #expect(store.removeLeastRecent() == nil)
        #expect(store.invariantViolations().isEmpty)
    }

    @Test func replacementHandsBackTheOldImage() {
        var store = LRUStore<Image>()
        let other = MemoryCacheImages.image(cost: 8)
        _ = store.insert(image, cost: 4, forKey: "k")
        #expect(store.insert(other, cost: 8, forKey: "k") === image)
        #expect(store.totalCost == 8)
        #expect(store.count == 1)
    }

    /// A random sequence of sets, gets, removes, limit changes and trims, with the cache's recency order, cost
    /// and counters compared after every step with a model that keeps a plain array.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func cacheMatchesAPlainModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var model = Model(costLimit: 2000, countLimit: 12)
        let cache = MemoryCache(costLimit: model.costLimit, countLimit: model.countLimit)
        let keys = (0..<30).map { "https://example.com/images/\($0).png" }
        for step in 0..<3000 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            switch random.next() % 100 {
            case 0..<45:
                let cost = 4 * Int(1 + random.next() % 60)
                cache.setImage(MemoryCacheImages.image(cost: cost), forKey: key)
                model.set(key, cost: cost)
            case 45..<85:
                #expect((cache.image(forKey: key) != nil) == model.get(key))
            case 85..<93:
                cache.removeImage(forKey: key)
                model.remove(key)
            case 93..<96:
                let limit = Int(random.next() % 3000)
                cache.costLimit = limit
                model.costLimit = limit
                model.evict(toCost: limit == 0 ? .max : limit, count: model.countLimit == 0 ? .max : model.countLimit)
            case 96..<98:
                let limit = Int(random.next() % 16)
                cache.countLimit = limit
                model.countLimit = limit
                model.evict(toCost: model.costLimit == 0 ? .max : model.costLimit, count: limit == 0 ? .max : limit)
            default:
                let count = Int(random.next() % 10)
                cache.trim(toCount: count)
                model.evict(toCost: .max, count: count)
            }
            #expect(cache.keysByRecency == model.entries.map(\.key), "step \(step)")
            #expect(cache.totalCost == model.entries.reduce(0) { $0 + $1.cost }, "step \(step)")
            #expect(cache.statistics.evictions == model.evictions, "step \(step)")
            if cache.keysByRecency != model.entries.map(\.key) { break }
        }
        #expect(cache.invariantViolations().isEmpty)
        #expect(cache.statistics.hits == model.hits)
        #expect(cache.statistics.misses == model.misses)
    }

    /// The obvious least-recently-used cache: an array, most recent first.
    private struct Model {
        var entries: [(key: String, cost: Int)] = []
        var costLimit: Int
        var countLimit: Int
        var hits = 0
        var misses = 0
        var evictions = 0

        mutating func set(_ key: String, cost: Int) {
            remove(key)
            if costLimit > 0, cost * 10 > costLimit { return }
            entries.insert((key, cost), at: 0)
            evict(toCost: costLimit == 0 ? .max : costLimit, count: countLimit == 0 ? .max : countLimit)
        }

        mutating func get(_ key: String) -> Bool {
            guard let index = entries.firstIndex(where: { $0.key == key }) else {
                misses += 1
                return false
            }
            entries.insert(entries.remove(at: index), at: 0)
            hits += 1
            return true
        }

        mutating func remove(_ key: String) {
            entries.removeAll { $0.key == key }
        }

        mutating func evict(toCost cost: Int, count: Int) {
            while !entries.isEmpty, entries.reduce(0, { $0 + $1.cost }) > cost || entries.count > count {
                entries.removeLast()
                evictions += 1
            }
        }
    }
}
