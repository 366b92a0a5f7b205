import Foundation
import Testing
@testable import WebImageCore

/// The in-memory index: built on the IO queue at open, current after every operation, and the access dates
/// that order it, which survive a restart.
@Suite final class DiskCacheIndexTests {
    let root: URL
    let directory: URL

    init() throws {
        root = try DiskCacheTesting.makeTemporaryDirectory()
        directory = root.appendingPathComponent("default")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    @Test func filesWrittenBeforeTheCacheOpensAreCounted() throws {
        var expectedSize = 0
        for i in 0..<2_100 {
            let path = directory.appendingPathComponent(DiskCache.fileName(forKey: "https://example.com/\(i).jpg")).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data(repeating: UInt8(i & 0xff), count: 10 + i)))
            expectedSize += DiskCacheTesting.allocatedSize(path)
        }
        let cache = DiskCache(directory: directory)
        #expect(cache.totalCount == 2_100)
        #expect(cache.totalSize == expectedSize)
        #expect(cache.data(forKey: "https://example.com/2099.jpg")?.count == 2_109)
    }

    @Test func openingReturnsAtOnceAndTheFirstCallWaitsForTheIndex() throws {
        for i in 0..<2_000 {
            let path = directory.appendingPathComponent(DiskCache.fileName(forKey: "key \(i)")).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data([UInt8(i & 0xff)])))
        }
        // The listing waits for the test's go-ahead: if the cache listed the directory inside init, init would
        // sit there until the gate's timeout and the listing would report that it timed out.
        let fileSystem = FaultyFileSystem()
        fileSystem.holdListings()
        let clock = ContinuousClock()
        let start = clock.now
        let cache = DiskCache(directory: directory, fileSystem: fileSystem)
        #expect(clock.now - start < .seconds(2))

        let counted = LockedBox<Int?>(nil)
        let counter = Thread { counted.set(cache.totalCount) }
        counter.start()
        Thread.sleep(forTimeInterval: 0.05)
        #expect(counted.get() == nil, "the first call waits for the index")
        fileSystem.releaseListings()
        let deadline = Date().addingTimeInterval(10)
        while counted.get() == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(counted.get() == 2_000)
        #expect(!fileSystem.listingTimedOut)
    }

    @Test func aHitSetsTheAccessDateAndItSurvivesAReopen() throws {
        let writer = DiskCache(directory: directory)
        try writer.setData(Data("payload".utf8), forKey: "k")
        let path = writer.path(forKey: "k")
        let old = 1_500_000_000.0
        try DiskCacheTesting.setDates(path, access: old, modification: old)

        let cache = DiskCache(directory: directory)
        #expect(cache.statistics().oldestAccess == Date(timeIntervalSince1970: old))
        let before = Date().timeIntervalSince1970
        #expect(cache.data(forKey: "k") == Data("payload".utf8))
        let status = try DiskCacheTesting.status(path)
        #expect(status.accessTime >= before - 1, "the access date moved to now")
        #expect(status.modificationTime == old, "the modification date did not move")
        #expect(try #require(cache.statistics().newestAccess).timeIntervalSince1970 >= before - 1)

        // containsData is not a use: it leaves the date alone.
        try DiskCacheTesting.setDates(path, access: old)
        #expect(cache.containsData(forKey: "k"))
        #expect(try DiskCacheTesting.status(path).accessTime == old)
        _ = cache.data(forKey: "k")

        let reopened = DiskCache(directory: directory)
        #expect(try #require(reopened.statistics().oldestAccess).timeIntervalSince1970 >= before - 1)
    }

    @Test func leastRecentlyUsedOrderSurvivesAReopen() throws {
        let writer = DiskCache(directory: directory)
        let payload = Data(repeating: 1, count: 1000)
        for key in ["a", "b", "c"] { try writer.setData(payload, forKey: key) }
        let base = 1_600_000_000.0
        for (i, key) in ["a", "b", "c"].enumerated() {
            try DiskCacheTesting.setDates(writer.path(forKey: key), access: base + Double(i))
        }
        // "a" is the oldest on disk; reading it makes it the most recent, in a process that then ends.
        #expect(DiskCache(directory: directory).data(forKey: "a") == payload)

        let entrySize = DiskCacheTesting.allocatedSize(writer.path(forKey: "a"))
        var configuration = DiskCache.Configuration()
        configuration.maxAge = -1
        configuration.maxSize = 3 * entrySize - 1
        let reopened = DiskCache(directory: directory, configuration: configuration)
        reopened.removeExpiredData()
        #expect(reopened.totalCount == 1)
        #expect(reopened.containsData(forKey: "a"))
        #expect(!reopened.containsData(forKey: "b") && !reopened.containsData(forKey: "c"))
    }

    @Test func staleTemporaryFilesAreRemovedAtOpenAndYoungOnesKept() throws {
        let digest = DiskCache.digestName(forKey: "k")
        let stale = directory.appendingPathComponent(DiskCacheFileName.temporary(forDigest: digest)).path
        let young = directory.appendingPathComponent(DiskCacheFileName.temporary(forDigest: digest)).path
        let orphan = directory.appendingPathComponent(DiskCacheFileName.sidecar(forDigest: digest)).path
        for path in [stale, young, orphan] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data("partial".utf8)))
        }
        let tenMinutesAgo = Date().timeIntervalSince1970 - 600
        try DiskCacheTesting.setDates(stale, modification: tenMinutesAgo)
        try DiskCacheTesting.setDates(orphan, modification: tenMinutesAgo)

        let cache = DiskCache(directory: directory)
        #expect(cache.totalCount == 0, "temporary files and sidecars are not entries")
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(!FileManager.default.fileExists(atPath: orphan), "a sidecar without its entry is removed when stale")
        #expect(FileManager.default.fileExists(atPath: young), "a young temporary file may be a write in progress")
    }

    @Test func otherProcessesWritesCountAfterRemoveExpiredData() throws {
        let cache = DiskCache(directory: directory)
        try cache.setData(Data("mine".utf8), forKey: "mine")
        let other = DiskCache(directory: directory)
        try other.setData(Data("theirs".utf8), forKey: "theirs")
        #expect(cache.totalCount == 1)
        #expect(cache.data(forKey: "theirs") == Data("theirs".utf8), "a read finds it and indexes it")
        try other.setData(Data("more".utf8), forKey: "more")
        cache.removeExpiredData()
        #expect(cache.totalCount == 3)
    }
}
