import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The manager tells its cache when a load that looked a key up has ended, after its stores are handed over:
/// what a cache that claims keys across processes lets go of.
@Suite struct ImageManagerLoadEndedTests {
    let url = URL(string: "https://images.example.com/ended.png")!
    let cache = MockImageCache(looksUpMemoryDuringCall: false)
    let loader = ScriptedLoader()

    @Test func aLoadThatStoresEndsAfterItsStore() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let finished = Locked(false)
        manager.loadImage(url: url) { _ in finished.withLock { $0 = true } }
        let request = try #require(await loader.request(for: url))
        #expect(cache.endedKeys.isEmpty, "the load is still running")
        request.succeed(solidImage(width: 2))
        #expect(await waitUntil(timeout: .seconds(10)) { finished.withLock { $0 } })
        #expect(cache.storedKeys == [url.absoluteString])
        #expect(cache.endedKeys == [url.absoluteString])
    }

    @Test func aFailedLoadEnds() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let finished = Locked(false)
        manager.loadImage(url: url) { _ in finished.withLock { $0 = true } }
        let request = try #require(await loader.request(for: url))
        request.fail(WebImageError(.badServerResponse, "refused"))
        #expect(await waitUntil(timeout: .seconds(10)) { finished.withLock { $0 } })
        #expect(cache.storedKeys.isEmpty)
        #expect(cache.endedKeys == [url.absoluteString])
    }

    @Test func aCancelledLoadEnds() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        let operation = manager.loadImage(url: url) { _ in }
        _ = try #require(await loader.request(for: url))
        operation.cancel()
        #expect(await waitUntil(timeout: .seconds(10)) { cache.endedKeys == [url.absoluteString] })
    }

    /// A thumbnail load looked up the thumbnail's key and the original's: both end.
    @Test func aThumbnailLoadEndsBothKeys() async throws {
        let manager = ImageManager(cache: cache, loader: loader)
        var context = ImageContext()
        context.thumbnailPixelSize = PixelSize(square: 2)
        let finished = Locked(false)
        manager.loadImage(url: url, context: context) { _ in finished.withLock { $0 = true } }
        let request = try #require(await loader.request(for: url))
        request.fail(WebImageError(.badServerResponse, "refused"))
        #expect(await waitUntil(timeout: .seconds(10)) { finished.withLock { $0 } })
        #expect(Set(cache.endedKeys) == Set(cache.queriedKeys))
        #expect(cache.endedKeys.count == 2)
    }
}
