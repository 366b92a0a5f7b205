import Benchmark
import BenchmarkPairs
import Dispatch
import Foundation
import WebImage

/// Benchmarks of MemoryCache: a hit among 10,000 entries, on one thread and on two, against Foundation's
/// `NSCache` holding the same images under the same key strings.
///
/// Lookups use key strings equal to, but not the same objects as, the stored keys, as a caller that computes its
/// key from a URL has; the keys are visited in a shuffled order. NSCache is given ready-made `NSString` keys, so
/// the cost of making one per lookup, which its users on Linux pay, is left out of its side.
func memoryCacheBenchmarks() {
    let fixture = MemoryHitFixture(entryCount: 10_000)

    let perHit = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 3_000
    )

    // Time per hit: each measured iteration is 1,000 hits (the `.kilo` scaling), so the figures are per hit.
    Benchmark("Memory hit, 1 thread: ours", configuration: perHit) { benchmark in
        fixture.hitOurs(from: Int.random(in: 0..<fixture.entryCount), count: benchmark.scaledIterations.count)
    }
    Benchmark("Memory hit, 1 thread: NSCache", configuration: perHit) { benchmark in
        fixture.hitNSCache(from: Int.random(in: 0..<fixture.entryCount), count: benchmark.scaledIterations.count)
    }
    // For reference: a bare Dictionary<String, Image> lookup (no lock, no recency), the floor that hashing a
    // 60-character key and fetching a cold entry set; and ours with 100 entries, where everything stays in cache.
    Benchmark("Memory hit, 1 thread: Dictionary<String, Image>, no lock", configuration: perHit) { benchmark in
        fixture.hitDictionary(from: Int.random(in: 0..<fixture.entryCount), count: benchmark.scaledIterations.count)
    }
    let small = MemoryHitFixture(entryCount: 100)
    Benchmark("Memory hit, 1 thread: ours, 100 entries", configuration: perHit) { benchmark in
        small.hitOurs(from: Int.random(in: 0..<small.entryCount), count: benchmark.scaledIterations.count)
    }

    // The ratios: both caches timed back to back in every iteration, in alternating order, each doing the same
    // hits over all 10,000 entries; with two threads, each thread does them from a different starting point.
    Benchmark("Memory hit, 1 thread: ours vs NSCache, alternating", configuration: HitPairs.configuration) { benchmark in
        for i in benchmark.scaledIterations {
            HitPairs.measure(benchmark, iteration: i, hitsPerThread: fixture.entryCount) {
                fixture.hitOurs(from: 0, count: fixture.entryCount)
            } baseline: {
                fixture.hitNSCache(from: 0, count: fixture.entryCount)
            }
        }
    }
    let hitsPerThread = 4 * fixture.entryCount
    Benchmark("Memory hit, 2 threads: ours vs NSCache, alternating", configuration: HitPairs.configuration) { benchmark in
        for i in benchmark.scaledIterations {
            HitPairs.measure(benchmark, iteration: i, hitsPerThread: hitsPerThread) {
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    fixture.hitOurs(from: thread * fixture.entryCount / 2, count: hitsPerThread)
                }
            } baseline: {
                DispatchQueue.concurrentPerform(iterations: 2) { thread in
                    fixture.hitNSCache(from: thread * fixture.entryCount / 2, count: hitsPerThread)
                }
            }
        }
    }
}

/// The two caches filled with the same 10,000 small images under the same keys, and the keys to look them up by.
///
/// Sendable because every property is set in `init` and never changed: the `NSString` keys are immutable, and
/// NSCache takes its own lock in every method.
private final class MemoryHitFixture: @unchecked Sendable {
    let entryCount: Int
    let ours: MemoryCache
    let nsCache = NSCache<NSString, Image>()
    let dictionary: [String: Image]
    /// Equal to the stored keys, in separate storage, in a shuffled order.
    let lookupKeys: [String]
    let lookupNSKeys: [NSString]

