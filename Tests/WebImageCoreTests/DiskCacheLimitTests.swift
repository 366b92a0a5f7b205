import Foundation
import Testing
@testable import WebImageCore

/// The size limit, enforced on write and by `removeExpiredData`, and the age limit for each expire type.
@Suite final class DiskCacheLimitTests {
    let root: URL
    let directory: URL
    let payload = Data(repeating: 0x5a, count: 1000)

    init() throws {
        root = try DiskCacheTesting.makeTemporaryDirectory()
        directory = root.appendingPathComponent("default")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The allocated size of one 1000-byte entry on this file system.
    private func entrySize() throws -> Int {
        let probe = root.appendingPathComponent("probe")
        try payload.write(to: probe)
        defer { try? FileManager.default.removeItem(at: probe) }
        return DiskCacheTesting.allocatedSize(probe.path)
    }

    private func configuration(maxSize: Int = 0, maxAge: Double = -1, expireType: DiskCache.ExpireType = .accessDate) -> DiskCache.Configuration {
        var configuration = DiskCache.Configuration()
        configuration.maxSize = maxSize
        configuration.maxAge = maxAge
        configuration.expireType = expireType
        return configuration
    }

    private func survivors(_ cache: DiskCache, of keys: [String]) -> [String] {
        keys.filter { cache.containsData(forKey: $0) }
    }

    @Test func aWriteThatCrossesTheLimitTrimsToBelowHalf() throws {
        let size = try entrySize()
        let keys = (0..<10).map { "k\($0)" }
        let writer = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        for key in keys { try writer.setData(payload, forKey: key) }
        #expect(writer.totalCount == 10, "at the limit, not over it: nothing is removed")
        let base = 1_600_000_000.0
        for (i, key) in keys.enumerated() { try DiskCacheTesting.setDates(writer.path(forKey: key), access: base + Double(i)) }

        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        try cache.setData(payload, forKey: "new")
        // 11 entries: the oldest go until the total is below 5 entries' worth.
        #expect(cache.totalCount == 4)
        #expect(cache.totalSize < 5 * size)
        #expect(survivors(cache, of: keys + ["new"]) == ["k7", "k8", "k9", "new"])
    }

    @Test func theEntryJustWrittenSurvivesTheTrimItCaused() throws {
        let size = try entrySize()
        let keys = (0..<10).map { "k\($0)" }
        let writer = DiskCache(directory: directory)
        for key in keys { try writer.setData(payload, forKey: key) }
        // Every other entry looks more recent than the one about to be written.
        let future = Date().timeIntervalSince1970 + 10_000
        for (i, key) in keys.enumerated() { try DiskCacheTesting.setDates(writer.path(forKey: key), access: future + Double(i)) }

        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        try cache.setData(payload, forKey: "new")
        #expect(cache.data(forKey: "new") == payload)
        #expect(survivors(cache, of: keys + ["new"]) == ["k7", "k8", "k9", "new"])
    }

    @Test func anEntryOfHalfTheLimitIsNotKeptAndFlushesNothing() throws {
        let size = try entrySize()
        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        try cache.setData(payload, forKey: "small")
        try cache.setData(payload, forKey: "big")
        try cache.setData(Data(repeating: 1, count: 5 * size), forKey: "big")
        #expect(!cache.containsData(forKey: "big"), "the old value of the key is gone too")
        #expect(cache.data(forKey: "small") == payload)
        #expect(cache.totalCount == 1)
    }

    @Test func noLimitMeansNoTrimming() throws {
        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 0))
        for i in 0..<20 { try cache.setData(payload, forKey: "k\(i)") }
        cache.removeExpiredData()
        #expect(cache.totalCount == 20)
    }

    /// Writes `keys` so that their dates, for `expireType`, run from oldest to newest in the order given, and
    /// the other dates run the other way (so that ordering by the wrong date gives the wrong answer).
    private func writeInOrder(_ keys: [String], expireType: DiskCache.ExpireType) throws -> [String: Double] {
        let writer = DiskCache(directory: directory)
        let base = Date().timeIntervalSince1970 - 100_000
        var dates: [String: Double] = [:]
        for (i, key) in keys.enumerated() {
            try writer.setData(payload, forKey: key)
            let path = writer.path(forKey: key)
            let forward = base + Double(i) * 1000
            let backward = base + Double(keys.count - i) * 1000
            switch expireType {
            case .accessDate:
                try DiskCacheTesting.setDates(path, access: forward, modification: backward)
            case .modificationDate:
                try DiskCacheTesting.setDates(path, access: backward, modification: forward)
            case .changeDate:
                // The change date is the moment of the last change; setting the others is such a change, so
                // the entries are written a little apart.
                try DiskCacheTesting.setDates(path, access: backward, modification: backward)
                Thread.sleep(forTimeInterval: 0.02)
            }
            dates[key] = try DiskCacheTesting.status(path).time(for: expireType)
        }
        return dates
    }

    @Test(arguments: [DiskCache.ExpireType.accessDate, .modificationDate, .changeDate])
    func theAgePassRemovesEntriesAtOrBeforeTheExpirationDate(_ expireType: DiskCache.ExpireType) throws {
        let keys = ["old", "middle", "recent"]
        let dates = try writeInOrder(keys, expireType: expireType)
        let maxAge = 3600.0
        // Now is placed so that the expiration date falls exactly on "middle".
        let now = try #require(dates["middle"]) + maxAge
        let cache = DiskCache(
            directory: directory,
            configuration: configuration(maxAge: maxAge, expireType: expireType),
            fileSystem: POSIXFileSystem(),
            clock: { now }
        )
        cache.removeExpiredData()
        #expect(survivors(cache, of: keys) == ["recent"])
        #expect(cache.totalCount == 1)
    }

    @Test(arguments: [DiskCache.ExpireType.accessDate, .modificationDate, .changeDate])
    func theSizePassRemovesTheOldestFirst(_ expireType: DiskCache.ExpireType) throws {
        let size = try entrySize()
        let keys = ["a", "b", "c", "d"]
        _ = try writeInOrder(keys, expireType: expireType)
        // Four entries over a limit of three: down to below one and a half.
        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 3 * size + 1, expireType: expireType))
        cache.removeExpiredData()
        #expect(survivors(cache, of: keys) == ["d"])
    }

    @Test func maxAgeZeroExpiresEverythingAndNegativeNothing() throws {
        let writer = DiskCache(directory: directory)
        for i in 0..<3 { try writer.setData(payload, forKey: "k\(i)") }
        let keeping = DiskCache(directory: directory, configuration: configuration(maxAge: -1))
        keeping.removeExpiredData()
        #expect(keeping.totalCount == 3)
        let expiring = DiskCache(directory: directory, configuration: configuration(maxAge: 0))
        expiring.removeExpiredData()
        #expect(expiring.totalCount == 0)
        #expect(try DiskCacheTesting.names(in: directory).isEmpty)
    }

    @Test func theDefaultsAreSevenDaysByAccessDateAndOneGibibyte() {
        let configuration = DiskCache.Configuration()
        #expect(configuration.maxAge == 604_800)
        #expect(configuration.maxSize == 1 << 30)
        #expect(configuration.expireType == .accessDate)
        #expect(!configuration.syncsWrites)
        #expect(configuration.additionalLookupPath == nil)
    }
}
