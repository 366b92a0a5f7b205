import Foundation
import Testing
@testable import WebImageCore

/// The memory tier of encoded variants: exact LRU by bytes and count, the one-tenth rule, the counters.
@Suite struct EncodedMemoryCacheTests {
    private func entry(_ bytes: Int, _ tag: UInt8 = 0) -> EncodedImage {
        EncodedImage(data: Data(repeating: tag, count: bytes), format: .jpeg, pixelSize: PixelSize(square: 8))
    }

    @Test func evictsTheLeastRecentlyUsedUntilTheBytesFit() {
        let cache = EncodedMemoryCache(byteLimit: 1_000)
        cache.setEncodedImage(entry(90, 1), forKey: "a")
        cache.setEncodedImage(entry(90, 2), forKey: "b")
        #expect(cache.encodedImage(forKey: "a")?.data.first == 1, "a is now the most recent")
        for index in 0..<10 { cache.setEncodedImage(entry(90), forKey: "fill\(index)") }
        #expect(cache.encodedImage(forKey: "b") == nil, "b, the least recent, went first")
        let statistics = cache.statistics
        #expect(statistics.totalBytes <= 1_000)
        #expect(statistics.evictions == 12 - statistics.count)
        #expect(statistics.hits == 1 && statistics.misses == 1)
    }

    @Test func anEntryOverATenthOfTheLimitIsNotKeptAndReplacesNothingStale() {
        let cache = EncodedMemoryCache(byteLimit: 1_000)
        cache.setEncodedImage(entry(50, 1), forKey: "k")
        cache.setEncodedImage(entry(101, 2), forKey: "k")
        #expect(cache.encodedImage(forKey: "k") == nil, "the old bytes are out of date and the new too large")
        #expect(cache.statistics.totalBytes == 0)
    }

    @Test func limitsTrimAtOnceAndCountersOutliveRemoveAll() {
        let cache = EncodedMemoryCache(byteLimit: 0, countLimit: 0)
        for index in 0..<5 { cache.setEncodedImage(entry(10), forKey: "\(index)") }
        cache.countLimit = 2
        #expect(cache.statistics.count == 2 && cache.statistics.evictions == 3)
        cache.byteLimit = 100
        cache.setEncodedImage(entry(10), forKey: "new")
        #expect(cache.statistics.count == 2)
        _ = cache.encodedImage(forKey: "new")
        cache.removeAll()
        #expect(cache.statistics.count == 0 && cache.statistics.totalBytes == 0)
        #expect(cache.statistics.hits == 1, "the counters stay")
        cache.removeEncodedImage(forKey: "missing")
    }

    @Test func theDefaultLimitIsAQuarterOfTheImageCachesDefault() {
        #expect(EncodedMemoryCache.defaultByteLimit == max(MemoryCache.defaultCostLimit / 4, 1 << 20))
        #expect(EncodedMemoryCache().byteLimit == EncodedMemoryCache.defaultByteLimit)
    }
}
