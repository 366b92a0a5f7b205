import Foundation
import Testing
@testable import WebImageCore

/// The size limit of a directory several caches share: each cache has its own index, as each process has, and
/// the limit holds for them all. (`DiskCacheSharedLimitTests` does the same with processes.)
@Suite final class DiskCacheLedgerTests {
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

    /// The bytes the entries and temporary files in the directory occupy, listed now.
    private func bytesOnDisk() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") || $0.hasSuffix(DiskCacheFileName.temporarySuffix) }
            .map { DiskCacheTesting.allocatedSize(directory.appendingPathComponent($0).path) }
            .reduce(0, +)
    }

    @Test func cachesSharingADirectoryKeepOneLimit() throws {
        let size = try entrySize()
        let limit = 10 * size
        let caches = (0..<3).map { _ in DiskCache(directory: directory, configuration: configuration(maxSize: limit)) }
        for round in 0..<20 {
            for (index, cache) in caches.enumerated() {
                try cache.setData(payload, forKey: "https://example.com/\(index)/\(round).png")
                #expect(bytesOnDisk() <= limit, "after round \(round) of cache \(index)")
            }
        }
        #expect(bytesOnDisk() > 0)
    }
}
