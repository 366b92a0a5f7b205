import Foundation
import Testing
@testable import WebImageCore
import WebImageTestSupport

/// The operation's cache token lives as long as its query runs: once the query has answered, the load has gone on
/// and lets go of it, as SDWebImage sets its combined operation's cache operation to nil.
@Suite struct ImageManagerCacheTokenTests {
    let url = URL(string: "https://images.example.com/token.png")!
    let cache = MockImageCache(looksUpMemoryDuringCall: false)
    let loader = ScriptedLoader()

    @Test func aMissLetsGoOfTheCacheTokenBeforeTheLoaderIsAsked() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let finished = Locked(false)
        let operation = manager.loadImage(url: url) { _ in finished.withLock { $0 = true } }
        let request = try #require(await loader.request(for: url))
        #expect(cache.queriedKeys == [url.absoluteString], "the cache was asked first")
        #expect(operation.cacheToken == nil, "the query answered before the loader was asked")
        #expect(await waitUntil(timeout: .seconds(10)) { operation.loaderToken != nil })
        request.succeed(solidImage(width: 2))
        #expect(await waitUntil(timeout: .seconds(10)) { finished.withLock { $0 } })
        #expect(operation.cacheToken == nil)
        #expect(operation.isFinished)
    }

    @Test func aThumbnailLoadLetsGoOfBothQueries() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 2)
        let operation = manager.loadImage(url: url, context: context) { _ in }
        let request = try #require(await loader.request(for: url))
        #expect(cache.queriedKeys.count == 2, "the thumbnail key, then the original key")
        #expect(operation.cacheToken == nil, "both queries answered before the loader was asked")
        operation.cancel()
        #expect(await waitUntil(timeout: .seconds(10)) { request.isCancelled })
    }

    @Test func aDiskHitLetsGoOfTheCacheToken() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        cache.preload(solidImage(width: 3), data: Data("cached".utf8), forKey: url.absoluteString)
        let delivered = Locked<Result<ImageLoadResult, WebImageError>?>(nil)
        let operation = manager.loadImage(url: url) { result in delivered.withLock { $0 = result } }
        #expect(await waitUntil(timeout: .seconds(10)) { delivered.withLock { $0 != nil } })
        #expect(try delivered.withLock { $0 }?.get().outcome == .cached)
        #expect(operation.cacheToken == nil)
        #expect(loader.all.isEmpty)
    }
}
