import Dispatch
import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// flush() on DiskCache and ImageCache: every write and removal asked for before it is on disk when it returns.
@Suite final class ImageCacheFlushTests {
    let directory: URL
    let coder = MockCoder(magic: "MOCK", format: .png)
    let cache: ImageCache

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-flush-\(UUID().uuidString)")
        cache = ImageCache(memoryCache: MemoryCache(costLimit: 1 << 24), diskCache: DiskCache(directory: directory), coder: coder)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func image(_ side: Int) throws -> Image {
        Image(pixels: try PixelBuffer(width: side, height: side, color: .green), format: .png, hasAlpha: false)
    }

    /// Reads the directory through a cache of its own, which shares nothing with the one that wrote it.
    private func entriesSeenByASecondCache() -> Set<String> {
        Self.entries(in: directory)
    }

    private static func entries(in directory: URL) -> Set<String> {
        Set(DiskCache(directory: directory).entryNames())
    }

    @Test func imageCacheFlushWaitsForWritesAndEncodesSubmittedBefore() async throws {
        // Half with data (written on the IO queue), half without (encoded on the executor first).
        let count = 60
        for index in 0..<count {
            if index.isMultiple(of: 2) {
                cache.store(nil, data: Data("MOCK-\(index)".utf8), key: "key-\(index)", cacheType: .disk, completion: nil)
            } else {
                cache.store(try image(index + 1), data: nil, key: "key-\(index)", cacheType: .disk, completion: nil)
            }
        }
        await cache.flush()
        let names = entriesSeenByASecondCache()
        let expected = Set((0..<count).map { DiskCache.fileName(forKey: "key-\($0)") })
        #expect(names == expected)
        for index in stride(from: 1, to: count, by: 2) {
            let data = FileManager.default.contents(atPath: cache.diskCache.path(forKey: "key-\(index)"))
            #expect(data == Data("MOCK\(index + 1)x\(index + 1)".utf8), "the encoded image of key-\(index)")
        }
    }

    @Test func imageCacheFlushWaitsForRemovals() async throws {
        for index in 0..<10 {
            try await cache.store(nil, data: Data("MOCK-\(index)".utf8), key: "key-\(index)", cacheType: .disk)
        }
        for index in 0..<10 where index != 3 { cache.remove(key: "key-\(index)", completion: nil) }
        await cache.flush()
        #expect(entriesSeenByASecondCache() == [DiskCache.fileName(forKey: "key-3")])
    }

    @Test func callbackFlushRunsOnItsQueueAfterTheWrites() async throws {
        let queue = DispatchQueue(label: "flush-callback")
        let onQueue = Locked(false)
        queue.setSpecific(key: Self.queueMarker, value: "flush-callback")
        for index in 0..<20 {
            cache.store(try image(index + 1), data: nil, key: "key-\(index)", cacheType: .disk, completion: nil)
        }
        let directory = directory
        let names: Set<String> = await withCheckedContinuation { continuation in
            cache.flush(callbackQueue: CallbackQueue(queue, policy: .dispatch)) {
                onQueue.withLock { $0 = DispatchQueue.getSpecific(key: Self.queueMarker) == "flush-callback" }
                continuation.resume(returning: Self.entries(in: directory))
            }
        }
        #expect(names.count == 20)
        #expect(onQueue.withLock { $0 })
    }

    /// The blocking form, which an async context would not pick.
    private static func flushSynchronously(_ disk: DiskCache) {
        disk.flush()
    }

    private static let queueMarker = DispatchSpecificKey<String>()

    @Test func flushWithNothingPendingReturns() async {
        await cache.flush()
        await cache.diskCache.flush()
        Self.flushSynchronously(cache.diskCache)
        #expect(entriesSeenByASecondCache().isEmpty)
    }

    @Test func diskCacheFlushIsABarrierOnTheIOQueue() async throws {
        let disk = cache.diskCache
        for index in 0..<40 {
            disk.perform { store in try? store.setData(Data("entry-\(index)".utf8), forKey: "disk-\(index)") }
        }
        await disk.flush()
        #expect(entriesSeenByASecondCache().count == 40)

        for index in 0..<40 {
            disk.perform { store in store.removeData(forKey: "disk-\(index)") }
        }
        Self.flushSynchronously(disk)
        #expect(entriesSeenByASecondCache().isEmpty)
    }
}
