import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// The options and context keys of a load that mean something without a user interface, through the manager.
@Suite struct ImageManagerOptionsTests {
    @Test func fromLoaderOnlySkipsTheCacheButStores() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/png/rgb8.png")
            _ = try await harness.load(url).get()
            let again = try await harness.load(url, options: .fromLoaderOnly).get()
            #expect(again.outcome == .loaded)
            #expect(server.requestCount(forPath: "/image/png/rgb8.png") == 2)
            #expect(harness.manager.cachedImage(for: url) === again.image, "the new image replaced the old in memory")
        }
    }

    @Test func queryDiskDataSyncCompletesADiskHitDuringTheCall() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/png/rgb8.png")
            _ = try await harness.load(url, options: .waitStoreCache).get()
            harness.cache.memoryCache.removeAll()
            let found = Locked<ImageLoadResult?>(nil)
            harness.manager.loadImage(url: url, options: .queryDiskDataSync) { result in found.withLock { $0 = try? result.get() } }
            let hit = try #require(found.withLock { $0 })
            #expect(hit.cacheType == .disk)
            #expect(hit.data == Fixtures.data("png/rgb8.png"))
        }
    }

    @Test func queryMemoryDataReadsTheDiskDataOfAMemoryHit() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/png/rgb8.png")
            _ = try await harness.load(url, options: .waitStoreCache).get()
            #expect(try await harness.load(url).get().data == nil, "a plain memory hit has no data")
            let hit = try await harness.load(url, options: .queryMemoryData).get()
            #expect(hit.cacheType == .memory)
            #expect(hit.data == Fixtures.data("png/rgb8.png"))
        }
    }

    @Test func animationsAreTransformedOnlyWhenAsked() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let transformer = PaintTransformer()
            var context = ImageContext()
            context.imageTransformer = transformer
            let url = server.url("/image/gif/anim-loop3.gif")
            let skipped = try await harness.load(url, context: context).get()
            #expect(skipped.image.isAnimated)
            #expect(transformer.calls == 0)
            let transformed = try await harness.load(server.url("/image/gif/anim-loop3.gif?again"), options: .transformAnimatedImage, context: context).get()
            #expect(transformer.calls == 1)
            #expect(!transformed.image.isAnimated)
        }
    }

    @Test func decodeFirstFrameOnlyAndMatchAnimatedImageClass() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/gif/anim-loop3.gif")
            let first = try await harness.load(url, options: .decodeFirstFrameOnly).get()
            #expect(!first.image.isAnimated)
            // The cached first frame does not stand in for the animation when the frames are wanted.
            let full = try await harness.load(url, options: .matchAnimatedImageClass).get()
            #expect(full.image.isAnimated, "\(full.cacheType) \(full.outcome) \(full.image.frames.count)")
        }
    }

    @Test func cacheTypesOfTheContext() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/png/rgb8.png")
            var memoryOnly = ImageContext()
            memoryOnly.storeCacheType = .memory
            _ = try await harness.load(url, options: .waitStoreCache, context: memoryOnly).get()
            #expect(await !harness.cache.diskCache.containsData(forKey: url.absoluteString))
            #expect(harness.manager.cachedImage(for: url) != nil)

            var diskOnlyQuery = ImageContext()
            diskOnlyQuery.queryCacheType = .disk
            let missed = try await harness.load(url, context: diskOnlyQuery).get()
            #expect(missed.outcome == .loaded, "memory was not asked")
            #expect(server.requestCount(forPath: "/image/png/rgb8.png") == 2)

            var noOriginal = ImageContext()
            noOriginal.thumbnailPixelSize = PixelSize(width: 16, height: 12)
            noOriginal.originalStoreCacheType = ImageCacheType.none
            let other = server.url("/image/jpeg/photo.jpg")
            _ = try await harness.load(other, options: .waitStoreCache, context: noOriginal).get()
            #expect(await !harness.cache.diskCache.containsData(forKey: other.absoluteString), "the original was not stored")
            #expect(await harness.cache.diskCache.containsData(forKey: harness.manager.cacheKey(for: other, context: noOriginal)))
        }
    }

    @Test func serializerKeyFilterAndOptionsProcessor() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let marker = Data("serialized".utf8)
            harness.manager.cacheSerializer = { _, data, _ in data.map { marker + $0 } }
            harness.manager.cacheKeyFilter = { url in url.absoluteString.components(separatedBy: "?")[0] }
            let seen = Locked<[ImageOptions]>([])
            harness.manager.optionsProcessor = { _, options, context in
                seen.withLock { $0.append(options) }
                return (options.union(.waitStoreCache), context)
            }
            let url = server.url("/image/png/rgb8.png?signature=abc")
            _ = try await harness.load(url).get()
            let key = server.url("/image/png/rgb8.png").absoluteString
            #expect(await harness.cache.diskCache.data(forKey: key) == marker + Fixtures.data("png/rgb8.png"), "stored through the serializer, under the filtered key")
            #expect(seen.withLock { $0 } == [[]])
            // Another signature is the same key: a memory hit.
            let again = try await harness.load(server.url("/image/png/rgb8.png?signature=def")).get()
            #expect(again.cacheType == .memory)
        }
    }

    @Test func completionsRunOnTheContextsQueue() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let queue = DispatchQueue(label: "manager-test-callbacks")
            let key = DispatchSpecificKey<Int>()
            queue.setSpecific(key: key, value: 7)
            var context = ImageContext()
            context.callbackQueue = CallbackQueue(queue)
            let onQueue = Locked<[Bool]>([])
            let url = server.url("/image/png/rgb8.png")
            for _ in 0..<2 {
                await withCheckedContinuation { continuation in
                    harness.manager.loadImage(url: url, context: context) { _ in
                        onQueue.withLock { $0.append(DispatchQueue.getSpecific(key: key) == 7) }
                        continuation.resume()
                    }
                }
            }
            #expect(onQueue.withLock { $0 } == [true, true], "the network result and the memory hit")
        }
    }

    @Test func queryMemoryDataSyncReadsTheDataDuringTheCall() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/png/rgb8.png")
            _ = try await harness.load(url, options: .waitStoreCache).get()
            let found = Locked<ImageLoadResult?>(nil)
            harness.manager.loadImage(url: url, options: [.queryMemoryData, .queryMemoryDataSync]) { result in
                found.withLock { $0 = try? result.get() }
            }
            let hit = try #require(found.withLock { $0 }, "completed during the call")
            #expect(hit.cacheType == .memory)
            #expect(hit.data == Fixtures.data("png/rgb8.png"))
        }
    }

    @Test func scaleDownLimitsShrinkLargeImagesOnly() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            // The default limit leaves a small image alone.
            let plain = try await harness.load(server.url("/image/jpeg/photo.jpg"), options: .scaleDownLargeImages).get()
            #expect(plain.image.pixelSize == PixelSize(width: 320, height: 240))
            // A limit of a quarter of its bytes halves each side (or less).
            var context = ImageContext()
            context.scaleDownLimitBytes = 320 * 240 * 4 / 4
            let reduced = try await harness.load(server.url("/image/jpeg/photo.jpg?reduced"), context: context).get()
            #expect(reduced.image.width <= 160 && reduced.image.height <= 120)
            #expect(reduced.image.width * reduced.image.height * 4 <= 320 * 240)
        }
    }

    @Test func progressiveLoadsYieldPartialImagesBeforeTheResult() async throws {
        try await withTestHTTPServer { server in
            // Half of the body, then the rest only once the test has seen a partial image; should none come, the rest
            // is sent anyway after a while, so that the test fails instead of hanging.
            let half = TestHTTPSteppedBody(on: server)
            let harness = ManagerHarness()
            DispatchQueue.global().asyncAfter(deadline: .now() + 10) { half.release() }
            var events: [String] = []
            for try await event in harness.manager.imageLoadEvents(url: server.url("/half/webp/photo.webp?length=1"), options: .progressiveLoad) {
                switch event {
                case .progress: break
                case .partialImage(let image):
                    if !events.contains("partial") {
                        #expect(image.pixelSize == PixelSize(width: 320, height: 240))
                        half.release()
                    }
                    events.append("partial")
                case .result(let loaded):
                    events.append("result")
                    #expect(loaded.image.pixelSize == PixelSize(width: 320, height: 240))
                    #expect(!loaded.image.isIncremental)
                }
            }
            #expect(events.first == "partial")
            #expect(events.last == "result")
            #expect(events.filter { $0 == "result" }.count == 1)
        }
    }
}
