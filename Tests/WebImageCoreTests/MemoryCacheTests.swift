import Testing
import WebImageCore
import WebImageTestSupport

/// Small images made in memory for the memory-cache tests.
enum MemoryCacheImages {
    /// An image of `cost` bytes (a multiple of 4): one row of `cost / 4` pixels.
    static func image(cost: Int) -> Image {
        precondition(cost > 0 && cost % 4 == 0, "a test image costs a positive multiple of 4 bytes")
        let pixels = try! PixelBuffer(width: cost / 4, height: 1, color: .white)
        return Image(pixels: pixels, hasAlpha: false)
    }
}

@Suite struct MemoryCacheTests {
    private func image(cost: Int = 40) -> Image { MemoryCacheImages.image(cost: cost) }

    @Test func imagesCostTheirMemoryCost() {
        let cache = MemoryCache(costLimit: 0)
        let image = MemoryCacheImages.image(cost: 400)
        #expect(image.memoryCost == 400)
        cache.setImage(image, forKey: "a")
        #expect(cache.totalCost == 400)
        #expect(cache.count == 1)
        #expect(cache.image(forKey: "a") === image)
    }

    @Test func leastRecentlyUsedOrderFollowsAScriptedSequence() {
        let cache = MemoryCache(costLimit: 0, countLimit: 3)
        for key in ["a", "b", "c"] { cache.setImage(image(), forKey: key) }
        #expect(cache.keysByRecency == ["c", "b", "a"])
        #expect(cache.image(forKey: "a") != nil)
        cache.setImage(image(), forKey: "d")  // evicts b, the least recent
        #expect(cache.image(forKey: "c") != nil)
        cache.setImage(image(), forKey: "e")  // evicts a
        cache.setImage(image(), forKey: "c")  // a replacement: c becomes the most recent, nothing is evicted
        cache.setImage(image(), forKey: "f")  // evicts d
        #expect(cache.keysByRecency == ["f", "c", "e"])
        let survivors = ["a", "b", "c", "d", "e", "f"].filter { cache.contains(key: $0) }
        #expect(survivors == ["c", "e", "f"])
        #expect(cache.statistics.evictions == 3)
    }

    @Test func costLimitEvictsTheLeastRecentUntilItHolds() {
        let cache = MemoryCache(costLimit: 400)
        for i in 0..<10 { cache.setImage(image(cost: 40), forKey: "k\(i)") }
        #expect(cache.totalCost == 400)
        #expect(cache.statistics.evictions == 0)
        _ = cache.image(forKey: "k0")
        cache.setImage(image(cost: 40), forKey: "k10")
        #expect(!cache.contains(key: "k1"), "k1 was the least recent once k0 was read")
        #expect(cache.contains(key: "k0"))
        #expect(cache.totalCost == 400)
        cache.setImage(image(cost: 40), forKey: "k11")
        #expect(!cache.contains(key: "k2"))
        #expect(cache.statistics.evictions == 2)
        #expect(cache.invariantViolations().isEmpty)
    }

    @Test func oneInsertionEvictsAsManyAsNeeded() {
        let cache = MemoryCache(costLimit: 1000)
        for i in 0..<25 { cache.setImage(image(cost: 40), forKey: "small\(i)") }
        #expect(cache.count == 25)
        cache.setImage(image(cost: 100), forKey: "large")
        #expect(cache.totalCost == 980)
        #expect(cache.count == 23)
        #expect(!cache.contains(key: "small0") && !cache.contains(key: "small1") && !cache.contains(key: "small2"))
        #expect(cache.contains(key: "small3"))
    }

    @Test func anEntryOverATenthOfTheCostLimitIsNotKept() {
        let cache = MemoryCache(costLimit: 400)
        cache.setImage(image(cost: 40), forKey: "fits")
        #expect(cache.contains(key: "fits"), "exactly a tenth is kept")
        cache.setImage(image(cost: 44), forKey: "too large")
        #expect(!cache.contains(key: "too large"))
        #expect(cache.count == 1)
        #expect(cache.totalCost == 40)
        #expect(cache.statistics.evictions == 0, "a refused image evicts nothing")

        cache.setImage(image(cost: 44), forKey: "fits")
        #expect(!cache.contains(key: "fits"), "the stale entry under the key is removed")
        #expect(cache.totalCost == 0)
    }

    @Test func withoutACostLimitNothingIsRefusedForItsCost() {
        let cache = MemoryCache(costLimit: 0)
        cache.setImage(image(cost: 4 << 20), forKey: "large")
        #expect(cache.contains(key: "large"))
        #expect(cache.totalCost == 4 << 20)
    }

    @Test func replacingAKeyUpdatesCostAndRecency() {
        let cache = MemoryCache(costLimit: 1000, countLimit: 3)
        cache.setImage(image(cost: 40), forKey: "a")
        cache.setImage(image(cost: 40), forKey: "b")
        cache.setImage(image(cost: 40), forKey: "c")
        let replacement = image(cost: 100)
        cache.setImage(replacement, forKey: "a")
        #expect(cache.totalCost == 180)
        #expect(cache.count == 3)
        #expect(cache.keysByRecency == ["a", "c", "b"])
        #expect(cache.image(forKey: "a") === replacement)
        cache.setImage(image(cost: 40), forKey: "d")
        #expect(!cache.contains(key: "b"))
        #expect(cache.statistics.evictions == 1)
    }