    init(entryCount: Int) {
        // URL-like keys of 60 characters.
        let keys = (0..<entryCount).map { index in
            let digits = String(index)
            return "https://images.example.com/photos/" + String(repeating: "0", count: 6 - digits.count) + digits
                + "/thumbnail-256px.jpg"
        }
        precondition(keys.allSatisfy { $0.utf8.count == 60 })
        let image = { Image(pixels: try! PixelBuffer(width: 4, height: 4, color: .white), hasAlpha: false) }
        self.entryCount = entryCount
        let images = keys.map { _ in image() }
        ours = MemoryCache()
        dictionary = Dictionary(uniqueKeysWithValues: zip(keys, images).map { ($0, $1) })
        for (key, value) in zip(keys, images) {
            ours.setImage(value, forKey: key)
            nsCache.setObject(value, forKey: NSString(string: key), cost: value.memoryCost)
        }
        var random = SystemRandomNumberGenerator()
        let order = keys.shuffled(using: &random)
        lookupKeys = order.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        lookupNSKeys = order.map { NSString(string: String(decoding: Array($0.utf8), as: UTF8.self)) }
        precondition(ours.count == entryCount)
        precondition(lookupKeys.allSatisfy { ours.contains(key: $0) })
        precondition(lookupNSKeys.allSatisfy { nsCache.object(forKey: $0) != nil })
    }

    /// `count` hits, going round the shuffled keys from `start`.
    func hitOurs(from start: Int, count: Int) {
        let cache = ours
        let keys = lookupKeys
        var index = start
        for _ in 0..<count {
            blackHole(cache.image(forKey: keys[index]))
            index += 1
            if index == keys.count { index = 0 }
        }
    }

    func hitNSCache(from start: Int, count: Int) {
        let cache = nsCache
        let keys = lookupNSKeys
        var index = start
        for _ in 0..<count {
            blackHole(cache.object(forKey: keys[index]))
            index += 1
            if index == keys.count { index = 0 }
        }
    }

    func hitDictionary(from start: Int, count: Int) {
        let keys = lookupKeys
        var index = start
        for _ in 0..<count {
            blackHole(dictionary[keys[index]])
            index += 1
            if index == keys.count { index = 0 }
        }
    }
}

/// Back-to-back timing of our hits and NSCache's, reported per hit and as a speed-up.
private enum HitPairs {
    static let ours = BenchmarkMetric.custom("ours (ns/hit x10)")
    static let baseline = BenchmarkMetric.custom("NSCache (ns/hit x10)")
    static let speedup = BenchmarkMetric.custom("NSCache / ours (x100)", polarity: .prefersLarger)

    static var configuration: Benchmark.Configuration {
        Benchmark.Configuration(
            metrics: [ours, baseline, speedup],
            warmupIterations: 3,
            maxDuration: .seconds(5),
            maxIterations: 300
        )
    }

    /// Times `work` and `baseline` one after the other, the order alternating with `iteration`; each does
    /// `hitsPerThread` hits on each of its threads.
    static func measure(
        _ benchmark: Benchmark,
        iteration: Int,
        hitsPerThread: Int,
        _ work: () -> Void,
        baseline run: () -> Void
    ) {
        let clock = ContinuousClock()
        var first = Duration.zero
        var second = Duration.zero
        if iteration % 2 == 0 {
            first = clock.measure(work)
            second = clock.measure(run)
        } else {
            second = clock.measure(run)
            first = clock.measure(work)
        }
        let a = nanoseconds(first)
        let b = nanoseconds(second)
        benchmark.measurement(ours, a * 10 / hitsPerThread)
        benchmark.measurement(baseline, b * 10 / hitsPerThread)
        benchmark.measurement(speedup, b * 100 / max(1, a))
    }

    private static func nanoseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1_000_000_000 + Int(d.components.attoseconds / 1_000_000_000)
    }
}
