import Foundation
import Glibc
import Testing
@testable import WebImageCore

/// Temporary files of writes. A writer holds a lock on its temporary file until the file is renamed over the
/// entry; a temporary file whose lock is free is what a killed writer left, and goes when a cache opens the
/// directory or trims it. Until then, and for as long as a live writer holds one, it counts toward the size limit.
@Suite final class DiskCacheTemporaryFileTests {
    let root: URL
    let directory: URL
    let payload = Data(repeating: 0x5a, count: 1000)

    init() throws {
        root = try DiskCacheTesting.makeTemporaryDirectory()
        directory = root.appendingPathComponent("default")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The allocated size of one entry of `payload` on this file system.
    private func entrySize() throws -> Int {
        let probe = root.appendingPathComponent("probe")
        try payload.write(to: probe)
        defer { try? FileManager.default.removeItem(at: probe) }
        return DiskCacheTesting.allocatedSize(probe.path)
    }

    private func configuration(maxSize: Int) -> DiskCache.Configuration {
        var configuration = DiskCache.Configuration()
        configuration.maxSize = maxSize
        configuration.maxAge = -1
        return configuration
    }

    /// A temporary file named as a writer names one, of `size` bytes, last written `age` seconds ago.
    private func makeTemporaryFile(size: Int, age: Double) throws -> String {
        let name = DiskCacheFileName.temporary(forDigest: DiskCache.digestName(forKey: "https://example.com/in-flight.png"))
        let path = directory.appendingPathComponent(name).path
        try Data(repeating: 1, count: size).write(to: URL(fileURLWithPath: path))
        let then = Date().timeIntervalSince1970 - age
        try DiskCacheTesting.setDates(path, access: then, modification: then)
        return path
    }

    /// Takes the lock a live writer holds on its temporary file; it is held until the descriptor is closed.
    private func lockAsAWriter(_ path: String) throws -> Int32 {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw WebImageError(.diskIO, "open \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw WebImageError(.diskIO, "flock \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    @Test func anOrphanIsRemovedWhenTheCacheOpens() throws {
        let orphan = try makeTemporaryFile(size: 50_000, age: 60)
        let cache = DiskCache(directory: directory)
        _ = cache.totalCount  // waits for the index, built when the cache opens
        #expect(!exists(orphan))
    }

    @Test func anOrphanIsRemovedByTrims() throws {
        let size = try entrySize()
        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        _ = cache.totalCount
        let first = try makeTemporaryFile(size: 1000, age: 60)
        cache.removeExpiredData()
        #expect(!exists(first), "removed by removeExpiredData")

        let second = try makeTemporaryFile(size: 1000, age: 60)
        for i in 0..<12 { try cache.setData(payload, forKey: "k\(i)") }
        #expect(cache.totalCount < 10, "a write went over the limit and trimmed")
        #expect(!exists(second), "removed by the trim a write over the limit caused")
    }

    @Test func aLiveWritersTemporaryFileIsNeverRemoved() throws {
        let size = try entrySize()
        let live = try makeTemporaryFile(size: 1000, age: 3600)
        let fd = try lockAsAWriter(live)
        var locked = true
        defer { if locked { close(fd) } }

        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        _ = cache.totalCount
        #expect(exists(live), "kept when the cache opens")
        cache.removeExpiredData()
        #expect(exists(live), "kept by removeExpiredData")
        try cache.removeAll()
        #expect(exists(live), "kept by removeAll")
        for i in 0..<30 { try cache.setData(payload, forKey: "k\(i)") }
        #expect(exists(live), "kept by the trims of writes over the limit")

        // The writer dies: its lock goes with it, and the file is an orphan.
        close(fd)
        locked = false
        cache.removeExpiredData()
        #expect(!exists(live))
    }

    /// A write in progress in another process (locked), or an orphan too young to be told from one (unlocked),
    /// takes room: the entries make way for it.
    @Test(arguments: [true, false])
    func temporaryFilesCountTowardTheLimit(locked: Bool) throws {
        let size = try entrySize()
        let temporary = try makeTemporaryFile(size: 4 * size, age: 0)
        let fd = locked ? try lockAsAWriter(temporary) : -1
        defer { if fd >= 0 { close(fd) } }
        let temporarySize = DiskCacheTesting.allocatedSize(temporary)
        #expect(temporarySize >= 4 * size)

        let cache = DiskCache(directory: directory, configuration: configuration(maxSize: 10 * size))
        for i in 0..<7 { try cache.setData(payload, forKey: "k\(i)") }
        #expect(exists(temporary))
        #expect(cache.totalSize + temporarySize <= 10 * size, "\(cache.totalCount) entries and the temporary file")
        #expect(cache.containsData(forKey: "k6"), "the entry just written stays")
    }
}