    @Test func loweringALimitTrimsAtOnce() {
        let cache = MemoryCache(costLimit: 0)
        for i in 0..<10 { cache.setImage(image(cost: 40), forKey: "k\(i)") }
        _ = cache.image(forKey: "k0")
        cache.countLimit = 4
        #expect(cache.count == 4)
        #expect(cache.keysByRecency == ["k0", "k9", "k8", "k7"])
        #expect(cache.statistics.evictions == 6)
        cache.costLimit = 100
        #expect(cache.totalCost == 80)
        #expect(cache.keysByRecency == ["k0", "k9"])
        #expect(cache.statistics == MemoryCache.Statistics(
            hits: 1, misses: 0, evictions: 8, totalCost: 80, count: 2, costLimit: 100, countLimit: 4
        ))
        cache.countLimit = 0
        cache.costLimit = 0
        for i in 10..<20 { cache.setImage(image(cost: 40), forKey: "k\(i)") }
        #expect(cache.count == 12, "0 means no limit")
    }

    @Test func negativeLimitsMeanNoLimit() {
        let cache = MemoryCache(costLimit: -5, countLimit: -1)
        #expect(cache.costLimit == 0)
        #expect(cache.countLimit == 0)
        for i in 0..<5 { cache.setImage(image(cost: 400), forKey: "k\(i)") }
        #expect(cache.count == 5)
    }

    @Test func trimToCostAndToCountKeepTheMostRecent() {
        let cache = MemoryCache(costLimit: 0)
        for i in 0..<10 { cache.setImage(image(cost: 40), forKey: "k\(i)") }
        cache.trim(toCost: 250)
        #expect(cache.totalCost == 240)
        #expect(cache.keysByRecency.first == "k9")
        #expect(!cache.contains(key: "k3") && cache.contains(key: "k4"))
        cache.trim(toCount: 2)
        #expect(cache.keysByRecency == ["k9", "k8"])
        #expect(cache.statistics.evictions == 8)
        #expect(cache.costLimit == 0 && cache.countLimit == 0, "trimming leaves the limits alone")
        cache.trim(toCount: -3)
        #expect(cache.count == 0)
        #expect(cache.totalCost == 0)
    }

    @Test func countersCountHitsMissesAndEvictionsOnly() {
        let cache = MemoryCache(costLimit: 0, countLimit: 2)
        cache.setImage(image(), forKey: "a")
        cache.setImage(image(), forKey: "b")
        #expect(cache.image(forKey: "a") != nil)
        #expect(cache.image(forKey: "a") != nil)
        #expect(cache.image(forKey: "missing") == nil)
        #expect(cache.contains(key: "a") && !cache.contains(key: "missing"))
        cache.removeImage(forKey: "a")
        cache.removeImage(forKey: "never stored")
        cache.setImage(image(), forKey: "c")
        cache.setImage(image(), forKey: "d")  // evicts b
        cache.removeAll()
        #expect(cache.statistics == MemoryCache.Statistics(
            hits: 2, misses: 1, evictions: 1, totalCost: 0, count: 0, costLimit: 0, countLimit: 2
        ))
    }

    @Test func containsChangesNeitherRecencyNorCounters() {
        let cache = MemoryCache(costLimit: 0, countLimit: 2)
        cache.setImage(image(), forKey: "a")
        cache.setImage(image(), forKey: "b")
        #expect(cache.contains(key: "a"))
        cache.setImage(image(), forKey: "c")
        #expect(!cache.contains(key: "a"), "contains did not make a recent")
        #expect(cache.statistics.hits == 0 && cache.statistics.misses == 0)
    }

    @Test func removeAllEmptiesAndTheCacheStaysUsable() {
        let cache = MemoryCache(costLimit: 4000, countLimit: 50)
        for i in 0..<40 { cache.setImage(image(), forKey: "k\(i)") }
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
        #expect(cache.keysByRecency.isEmpty)
        for i in 0..<60 { cache.setImage(image(), forKey: "n\(i)") }
        #expect(cache.count == 50)
        #expect(cache.invariantViolations().isEmpty)
    }

    @Test func removedImagesAreReleased() {
        let cache = MemoryCache(costLimit: 0, countLimit: 1)
        weak var evicted: Image?
        weak var removed: Image?
        do {
            let first = image()
            evicted = first
            cache.setImage(first, forKey: "a")
        }
        cache.setImage(image(), forKey: "b")
        #expect(evicted == nil, "the cache kept no reference to an evicted image")
        do {
            let second = image()
            removed = second
            cache.setImage(second, forKey: "c")
        }
        cache.removeImage(forKey: "c")
        #expect(removed == nil)
    }
}
