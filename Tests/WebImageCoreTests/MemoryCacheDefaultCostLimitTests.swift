import Testing
import WebImageCore

/// The rule for the default cost limit: 15% of the memory limit, at least 1 MiB, at most 1 GiB.
@Suite struct MemoryCacheDefaultCostLimitTests {
    private static let mebibyte = 1 << 20
    private static let gibibyte = 1 << 30

    @Test func fifteenPercentOfPhysicalMemoryAtMostOneGibibyte() {
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: nil, physicalMemory: 4 * Self.gibibyte) == 644_245_094)
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: nil, physicalMemory: 16 * Self.gibibyte) == Self.gibibyte)
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: nil, physicalMemory: Int.max) == Self.gibibyte)
    }

    @Test func aCgroupLimitBelowPhysicalMemoryIsTheBase() {
        let limit = MemoryCache.defaultCostLimit(cgroupLimit: 512 * Self.mebibyte, physicalMemory: 64 * Self.gibibyte)
        #expect(limit == 80_530_636)
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: 100, physicalMemory: 64 * Self.gibibyte) == Self.mebibyte)
    }

    @Test func aCgroupLimitAbovePhysicalMemoryGrantsNothingMore() {
        let limit = MemoryCache.defaultCostLimit(cgroupLimit: 32 * Self.gibibyte, physicalMemory: 2 * Self.gibibyte)
        #expect(limit == 322_122_547)
    }

    @Test func unknownOrTinyMemoryGivesTheOneMebibyteFloorNeverZero() {
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: nil, physicalMemory: 0) == Self.mebibyte)
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: 0, physicalMemory: -1) == Self.mebibyte)
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: -5, physicalMemory: 2 * Self.gibibyte) == 322_122_547)
        #expect(MemoryCache.defaultCostLimit(cgroupLimit: nil, physicalMemory: 4 * Self.mebibyte) == Self.mebibyte)
    }

    @Test func theComputedDefaultIsWithinTheBounds() {
        #expect(MemoryCache.defaultCostLimit >= Self.mebibyte)
        #expect(MemoryCache.defaultCostLimit <= Self.gibibyte)
        #expect(MemoryCache().costLimit == MemoryCache.defaultCostLimit)
    }
}
