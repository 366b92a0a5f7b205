import Dispatch
import Foundation
import Glibc
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// A full disk and a read-only file system, injected: stores fail with `diskIO` naming the key, what was stored
/// stays intact and the index stays right.
@Suite final class DiskCacheFaultTests {
    let root: URL
    let directory: URL

    init() throws {
        root = try DiskCacheTesting.makeTemporaryDirectory()
        directory = root.appendingPathComponent("default")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func visibleAndHiddenNames() throws -> [String] {
        try DiskCacheTesting.names(in: directory)
    }

    @Test func aFullDiskFailsTheStoreAndKeepsWhatWasStored() throws {
        let fileSystem = FaultyFileSystem()
        let cache = DiskCache(directory: directory, fileSystem: fileSystem)
        let kept = Data(repeating: 1, count: 50_000)
        try cache.setData(kept, forKey: "kept")
        let size = cache.totalSize

        // 10,000 more bytes fit on the device, then ENOSPC: the write stops half-way.
        fileSystem.setWriteBudget(10_000)
        let error = try #require(throws: WebImageError.self) {
            try cache.setData(Data(repeating: 2, count: 40_000), forKey: "https://example.com/new.png")
        }
        #expect(error.code == .diskIO)
        #expect(error.message.contains("https://example.com/new.png"))
        #expect(error.message.contains(directory.path))
        #expect(error.message.contains("No space left on device"))
        #expect(fileSystem.bytesWrittenPartially > 0, "the failure came in the middle of a write")

        // Replacing the stored entry fails the same way and leaves it whole.
        #expect(throws: WebImageError.self) { try cache.setData(Data(repeating: 3, count: 60_000), forKey: "kept") }

        #expect(cache.data(forKey: "kept") == kept)
        #expect(cache.data(forKey: "https://example.com/new.png") == nil)
        #expect(cache.totalCount == 1 && cache.totalSize == size)
        #expect(try visibleAndHiddenNames() == [DiskCache.fileName(forKey: "kept")], "no temporary file is left")

        fileSystem.setWriteBudget(nil)
        try cache.setData(Data(repeating: 2, count: 40_000), forKey: "https://example.com/new.png")
        #expect(cache.totalCount == 2)
    }

    @Test func aReadOnlyFileSystemFailsStoresAndRemovalsButServesHits() throws {
        let fileSystem = FaultyFileSystem()
        var configuration = DiskCache.Configuration()
        configuration.maxAge = 0
        let cache = DiskCache(directory: directory, configuration: configuration, fileSystem: fileSystem)
        let kept = Data("kept".utf8)
        try cache.setData(kept, forKey: "kept")
        let size = cache.totalSize

        fileSystem.setReadOnly(true)
        for key in ["kept", "new"] {
            let error = try #require(throws: WebImageError.self) { try cache.setData(Data("x".utf8), forKey: key) }
            #expect(error.code == .diskIO)
            #expect(error.message.contains("\"\(key)\""))
            #expect(error.message.contains("Read-only file system"))
        }
        #expect(cache.data(forKey: "kept") == kept, "hits are served; only the access date cannot move")

        cache.removeData(forKey: "kept")
        #expect(cache.totalCount == 1, "a file that could not be removed stays in the index")
        cache.removeExpiredData()
        #expect(cache.totalCount == 1 && cache.totalSize == size)
        let trim = try #require(throws: WebImageError.self) { try cache.applyLimits() }
        #expect(trim.code == .diskIO)
        #expect(trim.message.contains(directory.path) && trim.message.contains("Read-only file system"), "\(trim.message)")
        #expect(cache.totalCount == 1 && cache.totalSize == size)
        let error = try #require(throws: WebImageError.self) { try cache.removeAll() }
        #expect(error.code == .diskIO && error.message.contains(directory.path))
        #expect(cache.totalCount == 1)
        #expect(throws: WebImageError.self) { try cache.setExtendedData(Data("e".utf8), forKey: "kept") }

        fileSystem.setReadOnly(false)
        #expect(cache.data(forKey: "kept") == kept)
        try cache.removeAll()
        #expect(cache.totalCount == 0)
    }

