import Foundation
import Testing
import WebImageCore
import WebImageTestSupport

/// The manager's one memory hit, against a mock cache and a scripted loader: no socket, no disk.
@Suite struct ImageManagerMemoryHitTests {
    let url = URL(string: "https://images.example.com/a.png")!

    @Test func aCacheWithASynchronousMemoryTierCompletesDuringTheCall() async throws {
        let cache = MockImageCache(looksUpMemoryDuringCall: true)
        let image = solidImage(width: 3)
        cache.preload(image, forKey: url.absoluteString)
        let loader = ScriptedLoader()
        let manager = ImageManager(cache: cache, loader: loader)

        // Both callback forms, then both async forms: each completes from memory without a query or a request.
        let delivered = Locked<[ImageCacheType]>([])
        let withoutContext = manager.loadImage(url: url) { result in
            delivered.withLock { $0.append((try? result.get())?.cacheType ?? .none) }
        }
        let withContext = manager.loadImage(url: url, context: ImageContext()) { result in
            delivered.withLock { $0.append((try? result.get())?.cacheType ?? .none) }
        }
        #expect(withoutContext.isFinished && withContext.isFinished)
        #expect(delivered.withLock { $0 } == [.memory, .memory])
        let awaited = try await manager.loadImage(url: url)
        let awaitedWithContext = try await manager.loadImage(url: url, context: ImageContext())
        #expect(awaited.image === image && awaitedWithContext.image === image)
        #expect(manager.cachedImage(for: url) === image)

        #expect(cache.counts == MockImageCache.Counts(memoryLookups: 5, queries: 0, stores: 0))
        #expect(loader.all.isEmpty)
    }

    @Test func aCacheWithoutOneIsQueriedThroughThePipeline() async throws {
        let cache = MockImageCache(looksUpMemoryDuringCall: false)
        let image = solidImage(width: 3)
        cache.preload(image, forKey: url.absoluteString)
        let manager = ImageManager(cache: cache, loader: ScriptedLoader())

        let loaded = try await manager.loadImage(url: url)
        #expect(loaded.image === image)
        #expect(loaded.cacheType == .memory)
        #expect(cache.counts.queries == 1, "the hit came from the asynchronous query")
        #expect(cache.counts.memoryLookups == 0)
        #expect(manager.cachedImage(for: url) == nil, "no synchronous look-up to answer from")
    }

    @Test(arguments: [ImageOptions.refreshCached, .fromLoaderOnly, .queryMemoryData])
    func optionsThatAskForMoreThanMemoryGoDownThePipeline(option: ImageOptions) async throws {
        let cache = MockImageCache(looksUpMemoryDuringCall: true)
        cache.preload(solidImage(width: 3), forKey: url.absoluteString)
        let loader = ScriptedLoader()
        let manager = ImageManager(cache: cache, loader: loader)
        // The pipeline's query answers from another thread, maybe before this call returns: what must not happen
        // is a completion on this thread during the call, as a memory hit's.
        let caller = pthread_self()
        let inCall = Locked(true)
        let completedDuringCall = Locked(false)
        let operation = manager.loadImage(url: url, options: option) { _ in
            if pthread_equal(pthread_self(), caller) != 0, inCall.withLock({ $0 }) { completedDuringCall.withLock { $0 = true } }
        }
        inCall.withLock { $0 = false }
        #expect(!completedDuringCall.withLock { $0 }, "not completed from memory during the call")
        #expect(cache.counts.memoryLookups == 0)
        operation.cancel()
    }

    @Test func theKeyIncludesTheManagersFilterAndTheOptionsProcessorTurnsTheShortcutOff() async {
        let cache = MockImageCache(looksUpMemoryDuringCall: true)
        let image = solidImage(width: 3)
        cache.preload(image, forKey: "filtered")
        let manager = ImageManager(cache: cache, loader: ScriptedLoader())
        manager.cacheKeyFilter = { _ in "filtered" }
        let hit = manager.loadImage(url: url) { _ in }
        #expect(hit.isFinished, "the filtered key is found during the call")

        manager.optionsProcessor = { _, options, context in (options, context) }
        let queriesBefore = cache.counts.queries
        let processed = manager.loadImage(url: url) { _ in }
        #expect(await waitUntil(timeout: .seconds(20)) { processed.isFinished })
        // The pipeline's query answered it, not the memory shortcut (which asks the cache's memory alone).
        #expect(cache.counts.queries == queriesBefore + 1, "a processor may change the key: the pipeline decides")
    }
}
