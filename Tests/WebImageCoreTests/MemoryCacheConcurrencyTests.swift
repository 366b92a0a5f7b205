import Dispatch
import Synchronization
import Testing
import WebImageCore
import WebImageTestSupport

/// Many threads using one `MemoryCache` at once; afterwards its totals, links and counters must agree.
@Suite struct MemoryCacheConcurrencyTests {
    private static let keys = (0..<64).map { "https://example.com/avatars/\($0)/large.jpg" }

    @Test(arguments: [false, true])
    func randomOperationsKeepTheCacheConsistent(usesWeakMap: Bool) {
        // Images shared by the workers, so that the run spends its time in the cache rather than in malloc. They
        // die with the test: a weakly referenced object that lives to the end of the process looks leaked to
        // LeakSanitizer, which cannot follow the tagged pointer to its side allocation.
        let images = (1...16).map { MemoryCacheImages.image(cost: 4 * $0) }
        let cache = MemoryCache(costLimit: 600, countLimit: 24, usesWeakMap: usesWeakMap)
        let lookups = Atomic<Int>(0)
        let workers = 8
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var random = SplitMix64(seed: UInt64(worker + 1))
            var performed = 0
            for _ in 0..<20_000 {
                let key = Self.keys[Int(random.next() % UInt64(Self.keys.count))]
                switch random.next() % 100 {
                case 0..<40:
                    if let image = cache.image(forKey: key) { precondition(image.memoryCost > 0) }
                    performed += 1
                case 40..<80:
                    cache.setImage(images[Int(random.next() % UInt64(images.count))], forKey: key)
                case 80..<92:
                    cache.removeImage(forKey: key)
                case 92..<96:
                    _ = cache.contains(key: key)
                    _ = cache.statistics
                case 96..<98:
                    cache.trim(toCount: Int(random.next() % 24))
                case 98:
                    cache.costLimit = 300 + Int(random.next() % 600)
                default:
                    if random.next() % 8 == 0 { cache.removeAll() } else { cache.trim(toCost: 200) }
                }
            }
            lookups.add(performed, ordering: .relaxed)
        }

        #expect(cache.invariantViolations() == [])
        let statistics = cache.statistics
        #expect(statistics.hits + statistics.misses == lookups.load(ordering: .relaxed))
        let present = cache.keysByRecency
        #expect(present.count == statistics.count)
        #expect(Set(present).count == present.count)
        // Reading every present entry once: the costs of what is there add up to the total.
        let costs = present.map { cache.image(forKey: $0)?.memoryCost ?? -1_000_000 }
        #expect(costs.reduce(0, +) == statistics.totalCost)
        #expect(statistics.totalCost <= statistics.costLimit)
        #expect(statistics.count <= 24)
    }
}
