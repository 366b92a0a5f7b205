import Dispatch
import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// ImageCache over both tiers, with a mock coder whose decodes are counted.
@Suite final class ImageCacheTests {
    let directory: URL
    let coder = MockCoder(magic: "MOCK", format: .png, color: .blue)
    let cache: ImageCache

    init() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("image-cache-\(UUID().uuidString)")
        cache = ImageCache(
            memoryCache: MemoryCache(costLimit: 1 << 24),
            diskCache: DiskCache(directory: directory),
            coder: coder
        )
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    let mockData = Data("MOCK-image".utf8)

    private func image(_ color: RGBAColor = .red, side: Int = 8) throws -> Image {
        Image(pixels: try PixelBuffer(width: side, height: side, color: color), format: .png, hasAlpha: false)
    }

    /// Runs a query and waits for its single result.
    private func query(
        _ key: String,
        options: ImageOptions = [],
        context: ImageContext = ImageContext(),
        cacheType: ImageCacheType = .all
    ) async -> Result<ImageCacheQueryResult, WebImageError> {
        await withCheckedContinuation { continuation in
            cache.query(key: key, options: options, context: context, cacheType: cacheType) { continuation.resume(returning: $0) }
        }
    }

    private func storeToDisk(_ data: Data, key: String) async throws {
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            cache.store(nil, data: data, key: key, cacheType: .disk) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    @Test func memoryHitCompletesDuringTheCall() throws {
        let stored = try image()
        cache.store(stored, data: nil, key: "k", cacheType: .memory)
        let seen = Locked<ImageCacheQueryResult?>(nil)
        let token = cache.query(key: "k") { result in seen.withLock { $0 = try? result.get() } }
        let found = try #require(seen.withLock { $0 }, "the memory hit was delivered before query returned")
        #expect(found.image === stored)
        #expect(found.cacheType == .memory)
        #expect(found.data == nil)
        #expect(token.isFinished)
    }

    @Test func diskHitDecodesAndWritesBackToMemory() async throws {
        try await storeToDisk(mockData, key: "disk-key")
        #expect(cache.imageFromMemory(forKey: "disk-key") == nil)
        let found = try await query("disk-key").get()
        #expect(found.cacheType == .disk)
        #expect(found.data == mockData)
        #expect(found.image?.pixels[x: 0, y: 0] == .blue)
        #expect(cache.imageFromMemory(forKey: "disk-key") === found.image)
        #expect(coder.decodeCount == 1)

        // The context's store type can leave memory out.
        try await storeToDisk(mockData, key: "no-write-back")
        var context = ImageContext()
        context.storeCacheType = .disk
        _ = try await query("no-write-back", context: context).get()
        #expect(cache.imageFromMemory(forKey: "no-write-back") == nil)
    }

    @Test func missIsAnEmptyResult() async throws {
        let miss = try await query("absent").get()
        #expect(miss.image == nil && miss.cacheType == .none)
        let memoryOnly = try await query("absent", cacheType: .memory).get()
        #expect(memoryOnly.cacheType == .none)
        let none = try await query("absent", cacheType: .none).get()
        #expect(none.image == nil)
        let empty = try await query("").get()
        #expect(empty.image == nil)
    }

    @Test func thumbnailOfAFullSizeEntryGoesToMemoryUnderTheThumbnailKey() async throws {
        try await storeToDisk(mockData, key: "https://x.org/full.png")
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 4)
        let found = try await query("https://x.org/full.png", context: context).get()
        #expect(found.image?.pixelSize == PixelSize(square: 4))
        let thumbnailKey = ImageCacheKeys.thumbnailKey(for: "https://x.org/full.png", size: PixelSize(square: 4), preserveAspectRatio: true)
        #expect(cache.imageFromMemory(forKey: thumbnailKey) === found.image)
        #expect(cache.imageFromMemory(forKey: "https://x.org/full.png") == nil, "the thumbnail never stands in for the full image")
        // The full-size query decodes the full image.
        let full = try await query("https://x.org/full.png").get()
        #expect(full.image?.pixelSize == PixelSize(square: 8))
    }

    @Test func concurrentQueriesShareOneReadAndOneDecode() async throws {
        try await storeToDisk(mockData, key: "shared")
        // Hold the IO queue so that every query joins the first one's read before it starts.
        let gate = DispatchSemaphore(value: 0)
        cache.diskCache.perform { _ in gate.wait() }
        let results = Locked<[Image?]>([])
        let done = DispatchGroup()
        for _ in 0..<20 {
            done.enter()
            cache.query(key: "shared", cacheType: .disk) { result in
                results.withLock { $0.append(try? result.get().image) }
                done.leave()
            }
        }
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let images = results.withLock { $0 }
        #expect(images.count == 20)
        #expect(images.allSatisfy { $0 != nil && $0 === images[0] }, "every query gets the one decoded image")
        #expect(coder.decodeCount == 1, "queries joining a read in flight share its decode (\(coder.decodeCount) decodes)")
    }

