import Dispatch
import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The async forms of ImageCache: the callback operations awaited, with the query cancelled with its task.
@Suite final class ImageCacheAsyncTests {
    let directory: URL
    let coder = MockCoder(magic: "MOCK", format: .png, color: .blue)
    let cache: ImageCache
    let mockData = Data("MOCK-image".utf8)

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-async-\(UUID().uuidString)")
        cache = ImageCache(memoryCache: MemoryCache(costLimit: 1 << 24), diskCache: DiskCache(directory: directory), coder: coder)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    private func image(_ color: RGBAColor = .red) throws -> Image {
        Image(pixels: try PixelBuffer(width: 8, height: 8, color: color), format: .png, hasAlpha: false)
    }

    @Test func queryReturnsMemoryHitsDiskHitsAndMisses() async throws {
        let stored = try image()
        try await cache.store(stored, data: nil, key: "memory", cacheType: .memory)
        let memory = try await cache.query(key: "memory")
        #expect(memory.cacheType == .memory)
        #expect(memory.image === stored)

        try await cache.store(nil, data: mockData, key: "disk", cacheType: .disk)
        let disk = try await cache.query(key: "disk")
        #expect(disk.cacheType == .disk)
        #expect(disk.data == mockData)
        #expect(disk.image?.pixelSize == PixelSize(width: 8, height: 8))
        #expect(coder.decodeCount == 1)

        let miss = try await cache.query(key: "absent")
        #expect(miss.cacheType == .none && miss.image == nil)
    }

    @Test func storeWithoutDataEncodesAndReturnsOnceWritten() async throws {
        try await cache.store(try image(), data: nil, key: "encoded")
        #expect(coder.encodeCount == 1)
        // Returned once written: the disk tier has it without any further wait.
        #expect(cache.diskCache.containsData(forKey: "encoded"))
    }

    @Test func storeThrowsWhatTheEncoderThrows() async throws {
        let gif = Image(pixels: try PixelBuffer(width: 2, height: 2, color: .red), format: .gif, hasAlpha: false)
        var context = ImageContext()
        context.imageCoder = MockCoder(magic: "NOPE", format: .webp)
        await #expect(throws: WebImageError.self) {
            try await self.cache.store(gif, data: nil, key: "unencodable", context: context, cacheType: .disk)
        }
        #expect(await cache.contains(key: "unencodable") == .none)
    }

    @Test func containsRemoveClearAndRemoveExpiredData() async throws {
        try await cache.store(try image(), data: mockData, key: "a")
        try await cache.store(nil, data: mockData, key: "b", cacheType: .disk)
        #expect(await cache.contains(key: "a") == .memory)
        #expect(await cache.contains(key: "b") == .disk)
        #expect(await cache.contains(key: "b", cacheType: .memory) == .none)

        await cache.remove(key: "a")
        #expect(await cache.contains(key: "a") == .none)

        await cache.removeExpiredData()
        #expect(await cache.contains(key: "b") == .disk, "a fresh entry is not expired")

        await cache.clear()
        #expect(await cache.contains(key: "b") == .none)
        #expect(cache.diskCache.totalCount == 0)
    }

    @Test func queryInACancelledTaskThrowsCancelledWithoutReading() async throws {
        try await cache.store(nil, data: mockData, key: "k", cacheType: .disk)
        let cache = cache
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await cache.query(key: "k")
        }
        await #expect(throws: WebImageError.self) { _ = try await task.value }
        do {
            _ = try await task.value
        } catch let error as WebImageError {
            #expect(error.code == .cancelled)
            #expect(error.message.contains("k"))
        }
        #expect(coder.decodeCount == 0)
    }

    @Test func cancellingTheTaskCancelsTheQueryAndSkipsTheRead() async throws {
        try await cache.store(nil, data: mockData, key: "held", cacheType: .disk)
        // Hold the IO queue, so that the query waits behind it until the test lets it go.
        let gate = DispatchSemaphore(value: 0)
        cache.diskCache.perform { _ in gate.wait() }
        let cache = cache
        let task = Task { try await cache.query(key: "held") }
        task.cancel()
        let outcome = await task.result
        gate.signal()
        #expect(throws: WebImageError.self) { _ = try outcome.get() }
        if case .failure(let error as WebImageError) = outcome { #expect(error.code == .cancelled) }
        // The skipped read leaves nothing in memory and decodes nothing (the IO queue has run it once this returns).
        _ = await cache.diskCache.totalCount()
        #expect(coder.decodeCount == 0)
        #expect(cache.memoryCache.image(forKey: "held") == nil)
    }
}
