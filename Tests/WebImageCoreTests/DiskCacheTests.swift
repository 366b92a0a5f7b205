import Foundation
import Glibc
import Testing
@testable import WebImageCore

/// The disk cache's everyday operations: store, read, contain, remove, paths, the directory, the extra lookup
/// path, atomic replacement, and the async and reentrant entry points.
@Suite final class DiskCacheTests {
    let root: URL
    let directory: URL

    init() throws {
        root = try DiskCacheTesting.makeTemporaryDirectory()
        directory = root.appendingPathComponent("default")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    @Test func storesReadsAndRemoves() throws {
        let cache = DiskCache(directory: directory)
        #expect(cache.data(forKey: "a") == nil)
        #expect(!cache.containsData(forKey: "a"))
        #expect(!FileManager.default.fileExists(atPath: directory.path), "the directory is made on the first write")

        let payload = Data("first".utf8)
        try cache.setData(payload, forKey: "https://example.com/a.png")
        #expect(cache.data(forKey: "https://example.com/a.png") == payload)
        #expect(cache.containsData(forKey: "https://example.com/a.png"))
        #expect(cache.totalCount == 1)
        let path = cache.path(forKey: "https://example.com/a.png")
        #expect(path == directory.appendingPathComponent(DiskCache.fileName(forKey: "https://example.com/a.png")).path)
        #expect(path.hasSuffix(".png"))
        #expect(FileManager.default.contents(atPath: path) == payload)
        #expect(cache.totalSize == DiskCacheTesting.allocatedSize(path))

        try cache.setData(Data("second".utf8), forKey: "https://example.com/a.png")
        #expect(cache.data(forKey: "https://example.com/a.png") == Data("second".utf8))
        #expect(cache.totalCount == 1)

        cache.removeData(forKey: "https://example.com/a.png")
        #expect(cache.data(forKey: "https://example.com/a.png") == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(cache.totalCount == 0 && cache.totalSize == 0)
        cache.removeData(forKey: "never stored")
    }

    /// Keys whose extension is long in bytes (but not in characters) are stored: the extension goes when the
    /// name would not fit in 255 bytes.
    @Test(arguments: [
        "x." + String(repeating: "é", count: 150),
        "https://example.com/x." + String(repeating: "é", count: 150),
        "x." + String(repeating: "é", count: 111),
        "x." + String(repeating: "x", count: 222),
        "x." + String(repeating: "😀", count: 56),
    ])
    func keysWithLongExtensionsAreStored(key: String) throws {
        let cache = DiskCache(directory: directory)
        let payload = Data(key.utf8)
        try cache.setData(payload, forKey: key)
        #expect(cache.data(forKey: key) == payload)
        try cache.setExtendedData(Data("validators".utf8), forKey: key)
        #expect(cache.extendedData(forKey: key) == Data("validators".utf8))
        #expect(FileManager.default.fileExists(atPath: cache.path(forKey: key)))
        cache.removeData(forKey: key)
        #expect(cache.data(forKey: key) == nil)
    }

    @Test func removeAllEmptiesTheDirectoryButLeavesWritesInProgress() throws {
        let cache = DiskCache(directory: directory)
        for i in 0..<5 { try cache.setData(Data(repeating: UInt8(i), count: 100), forKey: "k\(i)") }
        // A file another process wrote, and a temporary file of a write in progress.
        let foreign = directory.appendingPathComponent(DiskCache.fileName(forKey: "other process"))
        try Data("x".utf8).write(to: foreign)
        let inProgress = directory.appendingPathComponent(DiskCacheFileName.temporary(forDigest: DiskCache.digestName(forKey: "k9")))
        try Data("partial".utf8).write(to: inProgress)

        try cache.removeAll()
        #expect(cache.totalCount == 0 && cache.totalSize == 0)
        #expect(try DiskCacheTesting.names(in: directory) == [inProgress.lastPathComponent])
        try cache.setData(Data("again".utf8), forKey: "k0")
        #expect(cache.totalCount == 1)
    }

    @Test func namespaceAndDefaultRoot() {
        let cache = DiskCache(namespace: "avatars", root: root)
        #expect(cache.directory.lastPathComponent == "avatars")
        #expect(cache.directory.deletingLastPathComponent().standardizedFileURL.path == root.standardizedFileURL.path)
        let environment = ProcessInfo.processInfo.environment
        let expected: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            expected = xdg + "/swift-web-image"
        } else {
            expected = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/swift-web-image"
        }
        #expect(DiskCache.defaultRootDirectory.standardizedFileURL.path == URL(fileURLWithPath: expected).standardizedFileURL.path)
        #expect(DiskCache(root: root).directory.lastPathComponent == "default")
    }