    @Test func queriesCancelledBeforeTheReadNeverDecode() async throws {
        try await storeToDisk(mockData, key: "cancelled")
        // Hold the IO queue so that the query waits behind it.
        let gate = DispatchSemaphore(value: 0)
        cache.diskCache.perform { _ in gate.wait() }
        let results = Locked<[Result<ImageCacheQueryResult, WebImageError>]>([])
        let token = cache.query(key: "cancelled") { result in results.withLock { $0.append(result) } }
        token.cancel()
        token.cancel()
        gate.signal()
        // Let the IO queue and the executor drain.
        _ = cache.diskCache.totalCount
        try await Task.sleep(for: .milliseconds(50))
        let delivered = results.withLock { $0 }
        #expect(delivered.count == 1)
        if case .failure(let error) = delivered.first {
            #expect(error.code == .cancelled)
            #expect(error.message.contains("cancelled"))
        } else {
            Issue.record("expected cancelled, got \(delivered)")
        }
        #expect(coder.decodeCount == 0)
    }

    @Test func cancelRacingSuccessCompletesExactlyOnce() async throws {
        try await storeToDisk(mockData, key: "race")
        let calls = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<100 {
                let token = cache.query(key: "race", cacheType: i % 2 == 0 ? .disk : .all) { _ in calls.withLock { $0 += 1 } }
                group.addTask { token.cancel() }
            }
        }
        // Every query has completed or will: wait for the IO queue and the executor.
        _ = cache.diskCache.totalCount
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.withLock { $0 } == 100)
    }

    @Test func undecodableFilesAreRemovedAndMissed() async throws {
        try await storeToDisk(Data("GARBAGE".utf8), key: "corrupt")
        let found = try await query("corrupt").get()
        #expect(found.image == nil && found.cacheType == .none)
        _ = cache.diskCache.totalCount   // the removal is queued on the IO queue
        #expect(!cache.diskCache.containsData(forKey: "corrupt"))

        // A limit that refuses a good file is not corruption: the file stays.
        try await storeToDisk(mockData, key: "too-large")
        var context = ImageContext()
        context.decodeOptions = ImageDecodeOptions(maxPixelCount: 1)
        let refused = try await query("too-large", context: context).get()
        #expect(refused.image == nil)
        _ = cache.diskCache.totalCount
        #expect(cache.diskCache.containsData(forKey: "too-large"))
    }

    @Test func storingWithoutDataEncodes() async throws {
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            cache.store(try? image(side: 3), data: nil, key: "encoded") { continuation.resume(returning: $0) }
        }
        try result.get()
        #expect(coder.encodeCount == 1)
        #expect(cache.diskData(forKey: "encoded") == Data("MOCK3x3".utf8))
        #expect(cache.containsImage(forKey: "encoded") == .memory)
        #expect(cache.containsImage(forKey: "encoded", cacheType: .disk) == .disk)
    }

    /// Stores `image` without data and waits for the store to finish.
    private func storeWithoutData(_ image: Image, key: String, context: ImageContext = ImageContext()) async throws {
        let result: Result<Void, WebImageError> = await withCheckedContinuation { continuation in
            cache.store(image, data: nil, key: key, context: context) { continuation.resume(returning: $0) }
        }
        try result.get()
    }

    /// An image showing the first frame of `animation`, as a load with frames on demand delivers it, in the
    /// format the mock coder encodes.
    private func onDemandImage(_ animation: AnimatedImage) throws -> Image {
        Image(
            frames: [ImageFrame(pixels: try animation.frame(at: 0), duration: animation.duration(ofFrameAt: 0))],
            format: coder.format, hasAlpha: false, decodeOptions: animation.decodeOptions, animation: animation
        )
    }

    @Test func anAnimationStoredWithoutDataKeepsTheBytesItCameFrom() async throws {
        let original = Data("GIF89a-original-bytes".utf8)
        let animation = AnimatedImage(provider: SyntheticAnimation(durations: [0.1, 0.1, 0.1], data: original))
        try await storeWithoutData(try onDemandImage(animation), key: "animated")
        #expect(coder.encodeCount == 0, "nothing is encoded")
        #expect(cache.diskData(forKey: "animated") == original)
    }

    @Test func anAnimationDecodedReducedOrEncodedSmallerIsEncoded() async throws {
        let original = Data("GIF89a-original-bytes".utf8)
        var thumbnail = ImageDecodeOptions(framesOnDemand: true)
        thumbnail.thumbnailPixelSize = PixelSize(square: 2)
        let reduced = AnimatedImage(
            provider: SyntheticAnimation(durations: [0.1, 0.1], size: PixelSize(width: 2, height: 1), data: original),
            decodeOptions: thumbnail
        )
        try await storeWithoutData(try onDemandImage(reduced), key: "thumbnail")
        #expect(cache.diskData(forKey: "thumbnail") != original, "a thumbnail's frames are not what the bytes decode to")

        let whole = AnimatedImage(provider: SyntheticAnimation(durations: [0.1, 0.1], data: original))
        var smaller = ImageContext()
        smaller.encodeOptions = ImageEncodeOptions(maxPixelSize: PixelSize(square: 1))
        try await storeWithoutData(try onDemandImage(whole), key: "smaller", context: smaller)
        #expect(cache.diskData(forKey: "smaller") != original, "the encode options ask for fewer pixels")
        #expect(coder.encodeCount == 2)

        var lighter = ImageContext()
        lighter.encodeOptions = ImageEncodeOptions(maxFileSize: original.count - 1)
        try await storeWithoutData(try onDemandImage(whole), key: "lighter", context: lighter)
        #expect(coder.encodeCount == 3, "the encode options ask for fewer bytes than the original has")
        var roomy = ImageContext()
        roomy.encodeOptions = ImageEncodeOptions(maxFileSize: original.count)
        try await storeWithoutData(try onDemandImage(whole), key: "roomy", context: roomy)
        #expect(cache.diskData(forKey: "roomy") == original, "the original fits the size limit")
        #expect(coder.encodeCount == 3)
    }

    @Test func synchronousQueryOptions() throws {
        let dataDone = DispatchSemaphore(value: 0)
        cache.store(nil, data: mockData, key: "sync", cacheType: .disk) { _ in dataDone.signal() }
        dataDone.wait()
        let seen = Locked<ImageCacheQueryResult?>(nil)
        cache.query(key: "sync", options: .queryDiskDataSync) { result in seen.withLock { $0 = try? result.get() } }
        #expect(seen.withLock { $0 }?.cacheType == .disk, "queryDiskDataSync completes during the call")

        seen.withLock { $0 = nil }
        cache.query(key: "sync", options: [.queryMemoryData, .queryMemoryDataSync]) { result in seen.withLock { $0 = try? result.get() } }
        let withData = try #require(seen.withLock { $0 })
        #expect(withData.cacheType == .memory)
        #expect(withData.data == mockData)
    }

    @Test func firstFrameOnlyAndMatchingAnimations() throws {
        let a = try PixelBuffer(width: 2, height: 2, color: .red)
        let b = try PixelBuffer(width: 2, height: 2, color: .green)
        let animation = Image(frames: [ImageFrame(pixels: a, duration: 0.1), ImageFrame(pixels: b, duration: 0.1)], format: .gif, hasAlpha: false)
        cache.store(animation, data: nil, key: "anim", cacheType: .memory)
        let first = cache.imageFromCache(forKey: "anim", options: .decodeFirstFrameOnly)
        #expect(first?.isAnimated == false)
        #expect(first?.pixels === a)
        #expect(cache.imageFromCache(forKey: "anim")?.isAnimated == true)

        // A first-frame-only decode in memory cannot stand in for the animation.
        let still = animation.firstFrame.recording(decodeOptions: ImageDecodeOptions(firstFrameOnly: true))
        cache.store(still, data: nil, key: "still", cacheType: .memory)
        #expect(cache.imageFromCache(forKey: "still") != nil)
        #expect(cache.imageFromCache(forKey: "still", options: .matchAnimatedImageClass) == nil)
    }

    @Test func removeClearContainsAndSize() async throws {
        cache.store(try image(), data: mockData, key: "a", completion: nil)
        cache.store(try image(), data: mockData, key: "b", completion: nil)
        let size: (Int, Int) = await withCheckedContinuation { continuation in
            cache.calculateSize { count, bytes in continuation.resume(returning: (count, bytes)) }
        }
        #expect(size.0 == 2 && size.1 > 0)
        let found: ImageCacheType = await withCheckedContinuation { continuation in
            cache.contains(key: "a") { continuation.resume(returning: $0) }
        }
        #expect(found == .memory)
        await withCheckedContinuation { continuation in cache.remove(key: "a", cacheType: .memory) { continuation.resume() } }
        let onDisk: ImageCacheType = await withCheckedContinuation { continuation in
            cache.contains(key: "a") { continuation.resume(returning: $0) }
        }
        #expect(onDisk == .disk)
        await withCheckedContinuation { continuation in cache.remove(key: "a") { continuation.resume() } }
        #expect(cache.containsImage(forKey: "a") == .none)
        await withCheckedContinuation { continuation in cache.clear { continuation.resume() } }
        #expect(cache.containsImage(forKey: "b") == .none)
        #expect(cache.diskCache.totalCount == 0)
        await withCheckedContinuation { continuation in cache.removeExpiredData { continuation.resume() } }
    }

    @Test func completionsGoToTheCallbackQueue() async throws {
        try await storeToDisk(mockData, key: "queued")
        let queue = DispatchQueue(label: "image-cache-callbacks")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        var context = ImageContext()
        context.callbackQueue = CallbackQueue(queue)
        let onQueue: Bool = await withCheckedContinuation { continuation in
            cache.query(key: "queued", context: context) { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == 1)
            }
        }
        #expect(onQueue)
    }
}
