import Foundation
import Testing
@testable import WebImageCore

/// Extended data: in an extended attribute, or in a sidecar file when the file system refuses attributes.
@Suite final class DiskCacheExtendedDataTests {
    let root: URL
    let directory: URL
    let etag = Data("W/\"etag-1234\"".utf8)

    init() throws {
        root = try DiskCacheTesting.makeTemporaryDirectory()
        directory = root.appendingPathComponent("default")
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func names() throws -> [String] {
        try DiskCacheTesting.names(in: directory)
    }

    @Test func storedInAnExtendedAttribute() throws {
        let cache = DiskCache(directory: directory)
        try cache.setData(Data("image".utf8), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        try cache.setExtendedData(etag, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == etag)
        let attribute = try POSIXFileSystem().extendedAttribute(named: DiskCacheStore.extendedAttributeName, atPath: cache.path(forKey: "k"))
        #expect(attribute == etag)
        #expect(try names() == [DiskCache.fileName(forKey: "k")], "no sidecar")
        #expect(DiskCache(directory: directory).extendedData(forKey: "k") == etag, "it survives a reopen")

        try cache.setExtendedData(nil, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        try cache.setExtendedData(etag, forKey: "k")
        try cache.setData(Data("new image".utf8), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil, "new data has no extended data")
    }

    @Test func largeExtendedDataRoundTrips() throws {
        let cache = DiskCache(directory: directory)
        try cache.setData(Data("image".utf8), forKey: "k")
        // Larger than ext4 accepts in an attribute: it goes wherever it fits.
        let large = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try cache.setExtendedData(large, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == large)
        cache.removeData(forKey: "k")
        #expect(try names().isEmpty)
    }

    @Test func aSidecarWhenTheFileSystemRefusesAttributes() throws {
        let fileSystem = FaultyFileSystem()
        fileSystem.refuseExtendedAttributes(true)
        let cache = DiskCache(directory: directory, fileSystem: fileSystem)
        try cache.setData(Data("image".utf8), forKey: "k")
        let size = cache.totalSize
        try cache.setExtendedData(etag, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == etag)

        let digest = DiskCache.digestName(forKey: "k")
        let sidecar = DiskCacheFileName.sidecar(forDigest: digest)
        #expect(try names() == [sidecar, DiskCache.fileName(forKey: "k")].sorted())
        #expect(FileManager.default.contents(atPath: directory.appendingPathComponent(sidecar).path) == etag)
        #expect(cache.totalCount == 1 && cache.totalSize == size, "sidecars are not counted")
        #expect(DiskCache(directory: directory, fileSystem: fileSystem).extendedData(forKey: "k") == etag)

        try cache.setExtendedData(nil, forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil)
        #expect(try names() == [DiskCache.fileName(forKey: "k")])

        try cache.setExtendedData(etag, forKey: "k")
        cache.removeData(forKey: "k")
        #expect(try names().isEmpty, "the sidecar goes with its entry")

        try cache.setData(Data("image".utf8), forKey: "k")
        try cache.setExtendedData(etag, forKey: "k")
        try cache.setData(Data("image 2".utf8), forKey: "k")
        #expect(cache.extendedData(forKey: "k") == nil, "new data drops the sidecar too")
    }

    @Test func sidecarsGoWhenTheirEntriesAreTrimmedOrCleared() throws {
        let fileSystem = FaultyFileSystem()
        fileSystem.refuseExtendedAttributes(true)
        var configuration = DiskCache.Configuration()
        configuration.maxAge = 0
        let cache = DiskCache(directory: directory, configuration: configuration, fileSystem: fileSystem)
        for key in ["a", "b"] {
            try cache.setData(Data(key.utf8), forKey: key)
            try cache.setExtendedData(etag, forKey: key)
        }
        #expect(try names().count == 4)
        cache.removeExpiredData()
        #expect(try names().isEmpty)

        try cache.setData(Data("c".utf8), forKey: "c")
        try cache.setExtendedData(etag, forKey: "c")
        try cache.removeAll()
        #expect(try names().isEmpty)
    }

    @Test func extendedDataNeedsAnEntry() throws {
        for refuses in [false, true] {
            let fileSystem = FaultyFileSystem()
            fileSystem.refuseExtendedAttributes(refuses)
            let cache = DiskCache(directory: directory, fileSystem: fileSystem)
            try cache.setData(Data("other".utf8), forKey: "other")
            let error = try #require(throws: WebImageError.self) { try cache.setExtendedData(etag, forKey: "missing") }
            #expect(error.code == .diskIO)
            #expect(error.message.contains("\"missing\""))
            #expect(cache.extendedData(forKey: "missing") == nil)
            try cache.setExtendedData(nil, forKey: "missing")
            #expect(try names() == [DiskCache.fileName(forKey: "other")])
        }
    }
}
