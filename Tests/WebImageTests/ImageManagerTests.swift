import Foundation
import Testing
import WebImage
import WebImageTestSupport
import WebImageCore

/// ImageManager end to end against the loopback server: the cache tiers, thumbnails and transformers with their
/// keys, the download decision, revalidation, and exactly-once completion.
@Suite struct ImageManagerTests {
    @Test func networkThenMemoryThenDisk() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/jpeg/photo.jpg")

            let first = try await harness.load(url).get()
            #expect(first.outcome == .loaded)
            #expect(first.cacheType == .none)
            #expect(first.image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(first.data == Fixtures.data("jpeg/photo.jpg"))

            // A memory hit completes during the call, on this thread.
            let duringCall = Locked<ImageLoadResult?>(nil)
            let operation = harness.manager.loadImage(url: url) { result in
                duringCall.withLock { $0 = try? result.get() }
            }
            #expect(operation.isFinished)
            let memory = try #require(duringCall.withLock { $0 })
            #expect(memory.cacheType == .memory)
            #expect(memory.outcome == .cached)
            #expect(harness.manager.cachedImage(for: url) != nil)

            harness.cache.memoryCache.removeAll()
            #expect(harness.manager.cachedImage(for: url) == nil)
            let disk = try await harness.load(url).get()
            #expect(disk.cacheType == .disk)
            #expect(disk.image.pixelSize == first.image.pixelSize)
            #expect(server.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)
            #expect(!harness.manager.isRunning)
        }
    }

    @Test func explicitFailuresForLoadsThatCannotStart() async throws {
        let harness = ManagerHarness()
        let none = await harness.load(nil)
        #expect(none.failureCode == .invalidURL)
        let unknown = await harness.load(URL(string: "ftp://127.0.0.1/a.png"))
        #expect(unknown.failureCode == .unsupportedScheme)
        let cacheOnly = await harness.load(URL(string: "http://127.0.0.1:9/missing.png"), options: .fromCacheOnly)
        #expect(cacheOnly.failureCode == .notInCache)
        harness.manager.shouldDownload = { _ in false }
        let declined = await harness.load(URL(string: "http://127.0.0.1:9/declined.png"))
        #expect(declined.failureCode == .notInCache)
        #expect(harness.manager.failedURLs.isEmpty)
    }

    @Test func thumbnailAfterAFullSizeDownloadComesFromDisk() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/jpeg/photo.jpg")
            _ = try await harness.load(url).get()
            harness.drainDisk()

            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(width: 40, height: 30)
            let thumbnail = try await harness.load(url, context: context).get()
            #expect(thumbnail.image.pixelSize == PixelSize(width: 40, height: 30))
            #expect(thumbnail.cacheType == .disk)
            #expect(thumbnail.data == nil, "a thumbnail has no data of its own")
            #expect(server.requestCount(forPath: "/image/jpeg/photo.jpg") == 1, "the network was not asked again")

            // The thumbnail is now in memory under its own key, which is SDWebImage's.
            let key = harness.manager.cacheKey(for: url, context: context)
            #expect(key == url.absoluteString.replacingOccurrences(of: "photo.jpg", with: "photo-Thumbnail(%7B40.000000,30.000000%7D,1).jpg"))
            #expect(harness.cache.memoryCache.image(forKey: key)?.pixelSize == PixelSize(width: 40, height: 30))
        }
    }

    @Test func thumbnailFromTheNetworkStoresTheFullSizeDataUnderTheOriginalKey() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/jpeg/photo.jpg")
            var context = ImageContext()
            context.thumbnailPixelSize = PixelSize(width: 80, height: 60)
            let thumbnail = try await harness.load(url, options: .waitStoreCache, context: context).get()
            #expect(thumbnail.image.pixelSize == PixelSize(width: 80, height: 60))
            #expect(thumbnail.outcome == .loaded)
            #expect(await harness.cache.diskCache.data(forKey: url.absoluteString) == Fixtures.data("jpeg/photo.jpg"))
            #expect(await harness.cache.diskCache.containsData(forKey: harness.manager.cacheKey(for: url, context: context)))
            #expect(harness.cache.memoryCache.image(forKey: url.absoluteString) == nil, "a thumbnail never stands for the full image")

            // Full size later: from the original disk entry, no request.
            harness.cache.memoryCache.removeAll()
            let full = try await harness.load(url).get()
            #expect(full.cacheType == .disk)
            #expect(full.image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(server.requestCount(forPath: "/image/jpeg/photo.jpg") == 1)
        }
    }

    @Test func transformedImagesAreCachedUnderTheTransformedKey() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let transformer = PaintTransformer()
            harness.manager.transformer = transformer
            let url = server.url("/image/png/rgb8.png")
            let first = try await harness.load(url, options: .waitStoreCache).get()
            #expect(first.image.pixels[x: 63, y: 47] == .red)
            #expect(first.data == nil, "a transformed image has no data of its own")
            #expect(transformer.calls == 1)

            let key = harness.manager.cacheKey(for: url)
            #expect(key.hasSuffix("/image/png/rgb8-PaintTransformer(red).png"))
            let again = try await harness.load(url).get()
            #expect(again.cacheType == .memory)
            #expect(transformer.calls == 1)

            // The original is on disk under its own key, the transformed image under the transformed key.
            #expect(await harness.cache.diskCache.data(forKey: url.absoluteString) == Fixtures.data("png/rgb8.png"))
            #expect(await harness.cache.diskCache.containsData(forKey: key))

            // A context may turn the manager's transformer off.
            var plain = ImageContext()
            plain.disablesTransformer = true
            #expect(harness.manager.cacheKey(for: url, context: plain) == url.absoluteString)
            let untransformed = try await harness.load(url, context: plain).get()
            #expect(untransformed.image.pixels[x: 63, y: 47] != .red)
            #expect(server.requestCount(forPath: "/image/png/rgb8.png") == 1)
        }
    }

    @Test func concurrentLoadsShareOneDownloadOneDecodeAndOneTransform() async throws {
        try await withTestHTTPServer { server in
            server.routes.registerPrefix("/slow/") { request, responder in
                responder.after(milliseconds: 200) {
                    responder.respond(status: 200, headers: [("Content-Type", "image/png")], body: Array(Fixtures.data("png/rgb8.png")))
                }
            }
            let harness = ManagerHarness()
            let transformer = PaintTransformer()
            let context = {
                var context = ImageContext()
                context.imageTransformer = transformer
                context.thumbnailPixelSize = PixelSize(width: 32, height: 24)
                return context
            }()
            let url = server.url("/slow/rgb8.png")
            async let first = harness.load(url, context: context)
            async let second = harness.load(url, context: context)
            let (a, b) = try await (first.get(), second.get())
            #expect(a.image === b.image, "one decode and one transform: the same image object")
            #expect(a.image.pixelSize == PixelSize(width: 32, height: 24))
            #expect(transformer.calls == 1)
            #expect(server.requestCount(forPath: "/slow/rgb8.png") == 1)
        }
    }

    @Test func cacheKeysFollowSDWebImage() {
        let harness = ManagerHarness()
        harness.manager.transformer = PaintTransformer(key: "SDImageFlippingTransformer(1,0)")
        let url = URL(string: "http://foo/image.png?foo=bar#mark")!
        #expect(harness.manager.cacheKey(for: url) == "http://foo/image-SDImageFlippingTransformer(1,0).png?foo=bar#mark")
        #expect(harness.manager.cacheKey(for: nil) == "")
        harness.manager.cacheKeyFilter = { url in url.absoluteString.components(separatedBy: "?")[0] }
        var context = ImageContext()
        context.disablesTransformer = true
        #expect(harness.manager.cacheKey(for: url, context: context) == "http://foo/image.png")
        context.thumbnailPixelSize = PixelSize(width: 100, height: 100)
        #expect(harness.manager.cacheKey(for: url, context: context) == "http://foo/image-Thumbnail(%7B100.000000,100.000000%7D,1).png")
    }

    @Test func refreshCachedRevalidatesWithTheStoredValidators() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/etag/jpeg/photo.jpg")
            _ = try await harness.load(url).get()
            harness.drainDisk()
            #expect(harness.cache.revalidation(forKey: url.absoluteString)?.entityTag != nil)

            let results = await harness.results(url, options: .refreshCached)
            #expect(results.count == 2)
            let first = try results[0].get()
            #expect(first.outcome == .refreshing)
            #expect(first.cacheType == .memory)
            let second = try results[1].get()
            #expect(second.outcome == .notModified)
            #expect(second.image.pixelSize == first.image.pixelSize)
            let headers = try #require(server.lastRequestHeaders(forPath: "/etag/jpeg/photo.jpg"))
            #expect(headers.contains { $0.0.lowercased() == "if-none-match" }, "the second request was conditional")
            #expect(server.requestCount(forPath: "/etag/jpeg/photo.jpg") == 2)
        }
    }

    @Test func refreshCachedDeliversChangedContent() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let url = server.url("/image/jpeg/photo.jpg")
            // Another image cached under this URL's key: the server's answer differs from it.
            let stale = try ImageCoderRegistry.shared.decode(Fixtures.data("png/rgb8.png"))
            await withCheckedContinuation { continuation in
                harness.cache.store(stale, data: Fixtures.data("png/rgb8.png"), key: url.absoluteString) { _ in continuation.resume() }
            }
            let results = await harness.results(url, options: .refreshCached)
            #expect(results.count == 2)
            #expect(try results[0].get().outcome == .refreshing)
            let fresh = try results[1].get()
            #expect(fresh.outcome == .loaded)
            #expect(fresh.image.pixelSize == PixelSize(width: 320, height: 240))
            #expect(harness.cache.memoryCache.image(forKey: url.absoluteString)?.pixelSize == PixelSize(width: 320, height: 240))
        }
    }

    @Test func waitStoreCacheCompletesAfterTheDiskWrite() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            for index in 0..<5 {
                let url = server.url("/image/png/rgb8.png?n=\(index)")
                _ = try await harness.load(url, options: .waitStoreCache).get()
                // No draining: the entry is already on disk.
                #expect(FileManager.default.fileExists(atPath: harness.cache.diskCache.path(forKey: url.absoluteString)))
            }
        }
    }

    @Test func cancellingCompletesOnceWithCancelled() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let count = Locked(0)
            let result = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
            let operation = harness.manager.loadImage(url: server.url("/generated?bytes=1000&delay_ms=2000")) { outcome in
                count.withLock { $0 += 1 }
                result.withLock { $0 = outcome }
            }
            #expect(harness.manager.isRunning)
            operation.cancel()
            operation.cancel()
            #expect(await eventually { count.withLock { $0 } == 1 })
            #expect(result.withLock { $0 }?.failureCode == .cancelled)
            #expect(operation.isCancelled)
            #expect(!harness.manager.isRunning)
            try await Task.sleep(for: .milliseconds(100))
            #expect(count.withLock { $0 } == 1)
            #expect(harness.manager.failedURLs.isEmpty, "a cancellation does not block the URL")
        }
    }

    @Test func operationsAreHandlesToTheirLoads() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let count = Locked(0)
            let slow = harness.manager.loadImage(url: server.url("/generated?bytes=1000&delay_ms=2000")) { _ in
                count.withLock { $0 += 1 }
            }
            let other = harness.manager.loadImage(url: server.url("/generated?bytes=1000&delay_ms=2000&n=2")) { _ in
                count.withLock { $0 += 1 }
            }
            let copy = slow
            #expect(copy == slow)
            #expect(other != slow)
            #expect(Set([slow, copy, other]).count == 2)

            // Cancelling a copy cancels the load: every copy sees it, and the completion runs once.
            copy.cancel()
            #expect(slow.isCancelled && slow.isFinished)
            #expect(!other.isFinished)
            other.cancel()
            #expect(await eventually { count.withLock { $0 } == 2 })
            #expect(!harness.manager.isRunning)

            // Memory hits: finished during the call, not cancellable, equal when their URLs are.
            let url = server.url("/image/png/rgb8.png")
            _ = try await harness.load(url).get()
            let first = harness.manager.loadImage(url: url) { _ in count.withLock { $0 += 1 } }
            let second = harness.manager.loadImage(url: url) { _ in count.withLock { $0 += 1 } }
            #expect(count.withLock { $0 } == 4)
            #expect(first.isFinished && !first.isCancelled)
            #expect(first == second)
            #expect(first.url == url)
            first.cancel()
            #expect(!first.isCancelled)
            #expect(count.withLock { $0 } == 4)
            #expect(first != slow)
        }
    }

    @Test func cancelStormCompletesEveryLoadExactlyOnce() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let total = 200
            let counts = Locked([Int](repeating: 0, count: total))
            var operations: [ImageLoadOperation] = []
            operations.reserveCapacity(total)
            for index in 0..<total {
                let url = server.url("/image/png/rgb8.png?n=\(index % 40)")
                operations.append(harness.manager.loadImage(url: url) { _ in counts.withLock { $0[index] += 1 } })
                if index % 3 == 0 { operations[index / 2].cancel() }
            }
            // Cancels from other threads, racing the results, then every load still running.
            let started = operations
            DispatchQueue.concurrentPerform(iterations: 4) { lane in
                for index in stride(from: lane, to: total, by: 8) { started[index].cancel() }
            }
            harness.manager.cancelAll()
            #expect(await eventually { counts.withLock { $0.allSatisfy { $0 >= 1 } } })
            try await Task.sleep(for: .milliseconds(100))
            #expect(counts.withLock { $0.allSatisfy { $0 == 1 } })
            #expect(await eventually { !harness.manager.isRunning })
        }
    }

    @Test func asyncLoadAndTaskCancellation() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            let loaded = try await harness.manager.loadImage(url: server.url("/image/gif/quad.gif"))
            #expect(loaded.image.pixelSize == PixelSize(width: 64, height: 48))

            let task = Task { try await harness.manager.loadImage(url: server.url("/generated?bytes=10&delay_ms=10000")) }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            do {
                _ = try await task.value
                Issue.record("a cancelled load returned a result")
            } catch let error as WebImageError {
                #expect(error.code == .cancelled)
            }
        }
    }

    @Test func eventStreamYieldsProgressThenTheResult() async throws {
        try await withTestHTTPServer { server in
            let harness = ManagerHarness()
            var sawProgress = false
            var result: ImageLoadResult?
            for try await event in harness.manager.imageLoadEvents(url: server.url("/image/jpeg/photo.jpg")) {
                switch event {
                case .progress: sawProgress = true
                case .partialImage: break
                case .result(let loaded): result = loaded
                }
            }
            #expect(sawProgress)
            #expect(result?.outcome == .loaded)
        }
    }
}

extension Result where Failure == WebImageError {
    /// The error's code, or nil for a success.
    var failureCode: WebImageError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
