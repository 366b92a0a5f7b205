import Dispatch
import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The manager's decisions after the memory tier, against a mock cache, a scripted loader and a mock
/// transformer: no socket, no disk.
@Suite struct ImageManagerPipelineTests {
    let url = URL(string: "https://images.example.com/a.png")!
    let cache = MockImageCache(looksUpMemoryDuringCall: false)
    let loader = ScriptedLoader()

    /// Starts a load and returns what it delivers, in order, once its final result has come (at most 10 s).
    private func results(
        _ manager: ImageManager, options: ImageOptions = [], context: ImageContext = ImageContext(),
        while act: @Sendable () async throws -> Void = {}
    ) async throws -> [Result<ImageLoadResult, WebImageError>] {
        let delivered = Locked<[Result<ImageLoadResult, WebImageError>]>([])
        manager.loadImage(url: url, options: options, context: context) { result in delivered.withLock { $0.append(result) } }
        try await act()
        let final = await waitUntil(timeout: .seconds(10)) {
            delivered.withLock { $0.contains { (try? $0.get())?.isFinal ?? true } }
        }
        #expect(final, "the load ended")
        return delivered.withLock { $0 }
    }

    @Test func aMissOfAThumbnailKeyIsAnsweredFromTheOriginalKeyWithoutTheLoader() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 2)
        let thumbnailKey = manager.cacheKey(for: url, context: context)
        cache.preload(solidImage(width: 4), data: Data("full".utf8), forKey: url.absoluteString)
        var originalTiers = context
        originalTiers.originalQueryCacheType = .all
        let delivered = try await results(manager, context: originalTiers)
        let loaded = try #require(delivered.last).get()
        #expect(loaded.outcome == .cached)
        #expect(cache.queriedKeys == [thumbnailKey, url.absoluteString], "the full key, then the original key")
        #expect(loader.all.isEmpty, "the network is not asked")
        #expect(cache.storedKeys.last == thumbnailKey, "the result goes under the thumbnail key")
    }

    @Test func refreshCachedDeliversTheCachedImageThenNotModifiedWithItsValidators() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let cached = solidImage(width: 3)
        cache.preload(cached, data: Data("old".utf8), revalidation: ImageRevalidation(entityTag: "\"v1\""), forKey: url.absoluteString)
        let delivered = try await results(manager, options: .refreshCached) { [loader, url] in
            let request = try #require(await loader.request(for: url))
            #expect(request.context.revalidation?.entityTag == "\"v1\"", "the request carries the stored validators")
            request.fail(WebImageError(.cacheNotModified, "304"))
        }
        let outcomes = try delivered.map { try $0.get().outcome }
        #expect(outcomes == [.refreshing, .notModified])
        #expect(try delivered.map { try $0.get().image }.allSatisfy { $0 === cached })
        #expect(manager.failedURLs.isEmpty, "not modified is no failure")
    }

    @Test func refreshCachedDeliversNewContentWhenTheBytesChanged() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        cache.preload(solidImage(width: 3), data: Data("old".utf8), forKey: url.absoluteString)
        let fresh = solidImage(width: 6)
        let delivered = try await results(manager, options: .refreshCached) { [loader, url] in
            try #require(await loader.request(for: url)).succeed(fresh, data: Data("new".utf8))
        }
        #expect(try delivered.map { try $0.get().outcome } == [.refreshing, .loaded])
        #expect(try delivered.last?.get().image === fresh)
        // The same bytes again are not modified, whatever the loader says of them.
        // Counted before the second load starts: it may reach the loader before `act` runs.
        let earlier = loader.all.count
        let again = try await results(manager, options: .refreshCached) { [loader] in
            #expect(await waitUntil(timeout: .seconds(10)) { loader.all.count == earlier + 1 })
            try #require(loader.all.last).succeed(solidImage(width: 7), data: Data("new".utf8))
        }
        #expect(try again.map { try $0.get().outcome } == [.refreshing, .notModified])
    }

    @Test func waitStoreCacheCompletesOnlyOnceTheStoresHaveEndedAndReportsTheirFailure() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        cache.holdStores()
        let delivered = Locked<[Result<ImageLoadResult, WebImageError>]>([])
        manager.loadImage(url: url, options: .waitStoreCache) { result in delivered.withLock { $0.append(result) } }
        try #require(await loader.request(for: url)).succeed(solidImage(width: 3))
        #expect(await waitUntil(timeout: .seconds(10)) { cache.counts.stores == 1 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(delivered.withLock { $0.isEmpty }, "the load waits for its store")
        cache.releaseStores()
        #expect(await waitUntil(timeout: .seconds(10)) { delivered.withLock { $0.count } == 1 })
        #expect(try delivered.withLock { $0 }.first?.get().storeError == nil)

        // Without the option the result comes before the store ends; with it, a failed store is on the result.
        cache.holdStores()
        let other = URL(string: "https://images.example.com/b.png")!
        let early = Locked<ImageLoadResult?>(nil)
        manager.loadImage(url: other) { result in early.withLock { $0 = try? result.get() } }
        try #require(await loader.request(for: other)).succeed(solidImage(width: 3))
        #expect(await waitUntil(timeout: .seconds(10)) { early.withLock { $0 } != nil })
        cache.releaseStores()
        cache.failStores(with: WebImageError(.diskIO, "disk full"))
        let third = URL(string: "https://images.example.com/c.png")!
        let failed = Locked<ImageLoadResult?>(nil)
        manager.loadImage(url: third, options: .waitStoreCache) { result in failed.withLock { $0 = try? result.get() } }
        try #require(await loader.request(for: third)).succeed(solidImage(width: 3))
        #expect(await waitUntil(timeout: .seconds(10)) { failed.withLock { $0 } != nil })
        #expect(failed.withLock { $0 }?.storeError?.code == .diskIO)
    }

    @Test func aFailedURLIsRefusedUntilItExpires() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let manager = ImageManager(cache: cache, loader: loader, failedURLLifetime: .seconds(600)) { clock.withLock { $0 } }
        manager.shouldBlockFailedURL = { _, error in error.code == .badImageData }
        let first = try await results(manager) { [loader, url] in
            try #require(await loader.request(for: url)).fail(WebImageError(.badImageData, "not an image"))
        }
        #expect(first.map(\.failureCode) == [.badImageData])
        #expect(try await results(manager).map(\.failureCode) == [.blackListed])
        #expect(loader.all.count == 1, "a refused URL is not requested")

        clock.withLock { $0 += 599 }
        #expect(try await results(manager).map(\.failureCode) == [.blackListed])
        clock.withLock { $0 += 2 }
        let afterExpiry = try await results(manager) { [loader] in
            #expect(await waitUntil(timeout: .seconds(10)) { loader.all.count == 2 })
            try #require(loader.all.last).succeed(solidImage(width: 3))
        }
        #expect(try afterExpiry.last?.get().outcome == .loaded)
        #expect(manager.failedURLs.isEmpty, "a success clears the entry")
    }

    @Test func aCancelRacingTheResultCompletesEveryLoadExactlyOnce() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let rounds = 200
        let calls = Locked<[Int: [WebImageError.Code?]]>([:])
        for round in 0..<rounds {
            let roundURL = URL(string: "https://images.example.com/\(round).png")!
            let operation = manager.loadImage(url: roundURL) { result in
                calls.withLock { $0[round, default: []].append(result.failureCode) }
            }
            let request = try #require(await loader.request(for: roundURL))
            DispatchQueue.concurrentPerform(iterations: 2) { side in
                if side == 0 { operation.cancel() } else { request.succeed(solidImage(width: 2)) }
            }
        }
        #expect(await waitUntil(timeout: .seconds(20)) { calls.withLock { $0.count } == rounds })
        try await Task.sleep(for: .milliseconds(50))
        let all = calls.withLock { $0 }
        #expect(all.values.allSatisfy { $0.count == 1 }, "one completion per load")
        #expect(all.values.allSatisfy { $0 == [nil] || $0 == [.cancelled] })
        #expect(!manager.isRunning)
    }

    @Test func aTransformRunsOnceAndItsResultIsStoredUnderTheTransformedKey() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let transformer = MockTransformer(key: "shrink", width: 2)
        manager.transformer = transformer
        let key = manager.cacheKey(for: url)
        #expect(key != url.absoluteString)
        let delivered = try await results(manager) { [loader, url] in
            try #require(await loader.request(for: url)).succeed(solidImage(width: 9))
        }
        #expect(try delivered.last?.get().image.pixelSize.width == 2)
        #expect(transformer.callCount == 1)
        #expect(cache.storedKeys.contains(key))
    }
}