    /// The image cache's maintenance calls with a result say what the disk tier could not do.
    @Test func imageCacheMaintenanceReportsWhatTheDiskCouldNotDo() async throws {
        let fileSystem = FaultyFileSystem()
        var configuration = DiskCache.Configuration()
        configuration.maxAge = 0
        let disk = DiskCache(directory: directory, configuration: configuration, fileSystem: fileSystem)
        let cache = ImageCache(memoryCache: MemoryCache(costLimit: 1 << 20), diskCache: disk, coder: MockCoder(magic: "MOCK", format: .png, color: .blue))
        try await disk.setData(Data("MOCK-image".utf8), forKey: "kept")

        fileSystem.setReadOnly(true)
        let expired = await withCheckedContinuation { continuation in
            cache.deleteOldFiles { continuation.resume(returning: $0) }
        }
        #expect(throws: WebImageError.self) { try expired.get() }
        let cleared = await withCheckedContinuation { continuation in
            cache.clearDisk { continuation.resume(returning: $0) }
        }
        let error = try #require(throws: WebImageError.self) { try cleared.get() }
        #expect(error.code == .diskIO && error.message.contains(directory.path) && error.message.contains("Read-only file system"))
        #expect(disk.totalCount == 1)
        let trim = await #expect(throws: WebImageError.self) { try await disk.applyLimits() }
        #expect(trim?.message.contains("Read-only file system") == true)

        fileSystem.setReadOnly(false)
        let done = await withCheckedContinuation { continuation in
            cache.deleteOldFiles { continuation.resume(returning: $0) }
        }
        #expect(throws: Never.self) { try done.get() }
        #expect(disk.totalCount == 0)
        try await disk.setData(Data("MOCK-image".utf8), forKey: "again")
        let emptied = await withCheckedContinuation { continuation in
            cache.clearDisk { continuation.resume(returning: $0) }
        }
        #expect(throws: Never.self) { try emptied.get() }
        #expect(disk.totalCount == 0)
    }

    /// A disk write that fails reaches the image cache's store completion as `diskIO`, naming the key and the
    /// system's error; the memory tier has the image all the same.
    @Test func imageCacheStoreReportsAFailedWriteAsDiskIO() async throws {
        let fileSystem = FaultyFileSystem()
        let disk = DiskCache(directory: directory, fileSystem: fileSystem)
        let cache = ImageCache(memoryCache: MemoryCache(costLimit: 1 << 20), diskCache: disk, coder: MockCoder(magic: "MOCK", format: .png, color: .blue))
        let image = Image(pixels: try PixelBuffer(width: 4, height: 4, color: .red), format: .png, hasAlpha: false)
        fileSystem.setWriteBudget(3)
        let stored = await withCheckedContinuation { continuation in
            cache.store(image, data: Data("MOCK-image".utf8), key: "https://example.com/full.png") { continuation.resume(returning: $0) }
        }
        let error = try #require(throws: WebImageError.self) { try stored.get() }
        #expect(error.code == .diskIO)
        #expect(error.message.contains("https://example.com/full.png") && error.message.contains("No space left on device"))
        #expect(cache.imageFromMemory(forKey: "https://example.com/full.png") != nil)
        #expect(disk.totalCount == 0)
    }