    @Test func aDirectoryThatCannotBeCreatedIsADiskIOErrorNamingIt() throws {
        let blocker = root.appendingPathComponent("file")
        try Data("not a directory".utf8).write(to: blocker)
        let cache = DiskCache(directory: blocker.appendingPathComponent("default"))
        let error = try #require(throws: WebImageError.self) {
            try cache.setData(Data("x".utf8), forKey: "the-key")
        }
        #expect(error.code == .diskIO)
        #expect(error.message.contains("the-key"))
        #expect(error.message.contains(blocker.path))
        #expect(cache.totalCount == 0)
    }

    @Test func theNameWithoutExtensionAndTheAdditionalPathAreReadOnlyFallbacks() throws {
        let bundled = root.appendingPathComponent("bundled.png")
        try Data("bundled".utf8).write(to: bundled)
        var configuration = DiskCache.Configuration()
        configuration.additionalLookupPath = { key in key == "https://example.com/bundled.png" ? bundled.path : nil }
        let cache = DiskCache(directory: directory, configuration: configuration)

        #expect(cache.data(forKey: "https://example.com/bundled.png") == Data("bundled".utf8))
        #expect(cache.containsData(forKey: "https://example.com/bundled.png"))
        #expect(cache.totalCount == 0, "a file outside the directory is not an entry")
        cache.removeData(forKey: "https://example.com/bundled.png")
        #expect(FileManager.default.fileExists(atPath: bundled.path), "the additional path is never written to")

        // An entry named as old SDWebImage versions named it, without extension.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let legacyKey = "https://example.com/old.jpg"
        try Data("legacy".utf8).write(to: directory.appendingPathComponent(DiskCache.digestName(forKey: legacyKey)))
        #expect(cache.containsData(forKey: legacyKey))
        #expect(cache.data(forKey: legacyKey) == Data("legacy".utf8))
        cache.removeData(forKey: legacyKey)
        #expect(!cache.containsData(forKey: legacyKey))
        #expect(try DiskCacheTesting.names(in: directory).isEmpty)
    }

    @Test func filesDeletedOrReplacedBehindTheCachesBack() throws {
        let cache = DiskCache(directory: directory)
        try cache.setData(Data("one".utf8), forKey: "deleted")
        try cache.setData(Data("two".utf8), forKey: "replaced")
        try cache.setData(Data("three".utf8), forKey: "checked")
        #expect(cache.totalCount == 3)

        try FileManager.default.removeItem(atPath: cache.path(forKey: "deleted"))
        #expect(cache.data(forKey: "deleted") == nil)
        #expect(cache.totalCount == 2, "a read that finds the file gone drops it from the index")

        try FileManager.default.removeItem(atPath: cache.path(forKey: "checked"))
        #expect(!cache.containsData(forKey: "checked"))
        #expect(cache.totalCount == 1)

        let bigger = Data(repeating: 7, count: 300_000)
        try bigger.write(to: URL(fileURLWithPath: cache.path(forKey: "replaced")), options: .atomic)
        #expect(cache.data(forKey: "replaced") == bigger)
        #expect(cache.totalSize == DiskCacheTesting.allocatedSize(cache.path(forKey: "replaced")))
        #expect(cache.totalSize >= 300_000)
    }

    @Test func aReaderNeverSeesAPartialEntry() throws {
        let writer = DiskCache(directory: directory)
        // A second cache over the same directory has its own IO queue, so its reads overlap the writes.
        let reader = DiskCache(directory: directory)
        let first = Data(repeating: 0x41, count: 3 << 20)
        let second = Data(repeating: 0x42, count: 2 << 20)
        try writer.setData(first, forKey: "big")
        let path = writer.path(forKey: "big")

        let counts = LockedBox((reads: 0, torn: 0, stop: false, stopped: false))
        let readerThread = Thread {
            while !counts.get().stop {
                for data in [reader.data(forKey: "big"), FileManager.default.contents(atPath: path)] {
                    let torn = data != first && data != second
                    counts.update { $0.reads += 1; if torn { $0.torn += 1 } }
                }
            }
            counts.update { $0.stopped = true }
        }
        readerThread.start()
        for i in 0..<60 { try writer.setData(i % 2 == 0 ? second : first, forKey: "big") }
        counts.update { $0.stop = true }
        let deadline = Date().addingTimeInterval(10)
        while !counts.get().stopped, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(counts.get().reads > 0)
        #expect(counts.get().torn == 0)
        #expect(try DiskCacheTesting.names(in: directory) == [DiskCache.fileName(forKey: "big")], "no temporary file is left behind")
    }

    @Test func asyncVariants() async throws {
        let cache = DiskCache(directory: directory)
        try await cache.setData(Data("async".utf8), forKey: "k")
        #expect(await cache.data(forKey: "k") == Data("async".utf8))
        #expect(await cache.containsData(forKey: "k"))
        #expect(await cache.totalCount() == 1)
        #expect(await cache.totalSize() > 0)
        #expect(await cache.statistics().count == 1)
        await cache.removeData(forKey: "k")
        #expect(await cache.totalCount() == 0)
        try await cache.setData(Data("again".utf8), forKey: "k2")
        await cache.removeExpiredData()
        try await cache.applyLimits()
        #expect(await cache.totalCount() == 1)
        try await cache.removeAll()
        #expect(await cache.totalCount() == 0)
    }

    @Test func synchronousCallsFromTheIOQueueRunInline() throws {
        let cache = DiskCache(directory: directory)
        try cache.setData(Data("x".utf8), forKey: "k")
        let done = DispatchSemaphore(value: 0)
        let seen = LockedBox<(Data?, Int)?>(nil)
        cache.perform { store in
            // Both the store and the cache's own synchronous methods work here, without deadlock.
            seen.set((cache.data(forKey: "k"), store.totalCount + cache.totalCount))
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.get()?.0 == Data("x".utf8))
        #expect(seen.get()?.1 == 2)
    }

    @Test func statisticsReportCountSizeAccessRangeAndLimits() throws {
        var configuration = DiskCache.Configuration()
        configuration.maxSize = 50 << 20
        configuration.maxAge = 3600
        let writer = DiskCache(directory: directory, configuration: configuration)
        #expect(writer.statistics() == DiskCache.Statistics(count: 0, totalSize: 0, oldestAccess: nil, newestAccess: nil, maxSize: 50 << 20, maxAge: 3600))
        try writer.setData(Data("a".utf8), forKey: "a")
        try writer.setData(Data("b".utf8), forKey: "b")
        try DiskCacheTesting.setDates(writer.path(forKey: "a"), access: 1_600_000_000)
        try DiskCacheTesting.setDates(writer.path(forKey: "b"), access: 1_700_000_000)

        let statistics = DiskCache(directory: directory, configuration: configuration).statistics()
        #expect(statistics.count == 2)
        #expect(statistics.totalSize == DiskCacheTesting.allocatedSize(writer.path(forKey: "a")) + DiskCacheTesting.allocatedSize(writer.path(forKey: "b")))
        #expect(statistics.oldestAccess == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(statistics.newestAccess == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(statistics.maxSize == 50 << 20 && statistics.maxAge == 3600)
    }
}

