import Testing
import WebImageCore

/// The weak map of `MemoryCache`: evicted images still alive elsewhere come back; dead entries are swept.
@Suite struct MemoryCacheWeakMapTests {
    private func image(cost: Int = 40) -> Image { MemoryCacheImages.image(cost: cost) }

    @Test func anEvictedImageStillReferencedComesBack() {
        let cache = MemoryCache(costLimit: 0, countLimit: 2, usesWeakMap: true)
        let held = image()
        cache.setImage(held, forKey: "held")
        cache.setImage(image(), forKey: "b")
        cache.setImage(image(), forKey: "c")  // evicts "held"
        #expect(!cache.contains(key: "held"))

        #expect(cache.image(forKey: "held") === held)
        #expect(cache.contains(key: "held"), "the recovered image is back in the cache")
        #expect(cache.keysByRecency == ["held", "c"], "its re-insertion evicted the least recent entry")
        #expect(cache.statistics.hits == 1)
        #expect(cache.statistics.misses == 0)
        #expect(cache.statistics.evictions == 2)
        #expect(cache.invariantViolations().isEmpty)
    }

    @Test func anEvictedImageNoLongerReferencedDoesNotComeBack() {
        let cache = MemoryCache(costLimit: 0, countLimit: 1, usesWeakMap: true)
        cache.setImage(image(), forKey: "gone")
        cache.setImage(image(), forKey: "b")  // evicts "gone", whose last reference was the cache's
        #expect(cache.image(forKey: "gone") == nil)
        #expect(cache.statistics.misses == 1)
        #expect(cache.statistics.hits == 0)
    }

    @Test func withoutTheWeakMapAnEvictedImageIsGone() {
        let cache = MemoryCache(costLimit: 0, countLimit: 1)
        let held = image()
        cache.setImage(held, forKey: "held")
        cache.setImage(image(), forKey: "b")
        #expect(cache.image(forKey: "held") == nil)
        #expect(cache.weakMapCount == 0)
    }

    @Test func removingClearsTheWeakEntry() {
        let cache = MemoryCache(costLimit: 0, usesWeakMap: true)
        let held = image()
        cache.setImage(held, forKey: "a")
        cache.setImage(held, forKey: "b")
        cache.removeImage(forKey: "a")
        #expect(cache.image(forKey: "a") == nil)
        cache.removeAll()
        #expect(cache.image(forKey: "b") == nil)
        #expect(cache.weakMapCount == 0)
    }

    @Test func trimmingLeavesTheWeakMapAlone() {
        let cache = MemoryCache(costLimit: 0, usesWeakMap: true)
        let held = image()
        cache.setImage(held, forKey: "a")
        cache.trim(toCount: 0)
        #expect(cache.count == 0)
        #expect(cache.image(forKey: "a") === held)
        cache.trim(toCost: 0)
        cache.costLimit = 400
        #expect(cache.image(forKey: "a") === held)
    }

    @Test func aRecoveredImageOverATenthOfANewLimitIsHandedBackButNotKept() {
        let cache = MemoryCache(costLimit: 0, usesWeakMap: true)
        let held = image(cost: 400)
        cache.setImage(held, forKey: "large")
        cache.trim(toCount: 0)
        cache.costLimit = 1000
        #expect(cache.image(forKey: "large") === held)
        #expect(!cache.contains(key: "large"))
        #expect(cache.totalCost == 0)
    }

    @Test func aRefusedImageReplacesTheWeakEntryToo() {
        let cache = MemoryCache(costLimit: 400, usesWeakMap: true)
        let old = image(cost: 40)
        cache.setImage(old, forKey: "k")
        cache.setImage(image(cost: 400), forKey: "k")  // refused: over a tenth
        #expect(cache.image(forKey: "k") == nil, "the old image under the key is stale, also in the weak map")
    }

    @Test func turningTheWeakMapOffEmptiesItAndOnRecordsWhatIsHeld() {
        let cache = MemoryCache(costLimit: 0)
        let held = image()
        cache.setImage(held, forKey: "a")
        cache.usesWeakMap = true
        #expect(cache.weakMapCount == 1)
        cache.trim(toCount: 0)
        #expect(cache.image(forKey: "a") === held)

        cache.usesWeakMap = false
        #expect(cache.weakMapCount == 0)
        cache.trim(toCount: 0)
        #expect(cache.image(forKey: "a") == nil)
    }

    @Test func deadEntriesAreSwept() {
        let cache = MemoryCache(costLimit: 0, countLimit: 1, usesWeakMap: true)
        for i in 0..<10_000 { cache.setImage(image(), forKey: "k\(i)") }
        // Without sweeping, 10,000 dead entries would stay. A sweep runs when the map outgrows twice the entries
        // alive at the last sweep (here 2: the image being stored and the one it evicts), and at least the
        // minimum threshold.
        #expect(cache.weakMapCount <= WeakImageMap.minimumSweepThreshold + 1)
        #expect(cache.weakMapCount >= 1)
    }

    @Test func aMissOnADeadEntryRemovesIt() {
        let cache = MemoryCache(costLimit: 0, countLimit: 1, usesWeakMap: true)
        cache.setImage(image(), forKey: "a")
        cache.setImage(image(), forKey: "b")  // evicts "a", which dies
        #expect(cache.weakMapCount == 2)
        #expect(cache.image(forKey: "a") == nil)
        #expect(cache.weakMapCount == 1)
    }

    @Test func liveEntriesSurviveSweeps() {
        let cache = MemoryCache(costLimit: 0, countLimit: 1, usesWeakMap: true)
        let held = (0..<100).map { _ in image() }
        for (i, image) in held.enumerated() { cache.setImage(image, forKey: "held\(i)") }
        for i in 0..<5_000 { cache.setImage(image(), forKey: "dead\(i)") }
        // Alive at each sweep: the 100 held, the image being stored and the one it evicts.
        #expect(cache.weakMapCount <= 2 * (held.count + 2) + 1)
        for (i, image) in held.enumerated() {
            #expect(cache.image(forKey: "held\(i)") === image)
        }
    }
}