    /// A directory that cannot hold the shared ledger: the cache keeps the limit over what it sees itself.
    @Test func withoutASharedLedgerTheLimitHoldsForTheCacheAlone() throws {
        let fileSystem = FaultyFileSystem()
        fileSystem.refuseSharedCounter(true)
        let payload = Data(repeating: 7, count: 1000)
        var configuration = DiskCache.Configuration()
        let probe = DiskCache(directory: root.appendingPathComponent("probe"))
        try probe.setData(payload, forKey: "probe")
        let size = probe.totalSize
        configuration.maxSize = 10 * size
        let cache = DiskCache(directory: directory, configuration: configuration, fileSystem: fileSystem)
        for i in 0..<25 { try cache.setData(payload, forKey: "k\(i)") }
        #expect(cache.totalSize <= 10 * size)
        #expect(cache.containsData(forKey: "k24"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(DiskCacheFileName.ledger).path))
    }

    @Test func aFailedFsyncAbandonsTheWrite() throws {
        let fileSystem = FaultyFileSystem()
        var configuration = DiskCache.Configuration()
        configuration.syncsWrites = true
        let cache = DiskCache(directory: directory, configuration: configuration, fileSystem: fileSystem)
        try cache.setData(Data("synced".utf8), forKey: "k")
        #expect(fileSystem.synchronizeCount >= 2, "the file and the directory")
        fileSystem.failSynchronize(true)
        let error = try #require(throws: WebImageError.self) { try cache.setData(Data("lost".utf8), forKey: "k") }
        #expect(error.message.contains("fsync"))
        #expect(cache.data(forKey: "k") == Data("synced".utf8))
        #expect(try visibleAndHiddenNames().count == 1)
    }
}

/// The real file system with failures switched on at will: a byte budget after which writes fail with ENOSPC,
/// a read-only mode (EROFS for every change), extended attributes refused (ENOTSUP), no shared ledger, failing
/// fsync, and directory listings held until the test lets them go.
final class FaultyFileSystem: DiskFileSystem {
    private struct State {
        var writeBudget: Int?
        var bytesWrittenPartially = 0
        var readOnly = false
        var refusesExtendedAttributes = false
        var refusesSharedCounter = false
        var failsSynchronize = false
        var synchronizeCount = 0
        var listingGate: DispatchSemaphore?
        var listingTimedOut = false
    }

    private let real = POSIXFileSystem()
    private let state = Locked(State())

    func setWriteBudget(_ bytes: Int?) { state.withLock { $0.writeBudget = bytes } }
    func setReadOnly(_ on: Bool) { state.withLock { $0.readOnly = on } }
    func refuseExtendedAttributes(_ on: Bool) { state.withLock { $0.refusesExtendedAttributes = on } }
    func refuseSharedCounter(_ on: Bool) { state.withLock { $0.refusesSharedCounter = on } }
    func failSynchronize(_ on: Bool) { state.withLock { $0.failsSynchronize = on } }
    var bytesWrittenPartially: Int { state.withLock { $0.bytesWrittenPartially } }
    var synchronizeCount: Int { state.withLock { $0.synchronizeCount } }
    var listingTimedOut: Bool { state.withLock { $0.listingTimedOut } }

    /// Makes directory listings wait until ``releaseListings()`` (at most 10 seconds).
    func holdListings() { state.withLock { $0.listingGate = DispatchSemaphore(value: 0) } }
    func releaseListings() { state.withLock { $0.listingGate }?.signal() }

    private func checkWritable(_ operation: String, _ path: String) throws(DiskFileError) {
        if state.withLock({ $0.readOnly }) { throw DiskFileError(code: EROFS, operation: operation, path: path) }
    }

    private func checkAttributes(_ operation: String, _ path: String) throws(DiskFileError) {
        if state.withLock({ $0.refusesExtendedAttributes }) { throw DiskFileError(code: ENOTSUP, operation: operation, path: path) }
    }

    func createFile(atPath path: String) throws(DiskFileError) -> DiskFileDescriptor {
        try checkWritable("create", path)
        return try real.createFile(atPath: path)
    }