/// Helpers the disk cache suites share.
enum DiskCacheTesting {
    /// A fresh directory under the system's temporary directory; the suite removes it.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("disk-cache-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Sets a file's access and modification dates (seconds since 1970); nil leaves one as it is.
    static func setDates(_ path: String, access: Double? = nil, modification: Double? = nil) throws {
        func time(_ seconds: Double?) -> timespec {
            guard let seconds else { return timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) }  // UTIME_OMIT
            let whole = seconds.rounded(.down)
            return timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        }
        var times = [time(access), time(modification)]
        guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
            throw WebImageError(.diskIO, "utimensat \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// `stat` of a file.
    static func status(_ path: String) throws -> DiskFileStatus {
        try POSIXFileSystem().status(atPath: path)
    }

    /// The allocated bytes of a file.
    static func allocatedSize(_ path: String) -> Int {
        (try? status(path).allocatedSize) ?? -1
    }

    /// The names of the files in a cache directory, sorted, but for the ledger every cache of the directory
    /// shares.
    static func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != DiskCacheFileName.ledger }.sorted()
    }
}

/// A value shared between a test and the closures it hands out.
final class LockedBox<Value: Sendable>: Sendable {
    private let value: Locked<Value>

    init(_ value: Value) {
        self.value = Locked(value)
    }

    func get() -> Value { value.withLock { $0 } }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func update<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
}