    func write(_ data: Data, to file: DiskFileDescriptor, path: String) throws(DiskFileError) {
        let allowed: Int? = state.withLock { state in
            guard let budget = state.writeBudget else { return nil }
            let allowed = min(budget, data.count)
            state.writeBudget = budget - allowed
            if allowed < data.count { state.bytesWrittenPartially += allowed }
            return allowed
        }
        guard let allowed, allowed < data.count else { return try real.write(data, to: file, path: path) }
        try real.write(data.prefix(allowed), to: file, path: path)
        throw DiskFileError(code: ENOSPC, operation: "write", path: path)
    }

    func synchronize(_ file: DiskFileDescriptor, path: String) throws(DiskFileError) {
        let fails = state.withLock { state in
            state.synchronizeCount += 1
            return state.failsSynchronize
        }
        if fails { throw DiskFileError(code: EIO, operation: "fsync", path: path) }
        try real.synchronize(file, path: path)
    }

    func status(of file: DiskFileDescriptor, path: String) throws(DiskFileError) -> DiskFileStatus {
        try real.status(of: file, path: path)
    }

    func close(_ file: DiskFileDescriptor) {
        real.close(file)
    }

    func rename(_ source: String, to destination: String) throws(DiskFileError) {
        try checkWritable("rename", destination)
        try real.rename(source, to: destination)
    }

    func synchronizeDirectory(atPath path: String) throws(DiskFileError) {
        let fails = state.withLock { state in
            state.synchronizeCount += 1
            return state.failsSynchronize
        }
        if fails { throw DiskFileError(code: EIO, operation: "fsync", path: path) }
        try real.synchronizeDirectory(atPath: path)
    }

    func readFile(atPath path: String) throws(DiskFileError) -> (Data, DiskFileStatus) {
        try real.readFile(atPath: path)
    }

    func status(atPath path: String) throws(DiskFileError) -> DiskFileStatus {
        try real.status(atPath: path)
    }

    func removeFile(atPath path: String) throws(DiskFileError) {
        try checkWritable("unlink", path)
        try real.removeFile(atPath: path)
    }

    func removeFileUnlessLocked(atPath path: String) throws(DiskFileError) -> Bool {
        try checkWritable("unlink", path)
        return try real.removeFileUnlessLocked(atPath: path)
    }

    func openSharedCounter(atPath path: String) throws(DiskFileError) -> any DiskSharedCounter {
        if state.withLock({ $0.refusesSharedCounter }) { throw DiskFileError(code: EROFS, operation: "open", path: path) }
        return try real.openSharedCounter(atPath: path)
    }

    func setAccessDateToNow(atPath path: String) throws(DiskFileError) {
        try checkWritable("utimensat", path)
        try real.setAccessDateToNow(atPath: path)
    }

    func contentsOfDirectory(atPath path: String) throws(DiskFileError) -> [DiskDirectoryEntry] {
        if let gate = state.withLock({ $0.listingGate }) {
            if gate.wait(timeout: .now() + 10) == .timedOut {
                state.withLock { $0.listingTimedOut = true }
            }
            state.withLock { $0.listingGate = nil }
        }
        return try real.contentsOfDirectory(atPath: path)
    }

    func createDirectory(atPath path: String) throws(DiskFileError) {
        try checkWritable("mkdir", path)
        try real.createDirectory(atPath: path)
    }

    func extendedAttribute(named name: String, atPath path: String) throws(DiskFileError) -> Data? {
        try checkAttributes("getxattr", path)
        return try real.extendedAttribute(named: name, atPath: path)
    }

    func setExtendedAttribute(named name: String, to value: Data, atPath path: String) throws(DiskFileError) {
        try checkAttributes("setxattr", path)
        try checkWritable("setxattr", path)
        try real.setExtendedAttribute(named: name, to: value, atPath: path)
    }

    func removeExtendedAttribute(named name: String, atPath path: String) throws(DiskFileError) {
        try checkAttributes("removexattr", path)
        try checkWritable("removexattr", path)
        try real.removeExtendedAttribute(named: name, atPath: path)
    }
}
